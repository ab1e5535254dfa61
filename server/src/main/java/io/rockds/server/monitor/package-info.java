/**
 * Observability from one set of meters: Micrometer meters ({@link
 * io.rockds.server.monitor.ServerMetrics}), scraped by Prometheus over HTTP ({@link
 * io.rockds.server.monitor.MetricsHttpServer}: {@code /metrics}, {@code /health}) and read over
 * LDAP under {@code cn=monitor} ({@link io.rockds.server.monitor.MonitorEntries}), so the two views
 * never disagree.
 */
package io.rockds.server.monitor;

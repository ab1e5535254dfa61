/**
 * Load runs of the seed's workloads against any LDAP server (RockDS or OpenLDAP slapd) with the
 * UnboundID SDK: {@link io.rockds.benchmarks.load.LoadRun}, driven by {@code benchmarks/run.sh}.
 */
package io.rockds.benchmarks.load;

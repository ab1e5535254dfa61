/**
 * {@code status}: the state of an instance from its files (configuration, started marker, a
 * read-only view of each backend) and, when the server runs, from {@code cn=monitor} over LDAP.
 */
package io.rockds.tools.status;

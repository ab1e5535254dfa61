/**
 * SASL bind mechanisms (RFC 4422): one class per mechanism, registered in {@link
 * io.rockds.server.sasl.SaslMechanisms}. Each turns a bind's SASL credentials into an {@link
 * io.rockds.server.Identity} or fails with the LDAP result the client should see.
 */
package io.rockds.server.sasl;

/**
 * The typed configuration of a RockDS instance and its persistence in {@code config/config.ldif}.
 *
 * <p>The configuration is a tree of LDAP entries under {@code cn=config}, laid out like OpenDJ's
 * ({@code ds-cfg-backend-id=userRoot,cn=Backends,cn=config}, {@code
 * ds-cfg-attribute=sn,cn=Index,...}), so that it can be served over LDAP as it is and edited by
 * {@code dsconfig}. {@link io.rockds.config.ConfigStore} owns the entries and writes every accepted
 * change atomically; typed records ({@link io.rockds.config.BackendConfig}, {@link
 * io.rockds.config.ConnectionHandlerConfig}, ...) read them with validation that names the
 * offending property.
 */
package io.rockds.config;

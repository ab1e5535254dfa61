/**
 * Privileges (OpenDJ's model): named rights outside access control, such as {@code bypass-acl},
 * {@code config-write} or {@code password-reset}, held by root DNs and by entries through {@code
 * ds-privilege-name}.
 */
package io.rockds.server.security.privilege;

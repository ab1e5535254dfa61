/** Authentication: root users, password storage schemes (in {@code password}), identities. */
package io.rockds.server.security;

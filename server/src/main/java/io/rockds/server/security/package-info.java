/**
 * Authentication and authorization: root users, TLS contexts, password storage schemes (in {@code
 * password}), and {@link io.rockds.server.security.AccessControl}, the one service operations ask
 * before reading or writing. Its pieces live in {@code aci} (OpenDJ-syntax access control
 * instructions), {@code privilege} (OpenDJ's privileges) and {@code policy} (password policy);
 * {@link io.rockds.server.security.SecurityServices} builds them from the configuration.
 *
 * <p>Defaults, secure as OpenDJ ships them: the global ACIs in {@code cn=Access Control
 * Handler,cn=config} let anonymous clients read only the root DSE and {@code cn=schema}, let
 * authenticated users read and search everything but {@code userPassword} and {@code authPassword},
 * and let users change their own password; {@code cn=config} needs the {@code config-read} / {@code
 * config-write} privileges. One switch, {@code ds-cfg-allow-anonymous-read: true} on {@code
 * cn=config} (written by {@code setup --allowAnonymousRead}), adds anonymous read and search of
 * everything but passwords, as OpenLDAP and 389 DS ship.
 */
package io.rockds.server.security;

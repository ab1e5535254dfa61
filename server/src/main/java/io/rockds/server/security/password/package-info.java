/**
 * Password storage schemes: how {@code userPassword} values are hashed on the way in and checked at
 * simple bind.
 *
 * <p>A stored value is {@code {SCHEME}payload}, byte-compatible with what OpenLDAP ({@code
 * slappasswd}, pw-sha2, pw-pbkdf2, argon2 modules) and OpenDJ write, so an LDIF exported from
 * either imports and authenticates unchanged. {@link
 * io.rockds.server.security.password.PasswordSchemes} is the only entry point the server uses: it
 * picks the scheme from the prefix (case-insensitive), hashes clear-text values with the configured
 * default scheme, and keeps values that already carry a known scheme. Each family of algorithms is
 * one package-private class; the key derivation functions come from Bouncy Castle and {@code
 * crypt(3)} from Commons Codec, never hand-written.
 *
 * <p>Every comparison of a derived hash with a stored one is constant-time ({@link
 * java.security.MessageDigest#isEqual} or Bouncy Castle's equivalent), and a malformed stored value
 * never matches: it makes {@code verify} return {@code false}, it never throws.
 */
package io.rockds.server.security.password;

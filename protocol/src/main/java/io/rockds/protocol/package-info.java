/**
 * LDAP v3 (RFC 4511) over Netty: BER framing, message decoding and encoding, connection handling.
 *
 * <p>This module knows bytes, BER and LDAP messages and nothing of storage. Every PDU is framed
 * by {@link io.rockds.protocol.LdapFrameDecoder}, which reads the BER tag and length itself and
 * refuses indefinite lengths and anything over the size limit <em>before</em> buffering it; the
 * framed bytes are then decoded through UnboundID's element path ({@code ASN1Element.decode} then
 * {@code LDAPMessage.decode}), never its streaming reader, which can be made to allocate without
 * bound by a 25-byte input. Requests are handed to an {@link io.rockds.protocol.LdapRequestHandler}
 * on a bounded worker pool, never run on the event loop.
 */
package io.rockds.protocol;

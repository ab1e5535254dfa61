/**
 * LDAP v3 (RFC 4511) over Netty: BER framing, message decoding and encoding, connection handling.
 *
 * <p>This module knows bytes, BER and LDAP messages and nothing of storage. Every PDU is framed by
 * {@link io.rockds.protocol.LdapFrameDecoder}, which reads the BER tag and length itself and
 * refuses indefinite lengths and anything over the size limit <em>before</em> buffering it, and
 * which cuts off clients that trickle a request slower than the read deadline; the framed bytes are
 * then decoded through UnboundID's element path ({@code ASN1Element.decode} then {@code
 * LDAPMessage.decode}) after an iterative BER depth check, never its streaming reader, which can be
 * made to allocate without bound by a 25-byte input.
 *
 * <p>Requests are handed to an {@link io.rockds.protocol.LdapRequestHandler} on a bounded worker
 * pool, never run on the event loop. Reading is pull-based: a connection is read only while it has
 * fewer than its maximum of requests outstanding and nothing queued, and queued requests are
 * started only while the connection is writable, so a client that does not read its responses
 * stalls in its own socket buffers instead of growing the server's memory. Responses are encoded on
 * the worker that produces them, so the write buffer's high water mark sees their real size.
 */
package io.rockds.protocol;

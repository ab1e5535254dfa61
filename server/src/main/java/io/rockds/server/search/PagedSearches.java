package io.rockds.server.search;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The simple paged results (RFC 2696) searches a connection has open. A cookie is 16 random bytes
 * naming server-side state, so it reveals nothing and cannot be forged; it is valid only on the
 * connection that got it. A connection holds at most {@value #MAX_OPEN} paged searches (the least
 * recently used goes first) and a search idle for {@link #IDLE_EXPIRY_NANOS} is dropped. An
 * unknown, expired or altered cookie is a protocolError (2), as OpenLDAP answers; a cookie sent
 * with different search parameters is unwillingToPerform (53).
 */
public final class PagedSearches {
  static final int MAX_OPEN = 16;
  static final long IDLE_EXPIRY_NANOS = TimeUnit.MINUTES.toNanos(10);
  private static final SecureRandom RANDOM = new SecureRandom();

  /** Where the next page starts (inclusive). */
  public sealed interface Resume {}

  /** An indexed search: the candidate IDs from this one on. */
  public record AtId(long id) implements Resume {}

  /** An unindexed search: the dn2id walk from this key on. */
  public record AtKey(byte[] key) implements Resume {}

  /** A sorted search: the sorted IDs from this index on. */
  public record AtSorted(long[] ids, int index) implements Resume {}

  private record Open(String search, Resume resume, long lastUsed) {}

  private final Map<String, Open> open = new LinkedHashMap<>(MAX_OPEN, 0.75f, true);

  /**
   * The resume point of the search a cookie names, removed from the open searches.
   *
   * @param search the request's parameters, which must be those that got the cookie
   */
  public synchronized Resume take(ASN1OctetString cookie, String search) throws LDAPException {
    expire(System.nanoTime());
    Open state = open.remove(key(cookie));
    if (state == null) {
      throw new LDAPException(ResultCode.PROTOCOL_ERROR, "paged results cookie is invalid");
    }
    if (!state.search().equals(search)) {
      throw new LDAPException(
          ResultCode.UNWILLING_TO_PERFORM,
          "paged results cookie belongs to a search with other parameters");
    }
    return state.resume();
  }

  /** Keeps a search open until its next page; returns the cookie naming it. */
  public synchronized ASN1OctetString keep(String search, Resume resume) {
    long now = System.nanoTime();
    expire(now);
    while (open.size() >= MAX_OPEN) {
      Iterator<String> eldest = open.keySet().iterator();
      eldest.next();
      eldest.remove();
    }
    byte[] cookie = new byte[16];
    RANDOM.nextBytes(cookie);
    open.put(HexFormat.of().formatHex(cookie), new Open(search, resume, now));
    return new ASN1OctetString(cookie);
  }

  /** Drops the search a cookie names, if any (a page size of 0 abandons a paged search). */
  public synchronized void release(ASN1OctetString cookie) {
    open.remove(key(cookie));
  }

  public synchronized int openCount() {
    return open.size();
  }

  void expire(long now) {
    open.values().removeIf(state -> now - state.lastUsed() > IDLE_EXPIRY_NANOS);
  }

  private static String key(ASN1OctetString cookie) {
    return HexFormat.of().formatHex(cookie.getValue());
  }
}

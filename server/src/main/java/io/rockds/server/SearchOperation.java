package io.rockds.server;

import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.protocol.SearchRequestProtocolOp;
import com.unboundid.ldap.protocol.SearchResultEntryProtocolOp;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import io.rockds.storage.EntryContainer;
import io.rockds.storage.IdSet;
import io.rockds.storage.search.IndexQuery;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A search (RFC 4511 section 4.5) in two phases: candidate IDs from the indexes
 * ({@link IndexQuery}), then each candidate read (entry cache first), checked against scope and
 * the whole filter, and returned with the requested attributes. A search whose candidates stay
 * undefined is unindexed: it walks the scope and needs the {@code unindexed-search} privilege.
 */
final class SearchOperation {
  /** How long one entry may wait for a client that does not read before the search gives up. */
  private static final long SLOW_CLIENT_WAIT_MILLIS = 60_000;

  private final ServerContext context;
  private final ClientConnection client;
  private final LDAPMessage request;
  private final SearchRequestProtocolOp search;
  private final AtomicBoolean cancelled;
  private DN base;
  private Filter filter;
  private AttributeSelection attributes;
  private EntryContainer container;
  private int sizeLimit;
  private long deadlineNanos;
  private int sent;

  SearchOperation(ServerContext context, ClientConnection client, LDAPMessage request, AtomicBoolean cancelled) {
    this.context = context;
    this.client = client;
    this.request = request;
    this.search = request.getSearchRequestProtocolOp();
    this.cancelled = cancelled;
  }

  void run() throws LDAPException {
    base = Dns.parse(search.getBaseDN());
    filter = search.getFilter();
    attributes = new AttributeSelection(search.getAttributes(), context.schema());
    Identity identity = client.identity();
    setLimits(identity);
    if (base.isNullDN() && search.getScope() == SearchScope.BASE) {
      sendIfMatches(RootDse.build(context), null, -1);
      done(ResultCode.SUCCESS, null);
      return;
    }
    container = context.backends().containerFor(base);
    if (container == null) {
      throw new LDAPException(ResultCode.NO_SUCH_OBJECT, "The search base entry " + base + " does not exist");
    }
    if (container.idOf(base) < 0) {
      DN matched = container.matchedDn(base);
      throw new LDAPException(ResultCode.NO_SUCH_OBJECT, "The search base entry " + base + " does not exist",
          matched == null ? null : matched.toString(), null);
    }
    IdSet candidates = new IndexQuery(container).candidates(filter);
    if (candidates.isDefined()) {
      for (long id : candidates.toArray()) {
        if (!process(id)) {
          return;
        }
      }
    } else {
      if (!identity.has("unindexed-search")) {
        throw new LDAPException(ResultCode.INSUFFICIENT_ACCESS_RIGHTS,
            "You do not have sufficient privileges to perform an unindexed search");
      }
      boolean[] completed = {true};
      container.visitScope(base, search.getScope(), (key, id) -> completed[0] = process(id));
      if (!completed[0]) {
        return;
      }
    }
    done(ResultCode.SUCCESS, null);
  }

  private void setLimits(Identity identity) {
    int requested = search.getSizeLimit();
    int server = identity.root() ? 0 : context.global().sizeLimit();
    sizeLimit = requested <= 0 ? server : server <= 0 ? requested : Math.min(requested, server);
    int requestedTime = search.getTimeLimit();
    int serverTime = identity.root() ? 0 : context.global().timeLimitSeconds();
    int seconds = requestedTime <= 0 ? serverTime : serverTime <= 0 ? requestedTime : Math.min(requestedTime, serverTime);
    deadlineNanos = seconds <= 0 ? Long.MAX_VALUE : System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
  }

  /** Checks and sends one candidate; false when the search must stop (abandoned or a limit). */
  private boolean process(long id) throws LDAPException {
    if (cancelled.get()) {
      return false;
    }
    if (System.nanoTime() > deadlineNanos) {
      throw new LDAPException(ResultCode.TIME_LIMIT_EXCEEDED, "The time limit for the search was exceeded");
    }
    Entry entry = container.get(id);
    if (entry == null || !inScope(entry.getParsedDN())) {
      return true;
    }
    return sendIfMatches(entry, container, id);
  }

  private boolean inScope(DN dn) {
    return switch (search.getScope().intValue()) {
      case SearchScope.BASE_INT_VALUE -> dn.equals(base);
      case SearchScope.ONE_INT_VALUE -> base.equals(dn.getParent());
      case SearchScope.SUBORDINATE_SUBTREE_INT_VALUE -> dn.isDescendantOf(base, false);
      default -> dn.isDescendantOf(base, true);
    };
  }

  private boolean sendIfMatches(Entry stored, EntryContainer source, long id) throws LDAPException {
    Entry entry = source == null ? stored : OperationalAttributes.withVirtual(stored, source, id, attributes);
    if (!matches(entry)) {
      return true;
    }
    entry = context.access().filterEntry(client, entry, filter);
    if (entry == null) {
      return true;
    }
    if (sizeLimit > 0 && sent >= sizeLimit) {
      throw new LDAPException(ResultCode.SIZE_LIMIT_EXCEEDED, "The size limit of " + sizeLimit + " entries was exceeded");
    }
    List<Attribute> selected = attributes.select(entry, search.typesOnly());
    LDAPMessage message = new LDAPMessage(request.getMessageID(),
        new SearchResultEntryProtocolOp(entry.getDN(), selected));
    try {
      if (!client.ldap().sendEntry(message, SLOW_CLIENT_WAIT_MILLIS)) {
        cancelled.set(true);
        return false;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
    sent++;
    return true;
  }

  private boolean matches(Entry entry) {
    try {
      return filter.matchesEntry(entry, context.schema());
    } catch (LDAPException e) {
      // Undefined (RFC 4511 section 4.5.1.7): not returned.
      return false;
    }
  }

  private void done(ResultCode code, String message) {
    client.ldap().send(Responses.result(request, code, null, message, List.of()));
  }
}

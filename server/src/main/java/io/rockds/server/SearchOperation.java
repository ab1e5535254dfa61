package io.rockds.server;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.protocol.SearchRequestProtocolOp;
import com.unboundid.ldap.protocol.SearchResultEntryProtocolOp;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.controls.EntryChangeNotificationControl;
import com.unboundid.ldap.sdk.controls.PersistentSearchChangeType;
import com.unboundid.ldap.sdk.controls.PersistentSearchRequestControl;
import com.unboundid.ldap.sdk.controls.SimplePagedResultsControl;
import io.rockds.protocol.EntryBatch;
import io.rockds.server.backend.AccessRule;
import io.rockds.server.backend.Change;
import io.rockds.server.backend.DirectoryBackend;
import io.rockds.server.backend.SearchResults;
import io.rockds.server.logging.OperationRecord;
import io.rockds.server.psearch.PersistentSearch;
import io.rockds.server.psearch.PersistentSearches;
import io.rockds.server.search.DebugSearchIndex;
import io.rockds.server.search.MatchedValues;
import io.rockds.server.search.PagedSearches;
import io.rockds.server.search.SearchLimits;
import io.rockds.server.search.ServerSideSort;
import io.rockds.server.search.VirtualListView;
import io.rockds.server.security.privilege.Privilege;
import io.rockds.storage.AttributeProjection;
import io.rockds.storage.EntryContainer;
import io.rockds.storage.EntryRecord;
import io.rockds.storage.IdSet;
import io.rockds.storage.ReadFrom;
import io.rockds.storage.SearchBase;
import io.rockds.storage.StorageException;
import io.rockds.storage.StoredEntry;
import io.rockds.storage.VlvIndex;
import io.rockds.storage.matching.FilterEvaluator;
import io.rockds.storage.matching.PreparedFilter;
import io.rockds.storage.search.SearchCandidates;
import io.rockds.storage.search.Trace;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;

/**
 * A search (RFC 4511 section 4.5) of the backend holding the base DN: its read privileges checked
 * once, each entry it has in scope tested against the filter, the ACIs where they apply, and
 * returned with the requested attributes. A RocksDB backend is searched in two phases: candidate
 * IDs from the indexes and the scope ({@link SearchCandidates}), then each candidate read (entry
 * cache first), checked against scope and the whole filter ({@link FilterEvaluator}) and returned
 * with the requested attributes.
 *
 * <p>A search whose candidates stay undefined is unindexed: it walks the scope in dn2id order, is
 * counted and flagged ({@link #isUnindexed()}, the access log's {@code unindexed}), and needs the
 * {@code unindexed-search} privilege. Limits: size, time and lookthrough ({@link SearchLimits}).
 * Controls: simple paged results, server-side sort, virtual list view, matched values, persistent
 * search: the search then stays open after its initial results (none with changesOnly) and returns
 * each committed change of an entry it matches, as a normal result entry would be returned (filter,
 * access control, attributes), with the Entry Change Notification control if returnECs; the time
 * limit does not apply to that phase, as in OpenDJ.
 */
final class SearchOperation implements SearchResults {
  /** How long one entry may wait for a client that does not read before the search gives up. */
  private static final long SLOW_CLIENT_WAIT_MILLIS = 60_000;

  private static final String UNINDEXED_PRIVILEGE = "unindexed-search";

  /** Receives each match; returns false to stop the walk. */
  @FunctionalInterface
  private interface Matches {
    boolean accept(long id, Match match, PagedSearches.Resume here) throws LDAPException;
  }

  /** A candidate that matched: its entry, or its record when it is sent as stored. */
  private record Match(Entry entry, EntryRecord record) {
    Match(Entry entry) {
      this(entry, null);
    }
  }

  private final ServerContext context;
  private final ClientConnection client;
  private final LDAPMessage request;
  private final SearchRequestProtocolOp search;
  private final AtomicBoolean cancelled;

  private final PersistentSearches persistentSearches;

  /** The persistent search this request opened, once registered; null for a plain search. */
  private PersistentSearch persistent;

  private PersistentSearchRequestControl persistentControl;
  private DN base;
  private Filter filter;

  /**
   * The filter analysed once for the whole search (evaluation, attributes tested, computed
   * attributes named); in a RocksDB backend strict about undefined types.
   */
  private PreparedFilter prepared;

  private EntryBatch batch;
  private AttributeSelection attributes;
  private Set<String> virtualAttributes;
  private boolean dnOnly;
  private AccessRule readAccess;
  private ServerSideSort sort;
  private VirtualListView listView;

  /** Set once the client is gone or a limit stopped the search: no result follows. */
  private boolean stopped;

  private EntryContainer container;

  /** The base entry in a RocksDB backend, read once. */
  private SearchBase searchBase;

  private SearchLimits limits;
  private MatchedValues matchedValues;
  private SimplePagedResultsControl paging;
  private PagedSearches.Resume resumeNext;

  /** The virtual list view window that was sent, for the response control. */
  private VirtualListView.Window window;

  private boolean unindexed;

  /** The indexes proved that every candidate matches the filter: phase 2 checks the scope only. */
  private boolean filterProven;

  /** Every entry of the container is in scope (a subtree search of its base DN): no DN check. */
  private boolean wholeContainer;

  /**
   * What to decode of a candidate when not all of it is needed (see {@link #readProjection}), else
   * null.
   */
  private AttributeProjection projection;

  /**
   * Candidates are sent from their records as stored when they can be: see {@link #sendsAsStored}.
   */
  private boolean asStored;

  private long examined;

  /** Entries sent by this request: one page when paging. */
  private int sent;

  /**
   * Running on an event loop ({@link #mayRunInline}): the search gives way to a worker ({@link
   * RunOnWorker}) unless it has at most {@value #INLINE_CANDIDATES} indexed candidates and needs
   * none of their values stored apart ({@link #readOnEventLoop}), nor the groups of an entry.
   */
  private final boolean inline;

  /**
   * On an event loop, whether a candidate lacking its values stored apart needs all of them
   * whatever attributes are returned; null until such a candidate is met.
   */
  private Boolean needsAllValuesApart;

  /** The most candidates a search run on an event loop reads: a few point reads. */
  static final int INLINE_CANDIDATES = 16;

  /** The most equality assertions an AND may hold in a search run on an event loop. */
  private static final int INLINE_ASSERTIONS = 4;

  SearchOperation(
      ServerContext context,
      ClientConnection client,
      LDAPMessage request,
      AtomicBoolean cancelled,
      PersistentSearches persistentSearches,
      boolean inline) {
    this.context = context;
    this.client = client;
    this.request = request;
    this.search = request.getSearchRequestProtocolOp();
    this.cancelled = cancelled;
    this.persistentSearches = persistentSearches;
    this.inline = inline;
  }

  /**
   * Whether {@code request} is a search that may be tried on an event loop: without controls, of
   * base scope or with a filter of equality assertions only (each one index key read), so that what
   * it costs is known once its candidates are.
   */
  static boolean mayRunInline(LDAPMessage request) {
    if (request.getProtocolOpType() != LDAPMessage.PROTOCOL_OP_TYPE_SEARCH_REQUEST
        || !request.getControls().isEmpty()) {
      return false;
    }
    SearchRequestProtocolOp search = request.getSearchRequestProtocolOp();
    Filter filter = search.getFilter();
    return search.getScope() == SearchScope.BASE
        || filter.getFilterType() == Filter.FILTER_TYPE_EQUALITY
        || filter.getFilterType() == Filter.FILTER_TYPE_AND
            && filter.getComponents().length <= INLINE_ASSERTIONS
            && Arrays.stream(filter.getComponents())
                .allMatch(f -> f.getFilterType() == Filter.FILTER_TYPE_EQUALITY);
  }

  /** True once the search turned out unindexed (the access log writes {@code unindexed}). */
  boolean isUnindexed() {
    return unindexed;
  }

  void run() throws LDAPException {
    batch = client.ldap().entryBatch();
    boolean initialPhaseDone = false;
    try {
      search();
      initialPhaseDone = true;
    } finally {
      // Entries still batched leave before whatever result the caller sends for an exception.
      try {
        batch.flush(SLOW_CLIENT_WAIT_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      if (persistent != null) {
        if (initialPhaseDone && !cancelled.get() && !stopped) {
          persistent.start();
        } else {
          persistent.abandon("its initial search ended");
        }
      }
    }
  }

  private void search() throws LDAPException {
    base = Dns.parseBase(search.getBaseDN());
    filter = search.getFilter();
    FilterEvaluator evaluator = context.serverSchema().evaluator();
    prepared = evaluator.prepare(filter);
    attributes = new AttributeSelection(search.getAttributes(), context.schema());
    virtualAttributes = VirtualAttributes.wantedBy(attributes, prepared);
    if (inline && VirtualAttributes.readsGroups(virtualAttributes)) {
      throw RunOnWorker.INSTANCE;
    }
    Identity identity = client.identity();
    limits = SearchLimits.of(search, context.global(), identity.root(), identity.limits());
    sort = ServerSideSort.from(control(ServerSideSort.OID), context.schema());
    matchedValues = MatchedValues.from(control(MatchedValues.OID), evaluator);
    paging = pagingControl();
    listView = VirtualListView.from(control(VirtualListView.OID));
    // Asking for no attributes, without access control to apply, needs nothing of a match but its
    // DN.
    dnOnly =
        attributes.selectsNone()
            && virtualAttributes.isEmpty()
            && matchedValues == null
            && sort == null
            && Privilege.BYPASS_ACL.heldBy(identity);
    DirectoryBackend backend = context.router().route(base);
    readAccess = backend.readAccess();
    context.access().checkRead(client, readAccess);
    persistentControl = persistentControl();
    if (persistentControl != null) {
      // Registered before the initial results are read, so that no change falls in between.
      persistent =
          persistentSearches.open(
              new PersistentSearch.Request(
                  client.ldap(),
                  request.getMessageID(),
                  identity.isAnonymous(),
                  base,
                  search.getScope(),
                  PersistentSearchChangeType.encodeChangeTypes(persistentControl.getChangeTypes())),
              notifications(client.actingAs(identity)));
      if (persistentControl.changesOnly()) {
        if (backend.get(base) == null) {
          throw new LDAPException(
              ResultCode.NO_SUCH_OBJECT, "The search base entry " + base + " does not exist");
        }
        return;
      }
    }
    backend.search(base, search.getScope(), this);
    if (container == null && !stopped) {
      done(List.of());
    }
  }

  /** An entry of a backend without indexes: sent if it matches and the client may read it. */
  @Override
  public boolean inScope(Entry inScope) throws LDAPException {
    if (inline) {
      throw RunOnWorker.INSTANCE; // a backend without indexes walks its entries
    }
    Entry entry = readAccess.view().visible(client.identity(), inScope);
    if (matches(entry)) {
      Entry visible =
          context.access().filterEntry(client, readAccess, entry, prepared.attributeNames());
      if (visible != null && !send(visible)) {
        stopped = true;
        return false;
      }
    }
    return true;
  }

  @Override
  public Filter filter() {
    return filter;
  }

  /** A RocksDB backend: candidates from its indexes, then each one read and tested. */
  @Override
  public void indexed(EntryContainer container, SearchBase searchBase) throws LDAPException {
    this.container = container;
    this.searchBase = searchBase;
    prepared = prepared.definedTypesOnly();
    Identity identity = client.identity();
    if (sort != null) {
      sort.requireUsableIfCritical();
    }
    if (listView != null) {
      checkListView();
    }
    PagedSearches.Resume resume = null;
    if (paging != null && paging.getCookie().getValueLength() > 0) {
      resume = client.pagedSearches().take(paging.getCookie(), fingerprint());
    }
    if (paging != null && paging.getSize() <= 0) {
      // RFC 2696: a page size of 0 abandons the paged search.
      done(List.of(new SimplePagedResultsControl(0, new ASN1OctetString(), false)));
      return;
    }
    VlvIndex vlvIndex =
        listView == null
            ? null
            : container.vlvIndexFor(base, search.getScope(), filter, sort.requestedKeys());
    if (vlvIndex != null) {
      if (!sendFromVlvIndex(vlvIndex, identity)) {
        return;
      }
    } else if (resume instanceof PagedSearches.AtSorted sorted) {
      sendSorted(sorted.ids(), sorted.index());
    } else {
      IdSet ids = candidates(identity, resume);
      if (ids == null) {
        return;
      }
      if (inline && (!ids.isDefined() || ids.size() > INLINE_CANDIDATES)) {
        throw RunOnWorker.INSTANCE;
      }
      if (sort != null && sort.usable()) {
        sortThenSend(ids, sort, resume);
      } else if (inline) {
        readAllThenSend(ids);
      } else {
        walk(ids, resume, this::sendOrStop);
      }
    }
    if (cancelled.get()) {
      return;
    }
    List<Control> responseControls = new ArrayList<>();
    if (sort != null) {
      responseControls.add(sort.responseControl());
    }
    if (window != null) {
      responseControls.add(listView.responseControl(window));
    }
    if (paging != null) {
      ASN1OctetString cookie =
          resumeNext == null
              ? new ASN1OctetString()
              : client.pagedSearches().keep(fingerprint(), resumeNext);
      responseControls.add(new SimplePagedResultsControl(0, cookie, false));
    }
    done(responseControls);
  }

  /**
   * Phase 1: the candidate IDs (undefined when unindexed), or null when the search asked for {@code
   * debugsearchindex} and its trace has been returned instead.
   */
  private IdSet candidates(Identity identity, PagedSearches.Resume resume) throws LDAPException {
    if (resume instanceof PagedSearches.AtKey) {
      // The first page found the search unindexed: resume the walk without rebuilding candidates.
      unindexed = true;
      OperationRecord.current().markUnindexed();
      requireUnindexedPrivilege(identity);
      planReads(identity, false);
      return IdSet.undefined(IdSet.Undefined.NOT_INDEXED);
    }
    SearchCandidates.Result candidates =
        SearchCandidates.find(
            container,
            context.schema(),
            context.groups().virtualIndexes(),
            searchBase,
            filter,
            limits.lookthroughLimit(),
            limits);
    // The index reads stop at the deadline with partial candidates: never use them past it.
    limits.checkTime();
    if (DebugSearchIndex.requested(search.getAttributes(), identity)) {
      send(DebugSearchIndex.entry(candidates.trace()));
      done(List.of());
      return null;
    }
    checkCandidates(candidates.ids(), identity);
    planReads(identity, candidates.filterProven());
    return candidates.ids();
  }

  /** Decides once per search how phase 2 reads and checks each candidate. */
  private void planReads(Identity identity, boolean proven) {
    filterProven = proven;
    wholeContainer = container.holdsWholeScope(searchBase);
    projection = readProjection(identity);
    asStored = sendsAsStored(identity);
  }

  /**
   * Whether candidates are sent from their records as stored ({@link EntryContainer#recordToSend}),
   * no entry decoded: when nothing but the choice of attributes stands between a record and the
   * client. The indexes proved the filter and the search covers the whole container; no access
   * control applies; no virtual attribute, matched values, sort or types only; and all user or all
   * operational attributes are returned, which keeps the stored order (named attributes alone are
   * returned in the order named).
   */
  private boolean sendsAsStored(Identity identity) {
    return filterProven
        && wholeContainer
        && !dnOnly
        && attributes.selectsAll()
        && virtualAttributes.isEmpty()
        && matchedValues == null
        && control(ServerSideSort.OID) == null
        && !search.typesOnly()
        && Privilege.BYPASS_ACL.heldBy(identity);
  }

  /**
   * The attributes a candidate must be decoded with when the search needs fewer than all of them:
   * the requested ones and those the filter tests (unless the indexes proved it), for a client whom
   * no access control applies to (ACIs may test any attribute) and with no virtual attribute, sort
   * or matched-values control (they read other attributes). Null: decode it all.
   */
  private AttributeProjection readProjection(Identity identity) {
    if (dnOnly
        || attributes.selectsAll()
        || !virtualAttributes.isEmpty()
        || matchedValues != null
        || control(ServerSideSort.OID) != null
        || !Privilege.BYPASS_ACL.heldBy(identity)) {
      return null;
    }
    if (filterProven) {
      return new AttributeProjection(attributes::includes);
    }
    Predicate<String> tested = prepared.attributesTested();
    return new AttributeProjection(
        description -> attributes.includes(description) || tested.test(description));
  }

  /**
   * Unindexed: counted, flagged and allowed only with the privilege; indexed: bounded by
   * lookthrough.
   */
  private void checkCandidates(IdSet ids, Identity identity) throws LDAPException {
    if (!ids.isDefined()) {
      unindexed = true;
      OperationRecord.current().markUnindexed();
      requireUnindexedPrivilege(identity);
    } else {
      limits.checkLookthrough(ids.size());
    }
  }

  private void requireUnindexedPrivilege(Identity identity) throws LDAPException {
    if (!identity.root() && !identity.has(UNINDEXED_PRIVILEGE)) {
      throw new LDAPException(
          ResultCode.INSUFFICIENT_ACCESS_RIGHTS,
          "The search is unindexed: no index narrows "
              + filter
              + " in scope "
              + search.getScope().getName()
              + " below all entries, and unindexed searches "
              + "need the "
              + UNINDEXED_PRIVILEGE
              + " privilege");
    }
  }

  // ---------------------------------------------------------------- candidate walks

  /**
   * Visits the matching entries: the candidate IDs in order, or the scope in dn2id order when
   * unindexed.
   */
  private void walk(IdSet ids, PagedSearches.Resume resume, Matches matches) throws LDAPException {
    if (ids.isDefined()) {
      long from = resume instanceof PagedSearches.AtId at ? at.id() : Long.MIN_VALUE;
      for (long id : ids.toArray()) {
        if (id >= from && !examine(id, new PagedSearches.AtId(id), matches)) {
          return;
        }
      }
      return;
    }
    // A scan rejects most entries: it tests the filter on the attributes the filter names before
    // reading a whole entry (unless the filter tests computed attributes).
    // A projected search's projection holds the tested attributes too: one decode serves both.
    AttributeProjection tested =
        VirtualAttributes.namedIn(prepared)
            ? null
            : projection != null
                ? projection
                : new AttributeProjection(prepared.attributesTested());
    if (resume instanceof PagedSearches.AtKey at && at.key() != null) {
      container.visitScopeFrom(
          searchBase,
          at.key(),
          (key, id) -> examine(id, tested, new PagedSearches.AtKey(key), matches));
    } else {
      container.visitScope(
          searchBase, (key, id) -> examine(id, tested, new PagedSearches.AtKey(key), matches));
    }
  }

  /**
   * On an event loop: every candidate read and checked before the first entry is sent, so that the
   * search may still give way to a worker ({@link RunOnWorker}) having sent nothing.
   */
  private void readAllThenSend(IdSet ids) throws LDAPException {
    List<Match> matching = new ArrayList<>(ids.size());
    try {
      walk(
          ids,
          null,
          (id, match, here) -> {
            matching.add(match);
            return true;
          });
    } catch (StorageException e) {
      if (e.kind() == StorageException.Kind.NOT_IN_MEMORY) {
        throw RunOnWorker.INSTANCE; // a candidate is on disk: read it where waiting is allowed
      }
      throw e;
    }
    for (Match match : matching) {
      if (!send(match)) {
        return;
      }
    }
  }

  private boolean examine(long id, PagedSearches.Resume here, Matches matches)
      throws LDAPException {
    return examine(id, null, here, matches);
  }

  /**
   * Reads one candidate and hands it on if it is in scope and matches; false to stop. With {@code
   * tested}, entries whose tested attributes do not match are rejected without a full decode, and
   * those that match are completed from the record already read: each entry is read and decoded
   * once.
   */
  private boolean examine(
      long id, AttributeProjection tested, PagedSearches.Resume here, Matches matches)
      throws LDAPException {
    if (cancelled.get()) {
      return false;
    }
    limits.checkTime();
    if (unindexed) {
      limits.checkLookthrough(++examined);
    }
    if (asStored && tested == null) {
      EntryRecord record = container.recordToSend(id, inline ? ReadFrom.MEMORY : ReadFrom.ANYWHERE);
      if (record != null) {
        return matches.accept(id, new Match(null, record), here);
      }
    }
    Entry partial = null;
    if (tested != null) {
      partial = container.peek(id, tested);
      if (partial == null || !matches(partial)) {
        return true;
      }
    }
    Entry stored =
        partial == null
            ? inline ? readOnEventLoop(id) : read(id)
            : dnOnly || tested == projection ? partial : container.complete(partial);
    if (stored == null
        || !(wholeContainer || stored.getParsedDN().matchesBaseAndScope(base, search.getScope()))) {
      return true;
    }
    Entry entry = VirtualAttributes.forSearch(context, stored, container, id, virtualAttributes);
    if (!filterProven && !matches(entry)) {
      return true;
    }
    // Access control: entries the client may not read are skipped silently, unreadable attributes
    // dropped.
    Entry visible = context.access().filterEntry(client, entry, prepared.attributeNames());
    return visible == null || matches.accept(id, new Match(visible), here);
  }

  /**
   * Whether the entry matches the filter; timeLimitExceeded when the evaluation gave up at the
   * deadline, since its "no" is then not an answer.
   */
  private boolean matches(Entry entry) throws LDAPException {
    if (prepared.matches(entry, limits)) {
      return true;
    }
    limits.checkTime();
    return false;
  }

  /**
   * A candidate as much as this search needs of it: its DN alone when the indexes proved the match
   * and no attribute is returned, the projected attributes, or the whole entry.
   */
  private Entry read(long id) throws LDAPException {
    if (dnOnly && filterProven) {
      return container.withDnOnly(id, ReadFrom.ANYWHERE);
    }
    return projection != null ? container.peek(id, projection) : container.get(id);
  }

  /**
   * {@link #read} on an event loop, which must never wait: the record is read from memory only (a
   * record on disk makes the search give way to a worker, {@link RunOnWorker}, from {@link
   * #readAllThenSend}), and the values stored apart of a group (its members: a key range of
   * id2values, a million records for a group of a million) are never read: the entry says it lacks
   * them, and the search gives way to a worker if it needs them. A user's photo or certificates,
   * stored apart too but a few values, are read from memory when the search needs them.
   */
  private Entry readOnEventLoop(long id) throws LDAPException {
    if (dnOnly && filterProven) {
      return container.withDnOnly(id, ReadFrom.MEMORY);
    }
    Entry entry = container.peekWithoutValuesApart(id, projection, ReadFrom.MEMORY);
    if (entry instanceof StoredEntry stored
        && stored.lacksValues()
        && (needsAllValuesApart() || stored.lacksValuesOf(attributes::includes))) {
      if (!stored.lacksOnlyBoundedValues()) {
        throw RunOnWorker.INSTANCE;
      }
      // A user's photo or certificates: a few values, read here if they are in memory.
      return container.completeFromMemory(stored);
    }
    return entry;
  }

  /**
   * Whether this search needs every value stored apart of an entry, whatever it returns: access
   * control applies (an ACI may read them: userattr, a target filter), the filter reads them beyond
   * point reads (an extensible match on member), or virtual attributes are computed (on a copy of
   * the entry, which cannot test them by point reads).
   */
  private boolean needsAllValuesApart() {
    if (needsAllValuesApart == null) {
      needsAllValuesApart =
          !Privilege.BYPASS_ACL.heldBy(client.identity())
              || !virtualAttributes.isEmpty()
              || prepared.readsValuesApart();
    }
    return needsAllValuesApart;
  }

  /** Sends an entry unless the page is full (then remembers where the next page starts). */
  private boolean sendOrStop(long id, Match match, PagedSearches.Resume here) throws LDAPException {
    if (paging != null && sent >= paging.getSize()) {
      resumeNext = here;
      return false;
    }
    return send(match);
  }

  // ---------------------------------------------------------------- sorting

  /**
   * A virtual list view needs the sort control with keys it can use (sortControlMissing, 60) and
   * excludes simple paging (constraintViolation, 19, as OpenDJ).
   */
  private void checkListView() throws LDAPException {
    if (sort == null) {
      throw VirtualListView.failure(
          ResultCode.SORT_CONTROL_MISSING,
          "The virtual list view control needs the server-side sort control",
          0,
          0);
    }
    if (!sort.usable()) {
      throw VirtualListView.failure(
          ResultCode.UNWILLING_TO_PERFORM,
          "The virtual list view needs results sorted, and they cannot be sorted as requested",
          0,
          0,
          sort.responseControl());
    }
    if (paging != null) {
      throw VirtualListView.failure(
          ResultCode.CONSTRAINT_VIOLATION,
          "The virtual list view and simple paged results controls cannot be combined",
          0,
          0);
    }
  }

  private void sortThenSend(IdSet ids, ServerSideSort sort, PagedSearches.Resume resume)
      throws LDAPException {
    List<ServerSideSort.Sortable> matching = new ArrayList<>();
    boolean[] overflow = {false};
    walk(
        ids,
        resume,
        (id, match, here) -> {
          if (matching.size() >= ServerSideSort.MAX_SORTED_ENTRIES) {
            overflow[0] = true;
            return false;
          }
          matching.add(sort.sortable(id, match.entry()));
          return true;
        });
    if (overflow[0] && listView != null) {
      throw VirtualListView.failure(
          ResultCode.UNWILLING_TO_PERFORM,
          "The virtual list view matches more than "
              + ServerSideSort.MAX_SORTED_ENTRIES
              + " entries and no VLV index serves this base, scope, filter and sort order:"
              + " create one (dsconfig create-backend-vlv-index)",
          0,
          0);
    }
    if (overflow[0]) {
      sort.tooManyEntries();
      sort.requireUsableIfCritical();
      examined = 0;
      walk(ids, resume, this::sendOrStop);
      return;
    }
    matching.sort(sort.comparator());
    int from = 0;
    int to = matching.size();
    if (listView != null) {
      window = windowOf(matching);
      from = window.from();
      to = window.to();
    }
    long[] order = new long[to - from];
    for (int i = 0; i < order.length; i++) {
      order[i] = matching.get(from + i).id();
    }
    sendSorted(order, 0);
  }

  /**
   * Sends the window a VLV index holds: its position found from the index's block counts, its
   * entries read one by one and checked by access control as any other. As in OpenDJ, the index
   * counts every entry it holds (contentCount, targetPosition), including those this client may not
   * read; those are not returned. False when {@code debugsearchindex} answered instead.
   */
  private boolean sendFromVlvIndex(VlvIndex index, Identity identity) throws LDAPException {
    int size = index.size();
    ASN1OctetString assertion = listView.assertionValue();
    window =
        assertion == null
            ? listView.byOffset(size)
            : listView.atPosition(index.positionOf(assertion), size);
    long[] ids = index.idsAt(window.from(), window.to() - window.from());
    if (DebugSearchIndex.requested(search.getAttributes(), identity)) {
      window = null;
      send(DebugSearchIndex.entry(Trace.ofVlvIndex(index.spec().name(), size, ids.length)));
      done(List.of());
      return false;
    }
    limits.checkTime();
    planReads(identity, true);
    sendSorted(ids, 0);
    return true;
  }

  /** The VLV window over the sorted, readable matches. */
  private VirtualListView.Window windowOf(List<ServerSideSort.Sortable> sorted)
      throws LDAPException {
    ASN1OctetString assertion = listView.assertionValue();
    if (assertion == null) {
      return listView.byOffset(sorted.size());
    }
    int low = 0;
    int high = sorted.size();
    while (low < high) {
      int middle = (low + high) >>> 1;
      if (sort.compareToAssertion(sorted.get(middle), assertion) < 0) {
        low = middle + 1;
      } else {
        high = middle;
      }
    }
    return listView.atPosition(low, sorted.size());
  }

  /** Sends sorted entries from {@code index} on, re-read so that later pages see deletions. */
  private void sendSorted(long[] order, int index) throws LDAPException {
    for (int i = index; i < order.length; i++) {
      if (cancelled.get()) {
        return;
      }
      limits.checkTime();
      Entry stored = container.get(order[i]);
      if (stored == null) {
        continue;
      }
      Entry entry =
          context
              .access()
              .filterEntry(
                  client,
                  VirtualAttributes.forSearch(
                      context, stored, container, order[i], virtualAttributes),
                  prepared.attributeNames());
      if (entry != null
          && !sendOrStop(order[i], new Match(entry), new PagedSearches.AtSorted(order, i))) {
        return;
      }
    }
  }

  // ---------------------------------------------------------------- responses

  private boolean send(Match match) throws LDAPException {
    return match.record() != null ? sendAsStored(match.record()) : send(match.entry());
  }

  /** Sends one entry with the selected attributes; false when the client is gone. */
  private boolean send(Entry entry) throws LDAPException {
    limits.checkSize(sent);
    List<Attribute> selected = attributes.select(entry, search.typesOnly());
    if (matchedValues != null && !search.typesOnly()) {
      selected = matchedValues.apply(entry.getDN(), selected);
    }
    List<Attribute> returned = selected;
    return added(
        () ->
            batch.addEntry(
                request.getMessageID(), entry.getDN(), returned, SLOW_CLIENT_WAIT_MILLIS));
  }

  /**
   * Sends one record as stored ({@link #sendsAsStored}) with the selected attributes, in the stored
   * order, as {@link #send(Entry)} sends the decoded entry; false when the client is gone.
   */
  private boolean sendAsStored(EntryRecord record) throws LDAPException {
    limits.checkSize(sent);
    return added(
        () ->
            batch.addEntry(
                request.getMessageID(),
                record.bytes(),
                record.dnOffset(),
                record.dnLength(),
                encoder ->
                    record.visit(
                        new EntryRecord.Visitor() {
                          @Override
                          public boolean attribute(String description) {
                            if (!attributes.includes(description)) {
                              return false;
                            }
                            encoder.attribute(description);
                            return true;
                          }

                          @Override
                          public void value(byte[] bytes, int offset, int length) {
                            encoder.value(bytes, offset, length);
                          }
                        }),
                SLOW_CLIENT_WAIT_MILLIS));
  }

  /** An entry's addition to the batch. */
  @FunctionalInterface
  private interface BatchAddition {
    boolean add() throws InterruptedException;
  }

  /** Adds an entry to the batch and counts it; false when the client is gone. */
  private boolean added(BatchAddition addition) {
    try {
      if (!addition.add()) {
        cancelled.set(true);
        return false;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
    sent++;
    OperationRecord.current().entrySent();
    return true;
  }

  private Control control(String oid) {
    for (Control c : request.getControls()) {
      if (c.getOID().equals(oid)) {
        return c;
      }
    }
    return null;
  }

  private PersistentSearchRequestControl persistentControl() throws LDAPException {
    Control c = control(SupportedControls.PERSISTENT_SEARCH);
    if (c == null) {
      return null;
    }
    if (paging != null) {
      throw new LDAPException(
          ResultCode.UNWILLING_TO_PERFORM,
          "A persistent search cannot return its results in pages");
    }
    try {
      return new PersistentSearchRequestControl(c);
    } catch (LDAPException e) {
      throw new LDAPException(
          ResultCode.PROTOCOL_ERROR, "invalid persistent search control: " + e.getMessage(), e);
    }
  }

  /**
   * How each change becomes a notification: the entry must match the filter and be readable by
   * {@code requester} (the identity that opened the search, whatever it binds as later), which gets
   * the attributes it asked for and may read, as in the initial results.
   */
  private PersistentSearch.Notifications notifications(ClientConnection requester) {
    boolean returnEcs = persistentControl.returnECs();
    // Changes come from RocksDB backends only, whose entries the schema governs.
    PreparedFilter changes = prepared.definedTypesOnly();
    return change -> {
      Entry changed = readAccess.view().visible(requester.identity(), change.entry());
      if (!changes.matches(changed)) {
        return null;
      }
      Entry visible =
          context.access().filterEntry(requester, readAccess, changed, changes.attributeNames());
      if (visible == null) {
        return null;
      }
      List<Attribute> selected = attributes.select(visible, search.typesOnly());
      if (matchedValues != null && !search.typesOnly()) {
        selected = matchedValues.apply(visible.getDN(), selected);
      }
      SearchResultEntryProtocolOp entry =
          new SearchResultEntryProtocolOp(visible.getDN(), selected);
      return returnEcs
          ? new LDAPMessage(request.getMessageID(), entry, entryChangeNotification(change))
          : new LDAPMessage(request.getMessageID(), entry);
    };
  }

  private static Control entryChangeNotification(Change change) {
    return new EntryChangeNotificationControl(
        PersistentSearchChangeType.valueOf(change.type().bit()),
        change.previousDn() == null ? null : change.previousDn().toString(),
        change.changeNumber());
  }

  private SimplePagedResultsControl pagingControl() throws LDAPException {
    Control c = control(SimplePagedResultsControl.PAGED_RESULTS_OID);
    if (c == null) {
      return null;
    }
    try {
      return new SimplePagedResultsControl(c.getOID(), c.isCritical(), c.getValue());
    } catch (LDAPException e) {
      throw new LDAPException(
          ResultCode.PROTOCOL_ERROR, "invalid paged results control: " + e.getMessage(), e);
    }
  }

  /** What must not change between the pages of one paged search (RFC 2696 section 3). */
  private String fingerprint() {
    Control sort = control(ServerSideSort.OID);
    Control values = control(MatchedValues.OID);
    return base.toNormalizedString()
        + '\n'
        + search.getScope().intValue()
        + '\n'
        + filter.toNormalizedString()
        + '\n'
        + search.getAttributes()
        + '\n'
        + search.typesOnly()
        + '\n'
        + search.getSizeLimit()
        + '\n'
        + (sort == null ? "" : sort.getValue())
        + '\n'
        + (values == null ? "" : values.getValue());
  }

  /** The final result; a persistent search has none until it ends (its initial phase has ended). */
  private void done(List<Control> controls) throws LDAPException {
    if (sent == 0 && searchBase != null) {
      // An entry found in scope proves its base exists: the base is read only when none was.
      container.requireSearchBase(searchBase);
    }
    if (persistent != null) {
      client.ldap().send(batch);
      return;
    }
    client.ldap().send(batch, Responses.result(request, ResultCode.SUCCESS, null, null, controls));
  }
}

package io.rockds.server.changelog;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.config.ConfigDns;
import io.rockds.config.ConfigStore;
import io.rockds.config.model.ConfigModel;
import io.rockds.config.model.PropertyReader;
import io.rockds.server.GeneralizedTimes;
import io.rockds.server.WriteRecord;
import io.rockds.server.backend.Change;
import io.rockds.server.backend.ChangeNotifier;
import io.rockds.storage.Backend;
import io.rockds.storage.ChangeNumbers;
import io.rockds.storage.Changelog;
import io.rockds.storage.PendingChange;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's changelog: the changelogs of its RocksDB backends, each holding the changes applied
 * to it, read as one sequence in change-number order. Change numbers are the numbers of the
 * changes' records in the replication log in a group (the same change has the same number on every
 * server; several changes may share a log entry) and a sequence of the server's own when it runs
 * alone. Readers see changes up to the number below which every change has committed ({@link
 * ChangeNumbers#settled}), so a change committing late is never skipped.
 *
 * <p>Records older than the purge delay ({@code changelog-purge-delay}) are deleted, at most once a
 * minute, by the write that finds them due; the newest record is always kept.
 */
public final class ChangelogStore {
  private static final Logger LOG = LoggerFactory.getLogger(ChangelogStore.class);
  private static final Duration PURGE_INTERVAL = Duration.ofMinutes(1);

  private final List<Changelog> changelogs;
  private final ChangeNumbers numbers;
  private final ChangeNotifier notifier;
  private final Clock clock;
  private final LongSupplier purgeDelayMillis;
  private long nextPurge = Long.MIN_VALUE; // guarded by this

  /**
   * @param backends the RocksDB backends, each with its changelog
   * @param notifier hears each recorded change as the add of its changelog entry
   * @param clock what purging measures age by
   * @param purgeDelayMillis how long a record is kept (live configuration)
   */
  public ChangelogStore(
      List<Backend> backends, ChangeNotifier notifier, Clock clock, LongSupplier purgeDelayMillis) {
    List<Changelog> held = new ArrayList<>();
    long last = 0;
    for (Backend backend : backends) {
      held.add(backend.changelog());
      last = Math.max(last, backend.changelog().last());
    }
    this.changelogs = List.copyOf(held);
    this.numbers = new ChangeNumbers(last);
    this.notifier = notifier;
    this.clock = clock;
    this.purgeDelayMillis = purgeDelayMillis;
  }

  /**
   * A change about to be applied, recorded by the batch that applies it.
   *
   * @param write the prepared write
   * @param targetEntryUuid the changed entry's entryUUID, asked for when the batch is written (the
   *     application reads the entry under its locks)
   */
  public PendingChange pending(WriteRecord write, Supplier<String> targetEntryUuid) {
    return new PendingChange(
        numbers, timeOf(write), () -> ChangeDescription.of(targetEntryUuid.get(), write).encode());
  }

  /**
   * Announces a change once applied, as the add of its changelog entry (persistent searches of
   * {@code cn=changelog}), and purges what is due; nothing when it recorded nothing (refused).
   */
  public void committed(PendingChange change, WriteRecord write, String targetEntryUuid) {
    long number = change.number();
    if (number < 0) {
      return;
    }
    if (notifier.hearsChangelogEntries()) {
      announce(number, write, targetEntryUuid);
    }
    purgeIfDue();
  }

  private void announce(long number, WriteRecord write, String targetEntryUuid) {
    try {
      Entry entry = ChangelogEntries.entry(number, ChangeDescription.of(targetEntryUuid, write));
      notifier.committed(Change.add(entry.getParsedDN(), entry).numbered(number));
    } catch (LDAPException e) {
      LOG.error("cannot announce change {}", number, e);
    }
  }

  /** The smallest change number held, 0 when there is none (as OpenDJ). */
  public long first() {
    long first = -1;
    for (Changelog changelog : changelogs) {
      long held = changelog.first();
      if (held >= 0 && (first < 0 || held < first)) {
        first = held;
      }
    }
    return Math.max(0, Math.min(first, last()));
  }

  /** The largest change number readers see, 0 when there is none. */
  public long last() {
    long settled = numbers.settled();
    long last = 0;
    for (Changelog changelog : changelogs) {
      last = Math.max(last, changelog.lastAtOrBefore(settled));
    }
    return last;
  }

  /** The entry of change {@code number} with password values, or null when not held. */
  Entry entry(long number) throws LDAPException {
    if (number > numbers.settled()) {
      return null;
    }
    for (Changelog changelog : changelogs) {
      Changelog.Record record = changelog.get(number);
      if (record != null) {
        return ChangelogEntries.entry(number, ChangeDescription.decode(record.description()));
      }
    }
    return null;
  }

  /** Receives changelog entries in number order; returns false to stop. */
  @FunctionalInterface
  interface EntryVisitor {
    boolean visit(Entry entry) throws LDAPException;
  }

  /** Visits the entries of changes {@code from} to {@code to} in number order. */
  void visit(long from, long to, EntryVisitor visitor) throws LDAPException {
    long upTo = Math.min(to, numbers.settled());
    Changelog.Visitor entries =
        r ->
            visitor.visit(
                ChangelogEntries.entry(r.number(), ChangeDescription.decode(r.description())));
    if (changelogs.size() == 1) {
      changelogs.get(0).visit(from, upTo, entries);
      return;
    }
    // Several backends: numbers are unique across them; take the smallest next one each time.
    long cursor = from;
    while (cursor <= upTo) {
      Changelog.Record next = null;
      for (Changelog changelog : changelogs) {
        Changelog.Record[] found = {null};
        changelog.visit(
            cursor,
            upTo,
            r -> {
              found[0] = r;
              return false;
            });
        if (found[0] != null && (next == null || found[0].number() < next.number())) {
          next = found[0];
        }
      }
      if (next == null || !entries.visit(next)) {
        return;
      }
      cursor = next.number() + 1;
    }
  }

  /** Deletes the records older than the purge delay now; returns how many. */
  public long purge() throws LDAPException {
    long cutoff = clock.millis() - purgeDelayMillis.getAsLong();
    long purged = 0;
    for (Changelog changelog : changelogs) {
      purged += changelog.purgeOlderThan(cutoff);
    }
    return purged;
  }

  private void purgeIfDue() {
    long now = clock.millis();
    synchronized (this) {
      if (now < nextPurge) {
        return;
      }
      nextPurge = now + PURGE_INTERVAL.toMillis();
    }
    try {
      purge();
    } catch (LDAPException e) {
      LOG.warn("purging the changelog failed", e);
    }
  }

  /** The purge delay in force: {@code changelog-purge-delay} of the global configuration. */
  public static long purgeDelayMillis(ConfigStore configuration) {
    return new PropertyReader(configuration.get(ConfigDns.CONFIG), ConfigModel.GLOBAL)
        .millis("changelog-purge-delay");
  }

  private static long timeOf(WriteRecord write) {
    return GeneralizedTimes.millis(write.time());
  }
}

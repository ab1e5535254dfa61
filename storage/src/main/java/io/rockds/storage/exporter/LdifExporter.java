package io.rockds.storage.exporter;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldif.LDIFWriter;
import io.rockds.storage.Backend;
import io.rockds.storage.Dn2Id;
import io.rockds.storage.EntryContainer;
import io.rockds.storage.EntryFilter;
import io.rockds.storage.StorageErrors;
import java.io.IOException;
import java.io.OutputStream;
import java.util.function.LongConsumer;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Snapshot;

/**
 * Writes every entry of a backend as LDIF, base DN by base DN, in dn2id order: parents before
 * children (a DN's key is a prefix of its descendants'), so the output imports as it is. Reads one
 * snapshot per base DN, so it runs beside a server (on a {@link Backend#openReadOnly} backend) or
 * concurrent writes and still gives a consistent tree.
 */
public final class LdifExporter {
  private static final int REPORT_EVERY = 10_000;

  private final Backend backend;

  public LdifExporter(Backend backend) {
    this.backend = backend;
  }

  /**
   * Exports the entries {@code filter} keeps; returns how many were written.
   *
   * @param wrapColumn LDIF line wrapping (0 for none)
   * @param progress receives the number of entries written, now and then
   */
  public long export(OutputStream out, EntryFilter filter, int wrapColumn, LongConsumer progress)
      throws LDAPException, IOException {
    LDIFWriter writer = new LDIFWriter(out);
    writer.setWrapColumn(wrapColumn);
    long written = 0;
    for (EntryContainer container : backend.containers()) {
      if (!filter.mayKeepBelow(container.baseDn())) {
        continue;
      }
      written = exportContainer(container, writer, filter, written, progress);
    }
    writer.flush();
    progress.accept(written);
    return written;
  }

  private long exportContainer(
      EntryContainer container,
      LDIFWriter writer,
      EntryFilter filter,
      long written,
      LongConsumer progress)
      throws LDAPException, IOException {
    RocksDB db = backend.rocksDb();
    Snapshot snapshot = backend.readOnly() ? null : db.getSnapshot();
    try (ReadOptions options = new ReadOptions().setFillCache(false)) {
      if (snapshot != null) {
        options.setSnapshot(snapshot);
      }
      try (RocksIterator it = container.dn2id().newIterator(options)) {
        for (it.seekToFirst(); it.isValid(); it.next()) {
          Entry entry = container.id2entry().get(Dn2Id.idOf(it.value()), options);
          if (entry == null || filter.skipReason(entry.getParsedDN()) != null) {
            continue;
          }
          writer.writeEntry(filter.stripAttributes(entry));
          if (++written % REPORT_EVERY == 0) {
            progress.accept(written);
          }
        }
      }
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    } finally {
      if (snapshot != null) {
        db.releaseSnapshot(snapshot);
      }
    }
    return written;
  }
}

package io.rockds.storage.importer;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldif.LDIFException;
import com.unboundid.ldif.LDIFReader;
import com.unboundid.ldif.TrailingSpaceBehavior;
import io.rockds.storage.Backend;
import io.rockds.storage.BulkLoad;
import io.rockds.storage.EntryContainer;
import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.zip.GZIPInputStream;

/**
 * Imports LDIF into a backend opened for exclusive use. Each base DN the import loads is emptied
 * first (all of them with {@code clearBackend}) and filled through {@link BulkLoad}.
 *
 * <p>Pipeline: this thread splits the input into raw records; {@code threads} workers decode,
 * filter, transform and {@link BulkLoad#prepare prepare} them (encoding, DN and index keys: the
 * CPU-heavy part); one writer thread takes the results in input order, so parents still come before
 * children, and {@link BulkLoad#add adds} them. A bad record is written to the rejects file with
 * its line number and reason and the import goes on.
 */
public final class LdifImporter {
  private static final int REPORT_EVERY = 10_000;

  /**
   * Records in flight per parsing thread: enough to smooth out stalls, few enough to stay in the
   * young generation.
   */
  private static final int QUEUED_PER_THREAD = 256;

  private final Backend backend;

  public LdifImporter(Backend backend) {
    this.backend = backend;
  }

  /**
   * Opens an LDIF file, decompressing it when it is gzip (detected by its magic bytes). A named
   * pipe (a generator streaming into the import) is read as a plain file stream: the channel stream
   * of {@link Files#newInputStream} asks a pipe for its position and fails with "Illegal seek".
   */
  public static InputStream open(Path file) throws IOException {
    InputStream raw =
        Files.isRegularFile(file) ? Files.newInputStream(file) : new FileInputStream(file.toFile());
    InputStream in = new BufferedInputStream(raw, 1 << 16);
    in.mark(2);
    int b1 = in.read();
    int b2 = in.read();
    in.reset();
    return b1 == 0x1f && b2 == 0x8b
        ? new BufferedInputStream(new GZIPInputStream(in, 1 << 16), 1 << 16)
        : in;
  }

  private sealed interface Outcome permits Ready, Refused {}

  private record Ready(LdifRecordReader.Record record, BulkLoad load, BulkLoad.Prepared entry)
      implements Outcome {}

  private record Refused(LdifRecordReader.Record record, String reason, boolean skipped)
      implements Outcome {}

  public ImportResult run(InputStream ldif, ImportOptions options)
      throws LDAPException, IOException {
    long start = System.nanoTime();
    Map<DN, BulkLoad> loads = new LinkedHashMap<>();
    ExecutorService workers =
        Executors.newFixedThreadPool(
            options.threads(),
            r -> {
              Thread t = new Thread(r, "import-parser");
              t.setDaemon(true);
              return t;
            });
    try (RecordLog rejects = new RecordLog(options.rejects());
        RecordLog skips = new RecordLog(options.skips())) {
      int n = 0;
      for (EntryContainer container : backend.containers()) {
        if (options.clearBackend() || options.filter().mayKeepBelow(container.baseDn())) {
          loads.put(
              container.baseDn(),
              container.startBulkLoad(options.workDirectory().resolve("load-" + n++)));
        }
      }
      BlockingQueue<Future<Outcome>> queue =
          new ArrayBlockingQueue<>(options.threads() * QUEUED_PER_THREAD);
      Writer writer = new Writer(queue, rejects, skips);
      Thread writerThread = new Thread(writer, "import-writer");
      writerThread.start();
      long read = 0;
      try {
        LdifRecordReader reader =
            new LdifRecordReader(
                new BufferedReader(new InputStreamReader(ldif, StandardCharsets.UTF_8), 1 << 16));
        for (LdifRecordReader.Record record = reader.next();
            record != null && writer.failure == null;
            record = reader.next()) {
          LdifRecordReader.Record r = record;
          queue.put(workers.submit(() -> process(r, loads, options)));
          if (++read % REPORT_EVERY == 0) {
            options.progress().accept(read);
          }
        }
      } finally {
        queue.put(CompletableFuture.completedFuture(null));
        writerThread.join();
      }
      if (writer.failure != null) {
        throw writer.failure;
      }
      long imported = 0;
      for (BulkLoad load : loads.values()) {
        load.finish();
        imported += load.count();
      }
      options.progress().accept(read);
      return new ImportResult(
          read,
          imported,
          rejects.count(),
          skips.count(),
          Duration.ofNanos(System.nanoTime() - start));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LDAPException(ResultCode.CANCELED, "import interrupted", e);
    } finally {
      workers.shutdownNow();
      for (BulkLoad load : loads.values()) {
        load.close();
      }
    }
  }

  private Outcome process(
      LdifRecordReader.Record record, Map<DN, BulkLoad> loads, ImportOptions options) {
    Entry entry;
    try {
      entry =
          LDIFReader.decodeEntry(
              false, TrailingSpaceBehavior.STRIP, null, record.lines().toArray(String[]::new));
    } catch (LDIFException e) {
      // The SDK numbers lines from 0 within the record; say where they are in the file.
      String reason =
          String.valueOf(e.getMessage())
              .replaceAll(
                  "line number \\d+", "line " + (record.line() + Math.max(0, e.getLineNumber())));
      return new Refused(record, reason, false);
    }
    try {
      DN dn = entry.getParsedDN();
      EntryContainer container = backend.containerFor(dn);
      if (container == null) {
        return new Refused(record, "no base DN of backend " + backend.id() + " holds " + dn, false);
      }
      BulkLoad load = loads.get(container.baseDn());
      String skip =
          load == null
              ? "base DN " + container.baseDn() + " is not being imported"
              : options.filter().skipReason(dn);
      if (skip != null) {
        return new Refused(record, skip, true);
      }
      Entry kept = options.transformer().transform(options.filter().stripAttributes(entry));
      return new Ready(record, load, load.prepare(kept));
    } catch (LDAPException e) {
      return new Refused(record, e.getMessage(), false);
    } catch (RuntimeException e) {
      return new Refused(record, String.valueOf(e), false);
    }
  }

  /** Adds outcomes in input order; stops at the end marker (a null outcome). */
  private static final class Writer implements Runnable {
    private final BlockingQueue<Future<Outcome>> queue;
    private final RecordLog rejects;
    private final RecordLog skips;
    private volatile IOException failure;

    Writer(BlockingQueue<Future<Outcome>> queue, RecordLog rejects, RecordLog skips) {
      this.queue = queue;
      this.rejects = rejects;
      this.skips = skips;
    }

    @Override
    public void run() {
      try {
        for (Outcome outcome = queue.take().get(); outcome != null; outcome = queue.take().get()) {
          if (failure != null) {
            continue; // drain so the reader never blocks
          }
          try {
            write(outcome);
          } catch (IOException e) {
            failure = e;
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (ExecutionException e) {
        failure = new IOException("import worker failed: " + e.getCause(), e.getCause());
      }
    }

    private void write(Outcome outcome) throws IOException {
      if (outcome instanceof Refused r) {
        (r.skipped() ? skips : rejects).write(r.record().line(), r.reason(), r.record().lines());
        return;
      }
      Ready r = (Ready) outcome;
      try {
        r.load().add(r.entry());
      } catch (LDAPException e) {
        if (e.getResultCode() != ResultCode.ENTRY_ALREADY_EXISTS
            && e.getResultCode() != ResultCode.NO_SUCH_OBJECT) {
          throw new IOException(
              "storage failure at line " + r.record().line() + ": " + e.getMessage(), e);
        }
        rejects.write(r.record().line(), e.getMessage(), r.record().lines());
      }
    }
  }
}

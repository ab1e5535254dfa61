package io.rockds.storage;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.rocksdb.AbstractEventListener;
import org.rocksdb.BackgroundErrorReason;
import org.rocksdb.RocksDBException;
import org.rocksdb.Status;

/**
 * Whether a backend can write. A failed write (a full disk, an I/O error) or a RocksDB background
 * error (a flush or compaction that found no space) degrades it; reads go on meanwhile. RocksDB
 * recovers by itself once space returns (its error handler, driven by the backend's SST file
 * manager), and the next successful write or RocksDB's recovery-completed event makes it healthy
 * again. Observers (the server's error log, /health, cn=monitor) hear every change.
 */
public final class StorageHealth {
  /** Why writes fail, since when. */
  public record Problem(StorageException.Kind kind, String message, Instant since) {}

  private final String backendId;
  private final List<Consumer<Problem>> observers = new CopyOnWriteArrayList<>();
  private volatile Problem problem;

  StorageHealth(String backendId) {
    this.backendId = backendId;
  }

  /** The current problem, or null while the backend is healthy. */
  public Problem problem() {
    return problem;
  }

  public boolean isHealthy() {
    return problem == null;
  }

  /**
   * Calls {@code observer} with the new problem when the backend degrades, and with null when it
   * recovers.
   */
  public void onChange(Consumer<Problem> observer) {
    observers.add(observer);
  }

  /** A write failed: degrades the backend if the failure is the storage's, not the request's. */
  void failed(StorageException e) {
    if (e.kind().degradesHealth() && problem == null) {
      change(new Problem(e.kind(), "backend " + backendId + ": " + e.getMessage(), Instant.now()));
    }
  }

  /** A write succeeded: whatever failed before is over. */
  void succeeded() {
    if (problem != null) {
      change(null);
    }
  }

  private synchronized void change(Problem next) {
    if ((problem == null) == (next == null)) {
      return;
    }
    problem = next;
    observers.forEach(o -> o.accept(next));
  }

  /** The RocksDB listener feeding background errors and recoveries in. */
  AbstractEventListener listener() {
    return new AbstractEventListener(
        AbstractEventListener.EnabledEventCallback.ON_BACKGROUND_ERROR,
        AbstractEventListener.EnabledEventCallback.ON_ERROR_RECOVERY_COMPLETED) {
      @Override
      public void onBackgroundError(BackgroundErrorReason reason, Status status) {
        if (status != null && status.getCode() != Status.Code.Ok) {
          failed(
              StorageErrors.wrap(
                  new RocksDBException(
                      reason
                          + ": "
                          + status.getCodeString()
                          + (status.getState() == null ? "" : ": " + status.getState()),
                      status)));
        }
      }

      @Override
      public void onErrorRecoveryCompleted(Status oldBackgroundError) {
        succeeded();
      }
    };
  }
}

package io.rockds.storage;

import static io.rockds.storage.StorageFixtures.BASE;

import com.unboundid.ldap.sdk.LDAPException;
import java.nio.file.Path;
import org.rocksdb.FlushOptions;
import org.rocksdb.RocksDBException;

/**
 * The child process of {@link CrashConsistencyTest}: adds, modifies and deletes entries sharing
 * over-limit values until killed, printing how many operations committed. Arguments: the database
 * directory and the first entry number to use.
 */
public final class CrashingWriter {
  static final int LIMIT = 50;
  private static final int MAX_OPERATIONS = 1_000_000;
  static final int FLUSH_EVERY = 120;
  private static final FlushOptions FLUSH = new FlushOptions().setWaitForFlush(true);

  private CrashingWriter() {}

  public static void main(String[] args) throws LDAPException, RocksDBException {
    long first = Long.parseLong(args[1]);
    try (Backend backend = StorageFixtures.open(Path.of(args[0]), LIMIT)) {
      EntryContainer c = backend.containerFor(BASE);
      if (c.entryCount() == 0) {
        StorageFixtures.addTree(c);
      }
      for (int op = 1; op <= MAX_OPERATIONS; op++) {
        long n = first + op;
        c.add(StorageFixtures.person(n, "Crash" + (n % 3)));
        if (op % 5 == 0) {
          c.delete(StorageFixtures.dn("uid=user." + (n - 2) + ",ou=People,dc=example,dc=com"));
        }
        if (op % 7 == 0) {
          c.modify(
              StorageFixtures.dn("uid=user." + (n - 1) + ",ou=People,dc=example,dc=com"),
              e -> {
                e.setAttribute("sn", "Moved" + (n % 2));
                return e;
              });
        }
        if (op % FLUSH_EVERY == 0) {
          // The memtables go to table files and their log file to the recycle list: the writes
          // after it go into a reused log file, whose recovery is under test too.
          backend.rocksDb().flush(FLUSH, c.trees().stream().map(Tree::handle).toList());
        }
        if (op % 50 == 0) {
          System.out.println(op);
          System.out.flush();
        }
      }
    }
  }
}

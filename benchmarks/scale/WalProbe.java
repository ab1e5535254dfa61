import java.nio.file.*;
import java.util.Arrays;
import org.rocksdb.*;

/**
 * How long RocksDB alone takes to sync one small WriteBatch (a 3 kB value and an 8-byte one, the
 * shape of a modify), with and without WAL file recycling ({@code recycle_log_file_num}, which
 * avoids the file-size metadata update of each sync): the floor under one client's durable modify.
 * Two rounds of N writes each way, in fresh databases under DIR:
 *
 *   java -cp "tools/target/lib/*" benchmarks/scale/WalProbe.java N DIR
 */
public class WalProbe {
  public static void main(String[] a) throws Exception {
    RocksDB.loadLibrary();
    int n = Integer.parseInt(a[0]);
    for (int round = 0; round < 2; round++) {
      for (int recycle : new int[] {0, 4}) {
        Path dir = Files.createTempDirectory(Path.of(a[1]), "walprobe");
        try (DBOptions o = new DBOptions().setCreateIfMissing(true).setRecycleLogFileNum(recycle)
                .setBytesPerSync(1 << 20);
            Options opts = new Options(o, new ColumnFamilyOptions().setWriteBufferSize(4 << 20));
            RocksDB db = RocksDB.open(opts, dir.toString());
            WriteOptions w = new WriteOptions().setSync(true)) {
          byte[] v = new byte[3000];
          long[] t = new long[n];
          for (int i = 0; i < n; i++) {
            long s = System.nanoTime();
            try (WriteBatch b = new WriteBatch()) {
              b.put(("k" + (i % 5000)).getBytes(), v);
              b.put(("i" + i).getBytes(), new byte[8]);
              db.write(w, b);
            }
            t[i] = System.nanoTime() - s;
          }
          Arrays.sort(t);
          System.out.printf("round %d recycle=%d median %.3f ms p90 %.3f ms%n", round, recycle,
              t[n / 2] / 1e6, t[n * 9 / 10] / 1e6);
        }
      }
    }
  }
}

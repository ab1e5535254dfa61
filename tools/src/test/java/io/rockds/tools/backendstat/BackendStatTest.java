package io.rockds.tools.backendstat;

import static org.assertj.core.api.Assertions.assertThat;

import io.rockds.server.Instance;
import io.rockds.tools.fixtures.SampleInstance;
import io.rockds.tools.fixtures.ToolOutput;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BackendStatTest {
  @TempDir
  static Path dir;

  static Instance instance;

  @BeforeAll
  static void copySample() {
    instance = SampleInstance.copyTo(dir.resolve("instance"));
  }

  static ToolOutput backendstat(String... args) {
    String[] all = new String[args.length + 2];
    all[0] = "--instance";
    all[1] = instance.root().toString();
    System.arraycopy(args, 0, all, 2, args.length);
    return ToolOutput.run(new BackendStat(), all);
  }

  @Test
  void print() {
    for (String[] args : new String[][] {{"list-backends"}, {"list-base-dns", "-n", "userRoot"},
        {"list-indexes", "-b", "dc=example,dc=com", "-n", "userRoot"}, {"show-index-status", "-n", "userRoot"},
        {"dump-index", "-b", "dc=example,dc=com", "-i", "sn.caseIgnoreMatch", "-k", "Lee", "-K", "Lee"},
        {"dump-index", "-b", "dc=example,dc=com", "-i", "uid.caseIgnoreMatch", "-q"},
        {"list-raw-dbs"}, {"dump-raw-db", "-d", "/dc=com,dc=example/sn.caseIgnoreMatch", "-l"},
        {"dump-raw-db", "-d", "/dc=com,dc=example/sn.caseIgnoreMatch", "-k", "lee", "-K", "lee"}}) {
      ToolOutput o = backendstat(args);
      System.out.println("=== " + String.join(" ", args) + " -> " + o.exitCode() + "\n" + o.out() + o.err());
    }
  }
}

package io.rockds.tools.ldif;

import com.unboundid.ldap.sdk.DN;
import io.rockds.config.ConfigStore;
import io.rockds.config.RootDnConfig;
import io.rockds.config.ServerConfig;
import io.rockds.server.schema.SchemaChecker;
import io.rockds.server.security.policy.PasswordPolicies;
import io.rockds.storage.Backend;
import io.rockds.storage.importer.ImportOptions;
import io.rockds.storage.importer.ImportResult;
import io.rockds.storage.importer.LdifImporter;
import io.rockds.tools.InstanceOption;
import io.rockds.tools.InstanceStorage;
import io.rockds.tools.QuietOption;
import io.rockds.tools.ToolRunner;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code bin/import-ldif}: loads LDIF files (plain or gzip) into a backend of a stopped server,
 * replacing the content of the base DNs it imports, with OpenDJ's option names.
 */
@Command(
    name = "import-ldif",
    sortOptions = false,
    description =
        "Imports LDIF into a backend (the server must be stopped). Bad records go to the rejects file"
            + " with their line number and reason; the rest imports.")
public final class ImportLdif implements Callable<Integer> {
  private static final byte[] RECORD_SEPARATOR =
      "\n\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  @Mixin InstanceOption instanceDir;

  @Option(
      names = {"-n", "--backendID"},
      description = "Backend to import into (default: ${DEFAULT-VALUE}).")
  String backendId = "userRoot";

  @Option(
      names = {"-l", "--ldifFile"},
      required = true,
      paramLabel = "FILE",
      description = "LDIF file to import, plain or gzip (repeatable).")
  List<Path> ldifFiles = new ArrayList<>();

  @Mixin BranchOptions branches = new BranchOptions();

  @Option(
      names = {"-R", "--rejectFile"},
      paramLabel = "FILE",
      description = "Write rejected records here.")
  Path rejectFile;

  @Option(names = "--skipFile", paramLabel = "FILE", description = "Write skipped records here.")
  Path skipFile;

  @Option(
      names = {"-F", "--clearBackend"},
      description =
          "Empty every base DN of the backend first, not only those the LDIF is imported into.")
  boolean clearBackend;

  @Option(
      names = {"-c", "--isCompressed"},
      description = "Accepted for compatibility: gzip is detected.")
  boolean compressed;

  @Option(
      names = "--skipSchemaValidation",
      description =
          "Do not check entries against the schema (by default an entry an LDAP add would refuse is rejected).")
  boolean skipSchemaValidation;

  @Option(names = "--threadCount", description = "Parsing threads (default: the number of cores).")
  int threads = Runtime.getRuntime().availableProcessors();

  @Mixin QuietOption output;

  public static void main(String[] args) {
    System.exit(run(args));
  }

  public static int run(String... args) {
    return ToolRunner.run(new ImportLdif(), args);
  }

  @Override
  public Integer call() throws Exception {
    InstanceStorage storage = InstanceStorage.of(instanceDir.instance());
    long totalBytes = 0;
    for (Path file : ldifFiles) {
      totalBytes += Files.size(file);
    }
    try (Backend backend = storage.openExclusive(storage.backend(backendId));
        CountingInputStream in = new CountingInputStream(concatenated())) {
      ProgressLine progress =
          new ProgressLine(
              "records read", output.quiet() ? null : System.err, in::count, totalBytes);
      Path work =
          Files.createTempDirectory(
              backend.settings().directory().toAbsolutePath().getParent(), "import-");
      try {
        ImportOptions options =
            ImportOptions.defaults(work)
                .withClearBackend(clearBackend)
                .withFilter(branches.filter())
                .withTransformer(
                    new ServerEntryPreparation(
                        importerDn(storage.config()),
                        PasswordPolicies.read(ConfigStore.load(storage.instance().configFile())),
                        skipSchemaValidation ? null : new SchemaChecker(storage.schema())))
                .withThreads(threads)
                .withRejects(rejectFile)
                .withSkips(skipFile)
                .withProgress(progress::update);
        ImportResult result = new LdifImporter(backend).run(in, options);
        if (!output.quiet()) {
          System.out.println("Import of " + backendId + ": " + result);
        }
        return 0;
      } finally {
        try {
          Files.deleteIfExists(work);
        } catch (IOException leftOver) {
          // A failed import may leave temporary files: say where, but never hide why it failed.
          System.err.println(
              "import-ldif: temporary files left in " + work + " (" + leftOver + ")");
        }
      }
    }
  }

  /** The files one after the other, each decompressed if gzip, with a record break between them. */
  private InputStream concatenated() throws IOException {
    List<InputStream> parts = new ArrayList<>();
    for (Path file : ldifFiles) {
      parts.add(LdifImporter.open(file));
      parts.add(new ByteArrayInputStream(RECORD_SEPARATOR));
    }
    return new SequenceInputStream(Collections.enumeration(parts));
  }

  /**
   * creatorsName of imported entries: the first root user by the DN it binds with (its alternate
   * bind DN such as {@code cn=Directory Manager}, as setup stamps), as if it had added them.
   */
  private static DN importerDn(ServerConfig config) {
    for (RootDnConfig root : config.rootDns()) {
      for (DN bindDn : root.bindDns()) {
        if (!bindDn.equals(root.configDn())) {
          return bindDn;
        }
      }
      return root.configDn();
    }
    return DN.NULL_DN;
  }
}

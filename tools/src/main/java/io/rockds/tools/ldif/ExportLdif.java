package io.rockds.tools.ldif;

import io.rockds.storage.Backend;
import io.rockds.storage.exporter.LdifExporter;
import io.rockds.tools.InstanceOption;
import io.rockds.tools.InstanceStorage;
import io.rockds.tools.QuietOption;
import io.rockds.tools.ToolRunner;
import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.zip.GZIPOutputStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code bin/export-ldif}: writes a backend's entries as LDIF, parents first. Reads a read-only
 * view of the database, so it runs whether the server is running or not.
 */
@Command(
    name = "export-ldif",
    sortOptions = false,
    description = "Exports a backend to LDIF (works while the server runs).")
public final class ExportLdif implements Callable<Integer> {
  @Mixin InstanceOption instanceDir;

  @Option(
      names = {"-n", "--backendID"},
      description = "Backend to export (default: ${DEFAULT-VALUE}).")
  String backendId = "userRoot";

  @Option(
      names = {"-l", "--ldifFile"},
      required = true,
      paramLabel = "FILE",
      description = "LDIF file to write.")
  Path ldifFile;

  @Mixin BranchOptions branches = new BranchOptions();

  @Option(
      names = {"-c", "--compress"},
      description = "Write gzip.")
  boolean compress;

  @Option(
      names = "--wrapColumn",
      description = "Wrap lines at this column; 0 for no wrapping (default: ${DEFAULT-VALUE}).")
  int wrapColumn;

  @Mixin QuietOption output;

  public static void main(String[] args) {
    System.exit(run(args));
  }

  public static int run(String... args) {
    return ToolRunner.run(new ExportLdif(), args);
  }

  @Override
  public Integer call() throws Exception {
    InstanceStorage storage = InstanceStorage.of(instanceDir.instance());
    ProgressLine progress =
        new ProgressLine("entries written", output.quiet() ? null : System.err, () -> 0, 0);
    long written;
    try (Backend backend = storage.openReadOnly(storage.backend(backendId));
        OutputStream file = new BufferedOutputStream(Files.newOutputStream(ldifFile), 1 << 16);
        OutputStream out = compress ? new GZIPOutputStream(file, 1 << 16) : file) {
      written =
          new LdifExporter(backend).export(out, branches.filter(), wrapColumn, progress::update);
    }
    if (!output.quiet()) {
      System.out.println("Exported " + written + " entries of " + backendId + " to " + ldifFile);
    }
    return 0;
  }
}

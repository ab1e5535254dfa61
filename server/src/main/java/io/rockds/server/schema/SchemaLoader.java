package io.rockds.server.schema;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.schema.Schema;
import com.unboundid.ldif.LDIFException;
import com.unboundid.ldif.LDIFReader;
import io.rockds.config.ConfigException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Builds the server's schema: the UnboundID SDK's standard schema (RFC 4512/4517/4519, RFC 2798,
 * RFC 4530 and more), the definitions it lacks (shipped as the LDIF resources listed in {@link
 * #BUNDLED}), then every {@code *.ldif} in the instance's schema folder in name order, so that a
 * later file may redefine what an earlier one declared, as OpenDJ's numbered files do.
 */
public final class SchemaLoader {
  /** The bundled additions, in merge order. */
  static final List<String> BUNDLED =
      List.of(
          "10-core.ldif",
          "20-cosine.ldif",
          "30-nis.ldif",
          "40-dyngroup.ldif",
          "50-operational.ldif");

  private SchemaLoader() {}

  /** The standard schema plus the bundled additions, without any instance file. */
  public static Schema standard() {
    try {
      List<Schema> parts = new ArrayList<>();
      parts.add(Schema.getDefaultStandardSchema());
      for (String name : BUNDLED) {
        try (InputStream in = SchemaLoader.class.getResourceAsStream(name)) {
          if (in == null) {
            throw new IllegalStateException("missing schema resource " + name);
          }
          parts.add(Schema.getSchema(in));
        }
      }
      return Schema.mergeSchemas(parts.toArray(Schema[]::new));
    } catch (LDAPException | IOException | LDIFException e) {
      throw new IllegalStateException("the bundled schema cannot be read: " + e.getMessage(), e);
    }
  }

  /** The standard schema merged with the instance's schema files; names the file that fails. */
  public static Schema load(Path schemaDirectory) throws ConfigException {
    return merge(schemaDirectory, null);
  }

  /**
   * As {@link #load(Path)}, but with {@code userDefinitions} in place of the file {@value
   * ServerSchema#USER_FILE}: the schema an online change would produce.
   */
  static Schema load(Path schemaDirectory, Entry userDefinitions) throws ConfigException {
    try {
      return Schema.mergeSchemas(
          merge(schemaDirectory, ServerSchema.USER_FILE), new Schema(userDefinitions));
    } catch (RuntimeException e) {
      throw new ConfigException("the schema does not merge: " + e.getMessage(), e);
    }
  }

  private static Schema merge(Path schemaDirectory, String skipped) throws ConfigException {
    Schema schema = standard();
    for (Path file : files(schemaDirectory)) {
      if (file.getFileName().toString().equals(skipped)) {
        continue;
      }
      try (LDIFReader reader = new LDIFReader(file.toFile())) {
        for (Entry entry = reader.readEntry(); entry != null; entry = reader.readEntry()) {
          schema = Schema.mergeSchemas(schema, parseStrictly(file, entry));
        }
      } catch (IOException | LDIFException e) {
        throw new ConfigException("cannot read the schema file " + file + ": " + e.getMessage(), e);
      }
    }
    return schema;
  }

  /**
   * The definitions of one schema entry; the SDK would skip a definition it cannot parse, which
   * would leave the server running without it, so a bad one stops the start naming file and reason.
   */
  private static Schema parseStrictly(Path file, Entry entry) throws ConfigException {
    List<Map<String, LDAPException>> unparsable = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      unparsable.add(new LinkedHashMap<>());
    }
    Schema parsed =
        new Schema(
            entry,
            unparsable.get(0),
            unparsable.get(1),
            unparsable.get(2),
            unparsable.get(3),
            unparsable.get(4),
            unparsable.get(5),
            unparsable.get(6),
            unparsable.get(7));
    for (Map<String, LDAPException> bad : unparsable) {
      for (Map.Entry<String, LDAPException> definition : bad.entrySet()) {
        throw new ConfigException(
            "the schema file "
                + file
                + " has a definition that does not parse: "
                + definition.getKey()
                + ": "
                + definition.getValue().getMessage(),
            definition.getValue());
      }
    }
    return parsed;
  }

  private static List<Path> files(Path directory) throws ConfigException {
    if (!Files.isDirectory(directory)) {
      return List.of();
    }
    try (Stream<Path> listing = Files.list(directory)) {
      return listing.filter(p -> p.getFileName().toString().endsWith(".ldif")).sorted().toList();
    } catch (IOException e) {
      throw new ConfigException(
          "cannot list the schema folder " + directory + ": " + e.getMessage(), e);
    }
  }
}

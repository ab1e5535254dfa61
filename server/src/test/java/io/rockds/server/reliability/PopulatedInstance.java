package io.rockds.server.reliability;

import com.unboundid.ldap.sdk.schema.Schema;
import io.rockds.config.ConfigStore;
import io.rockds.config.ServerConfig;
import io.rockds.layout.Instance;
import io.rockds.server.Backends;
import io.rockds.server.TestServer;
import io.rockds.server.security.password.PasswordSchemeSettings;
import io.rockds.server.security.password.PasswordSchemes;
import io.rockds.storage.importer.ImportOptions;
import io.rockds.storage.importer.ImportResult;
import io.rockds.storage.importer.LdifImporter;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.stream.IntStream;

/**
 * An instance holding the base entries and {@code count} people, loaded with the bulk importer
 * (synced one-by-one adds would take minutes). Each person carries a {@code description} of {@code
 * valueBytes} bytes so large result sets are large in bytes too.
 */
final class PopulatedInstance {
  /** Every person's password. */
  static final String PASSWORD = "password";

  private PopulatedInstance() {}

  static Instance create(Path root, int count, int valueBytes) throws Exception {
    Instance instance = ChildServer.create(root, List.of());
    String filler = "x".repeat(valueBytes);
    // The importer stores values as given; hash the one password the way setup does, once.
    String password =
        new String(
            new PasswordSchemes(PasswordSchemeSettings.defaults())
                .encode(PASSWORD.getBytes(StandardCharsets.UTF_8)),
            StandardCharsets.UTF_8);
    String head =
        """
        dn: %1$s
        objectClass: top
        objectClass: domain
        dc: example

        dn: ou=People,%1$s
        objectClass: top
        objectClass: organizationalUnit
        ou: People

        dn: ou=Groups,%1$s
        objectClass: top
        objectClass: organizationalUnit
        ou: Groups

        """
            .formatted(TestServer.BASE);
    InputStream people =
        new SequenceInputStream(
            Collections.enumeration(
                IntStream.range(0, count)
                    .mapToObj(
                        i -> (InputStream) new ByteArrayInputStream(person(i, filler, password)))
                    .toList()));
    try (Backends backends =
        Backends.open(
            ServerConfig.read(ConfigStore.load(instance.configFile())).backends(),
            instance,
            Schema.getDefaultStandardSchema())) {
      ImportResult result =
          new LdifImporter(backends.all().get(0))
              .run(
                  new SequenceInputStream(
                      new ByteArrayInputStream(head.getBytes(StandardCharsets.UTF_8)), people),
                  ImportOptions.defaults(root.resolveSibling(root.getFileName() + "-import"))
                      .withThreads(2));
      if (result.imported() != count + 3) {
        throw new IllegalStateException("imported " + result);
      }
    }
    return instance;
  }

  private static byte[] person(int i, String filler, String password) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(
        ("dn: uid=user."
                + i
                + ",ou=People,"
                + TestServer.BASE
                + "\n"
                + "objectClass: top\nobjectClass: person\nobjectClass: organizationalPerson\nobjectClass: inetOrgPerson\n"
                + "uid: user."
                + i
                + "\ncn: User "
                + i
                + "\nsn: Sn"
                + (i % 100)
                + "\nuserPassword: "
                + password
                + "\n"
                + "description: "
                + filler
                + "\n\n")
            .getBytes(StandardCharsets.UTF_8));
    return out.toByteArray();
  }
}

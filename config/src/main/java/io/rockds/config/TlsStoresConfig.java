package io.rockds.config;

import com.unboundid.ldap.sdk.Entry;
import io.rockds.config.model.ConfigModel;
import io.rockds.config.model.ObjectDefinition;
import io.rockds.config.model.PropertyReader;

/**
 * Where the listeners' TLS finds its key store and trust store: the file-based key and trust
 * manager providers ({@code cn=Default Key Manager}, {@code cn=Default Trust Manager}), paths
 * relative to the instance.
 *
 * @param trustStore null when the trust manager provider is disabled (no client certificates asked
 *     for)
 */
public record TlsStoresConfig(
    String keyStore, String keyStorePin, String trustStore, String trustStorePin) {

  /** Reads the two providers; a missing entry reads as the defaults of the model. */
  static TlsStoresConfig from(Entry keyManager, Entry trustManager) throws ConfigException {
    PropertyReader keys = reader(keyManager, ConfigModel.KEY_MANAGER_PROVIDER);
    PropertyReader trust = reader(trustManager, ConfigModel.TRUST_MANAGER_PROVIDER);
    if (keyManager != null && !keys.bool("enabled")) {
      throw new ConfigException(
          keyManager.getDN()
              + ": ds-cfg-enabled: false, but the LDAPS and StartTLS listeners need a key manager");
    }
    return new TlsStoresConfig(
        keys.string("key-store-file"),
        keys.string("key-store-pin-file"),
        trustManager == null || trust.bool("enabled") ? trust.string("trust-store-file") : null,
        trust.string("trust-store-pin-file"));
  }

  private static PropertyReader reader(Entry entry, ObjectDefinition definition) {
    Entry read = entry;
    if (read == null) {
      read = new Entry(definition.container().apply(null));
      read.addAttribute("objectClass", definition.types().get(0).objectClass());
    }
    return new PropertyReader(read, definition);
  }
}

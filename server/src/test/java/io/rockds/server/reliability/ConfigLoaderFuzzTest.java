package io.rockds.server.reliability;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.rockds.config.ConfigException;
import io.rockds.config.ConfigStore;
import io.rockds.config.ServerConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A damaged {@code config.ldif}: {@link ConfigStore#load} and {@link ServerConfig#read} either
 * succeed or throw {@link ConfigException} (one line naming the cause, what the server prints at
 * start), never anything else. Regression inputs: {@code
 * src/test/resources/io/rockds/server/reliability/ConfigLoaderFuzzTestInputs/}; fuzz for real with
 * {@code JAZZER_FUZZ=1}.
 */
class ConfigLoaderFuzzTest {
  @FuzzTest(maxDuration = "60s")
  void configFilesLoadOrFailWithAConfigException(byte[] content) throws IOException {
    Path file = Files.createTempFile("config-fuzz", ".ldif");
    try {
      Files.write(file, content);
      ServerConfig.read(ConfigStore.load(file));
    } catch (ConfigException refused) {
      // The expected outcome for damaged files.
    } finally {
      Files.delete(file);
    }
  }
}

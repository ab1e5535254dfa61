package io.rockds.server.security.policy;

import com.unboundid.ldap.sdk.Entry;
import io.rockds.config.ConfigException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * OpenDJ's dictionary validator: the password may not be a word of the list (nor the word
 * backwards, nor, with {@code checkSubstrings}, contain a word of {@code minSubstringLength} or
 * more characters). Without a configured file the list is a built-in one of common passwords.
 */
final class DictionaryValidator implements PasswordValidator {
  static final String BUILT_IN = "common-passwords.txt";

  private final Set<String> words;
  private final boolean caseSensitive;
  private final boolean testReversed;
  private final boolean checkSubstrings;
  private final int minSubstringLength;

  private DictionaryValidator(
      Set<String> words,
      boolean caseSensitive,
      boolean testReversed,
      boolean checkSubstrings,
      int minSubstringLength) {
    this.words = words;
    this.caseSensitive = caseSensitive;
    this.testReversed = testReversed;
    this.checkSubstrings = checkSubstrings;
    this.minSubstringLength = minSubstringLength;
  }

  static DictionaryValidator load(
      String dn,
      Path instance,
      String file,
      boolean caseSensitive,
      boolean testReversed,
      boolean checkSubstrings,
      int minSubstringLength)
      throws ConfigException {
    Set<String> words = new HashSet<>();
    try (InputStream in =
        file == null
            ? DictionaryValidator.class.getResourceAsStream(BUILT_IN)
            : Files.newInputStream(instance.resolve(file))) {
      if (in == null) {
        throw new IOException("the built-in word list is missing from the class path");
      }
      BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        String word = line.strip();
        if (!word.isEmpty() && !word.startsWith("#")) {
          words.add(caseSensitive ? word : word.toLowerCase(Locale.ROOT));
        }
      }
    } catch (IOException e) {
      throw new ConfigException(
          dn
              + ": ds-cfg-dictionary-file: cannot read "
              + (file == null ? BUILT_IN : file)
              + ": "
              + e.getMessage(),
          e);
    }
    return new DictionaryValidator(
        Set.copyOf(words), caseSensitive, testReversed, checkSubstrings, minSubstringLength);
  }

  @Override
  public String refusal(String password, Entry entry) {
    String candidate = caseSensitive ? password : password.toLowerCase(Locale.ROOT);
    if (found(candidate) || (testReversed && found(PasswordValidator.reversed(candidate)))) {
      return "The password is a common word or password";
    }
    return null;
  }

  private boolean found(String candidate) {
    if (words.contains(candidate)) {
      return true;
    }
    if (checkSubstrings) {
      for (int start = 0; start < candidate.length(); start++) {
        for (int end = start + minSubstringLength; end <= candidate.length(); end++) {
          if (words.contains(candidate.substring(start, end))) {
            return true;
          }
        }
      }
    }
    return false;
  }
}

package io.rockds.server.security.policy;

import com.unboundid.ldap.sdk.Entry;
import io.rockds.config.ConfigException;
import java.util.ArrayList;
import java.util.List;

/**
 * OpenDJ's character-set validator: each set {@code count:characters} asks for at least {@code
 * count} characters from it; {@code minSets} of the sets must be satisfied (0: all), and characters
 * of no set are refused unless allowed.
 */
final class CharacterSetValidator implements PasswordValidator {
  private record CharacterSet(int count, String characters) {}

  private final List<CharacterSet> sets;
  private final boolean allowUnclassified;
  private final int minSets;

  private CharacterSetValidator(List<CharacterSet> sets, boolean allowUnclassified, int minSets) {
    this.sets = sets;
    this.allowUnclassified = allowUnclassified;
    this.minSets = minSets;
  }

  static CharacterSetValidator of(
      String dn, List<String> definitions, boolean allowUnclassified, int minSets)
      throws ConfigException {
    List<CharacterSet> sets = new ArrayList<>();
    for (String definition : definitions) {
      int colon = definition.indexOf(':');
      try {
        sets.add(
            new CharacterSet(
                Integer.parseInt(definition.substring(0, Math.max(0, colon)).trim()),
                definition.substring(colon + 1)));
      } catch (NumberFormatException e) {
        throw new ConfigException(
            dn
                + ": ds-cfg-character-set: \""
                + definition
                + "\" (expected: <count>:<characters>, e.g. 1:0123456789)",
            e);
      }
    }
    if (minSets > sets.size()) {
      throw new ConfigException(
          dn
              + ": ds-cfg-min-character-sets: "
              + minSets
              + " (expected: at most the "
              + sets.size()
              + " character sets defined)");
    }
    return new CharacterSetValidator(List.copyOf(sets), allowUnclassified, minSets);
  }

  @Override
  public String refusal(String password, Entry entry) {
    int[] counts = new int[sets.size()];
    for (int cp : password.codePoints().toArray()) {
      boolean classified = false;
      for (int i = 0; i < counts.length; i++) {
        if (sets.get(i).characters().indexOf(cp) >= 0) {
          counts[i]++;
          classified = true;
        }
      }
      if (!classified && !allowUnclassified) {
        return "The password holds characters outside the allowed character sets";
      }
    }
    int satisfied = 0;
    List<String> missing = new ArrayList<>();
    for (int i = 0; i < counts.length; i++) {
      if (counts[i] >= sets.get(i).count()) {
        satisfied++;
      } else {
        missing.add(sets.get(i).count() + " of \"" + sets.get(i).characters() + "\"");
      }
    }
    int needed = minSets == 0 ? sets.size() : minSets;
    return satisfied >= needed
        ? null
        : "The password needs characters from more character sets ("
            + needed
            + " of "
            + sets.size()
            + "; missing: "
            + String.join(", ", missing)
            + ")";
  }
}

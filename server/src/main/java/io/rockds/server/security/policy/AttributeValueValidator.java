package io.rockds.server.security.policy;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * OpenDJ's attribute-value validator: the password may not equal (ignoring case) a value of the
 * user's own attributes (uid, cn, mail, ...), nor that value backwards when {@code testReversed}.
 */
final class AttributeValueValidator implements PasswordValidator {
  /** Never compared: the password itself and what the server keeps about it. */
  private static final Set<String> SKIPPED =
      Set.of("userpassword", "authpassword", "objectclass", "pwdhistory");

  private final Set<String> attributes;
  private final boolean testReversed;

  AttributeValueValidator(List<String> attributes, boolean testReversed) {
    this.attributes =
        attributes.stream().map(a -> a.toLowerCase(Locale.ROOT)).collect(Collectors.toSet());
    this.testReversed = testReversed;
  }

  @Override
  public String refusal(String password, Entry entry) {
    String reversed = PasswordValidator.reversed(password);
    for (Attribute attribute : entry.getAttributes()) {
      String name = attribute.getBaseName().toLowerCase(Locale.ROOT);
      if (SKIPPED.contains(name) || (!attributes.isEmpty() && !attributes.contains(name))) {
        continue;
      }
      for (String value : attribute.getValues()) {
        if (value.equalsIgnoreCase(password)
            || (testReversed && value.equalsIgnoreCase(reversed))) {
          return "The password may not be the value of the attribute " + attribute.getBaseName();
        }
      }
    }
    return null;
  }
}

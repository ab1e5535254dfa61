package io.rockds.server;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import io.rockds.server.security.password.PasswordSchemes;

/**
 * Clear-text userPassword values hashed on their way into storage, with the schemes of the password
 * policy governing the entry (LDAP adds and modifies, import-ldif).
 */
public final class PasswordValues {
  static final String ATTRIBUTE = "userPassword";

  private PasswordValues() {}

  public static void hash(Entry entry, PasswordSchemes schemes) throws LDAPException {
    Attribute password = entry.getAttribute(ATTRIBUTE);
    if (password != null) {
      entry.setAttribute(stored(password, schemes));
    }
  }

  public static Modification hash(Modification modification, PasswordSchemes schemes)
      throws LDAPException {
    if (!setsValues(modification)) {
      return modification;
    }
    return new Modification(
        modification.getModificationType(),
        modification.getAttributeName(),
        stored(modification.getAttribute(), schemes).getValueByteArrays());
  }

  /** True when {@code modification} brings userPassword values (which are then hashed). */
  static boolean setsValues(Modification modification) {
    return modification.getAttribute().getBaseName().equalsIgnoreCase(ATTRIBUTE)
        && modification.getModificationType() != com.unboundid.ldap.sdk.ModificationType.DELETE
        && modification.hasValue();
  }

  private static Attribute stored(Attribute password, PasswordSchemes schemes)
      throws LDAPException {
    byte[][] values = password.getValueByteArrays();
    byte[][] hashed = new byte[values.length][];
    for (int i = 0; i < values.length; i++) {
      hashed[i] = schemes.toStoredValue(values[i]);
    }
    return new Attribute(password.getName(), hashed);
  }
}

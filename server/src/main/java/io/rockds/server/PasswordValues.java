package io.rockds.server;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import io.rockds.server.security.password.PasswordSchemes;

/** Clear-text userPassword values hashed with the default scheme on their way into storage. */
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
    if (!modification.getAttribute().getBaseName().equalsIgnoreCase(ATTRIBUTE)
        || modification.getModificationType() == com.unboundid.ldap.sdk.ModificationType.DELETE
        || !modification.hasValue()) {
      return modification;
    }
    return new Modification(
        modification.getModificationType(),
        modification.getAttributeName(),
        stored(modification.getAttribute(), schemes).getValueByteArrays());
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

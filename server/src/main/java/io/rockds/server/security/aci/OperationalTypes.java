package io.rockds.server.security.aci;

import com.unboundid.ldap.sdk.schema.AttributeTypeDefinition;
import com.unboundid.ldap.sdk.schema.Schema;
import java.util.Locale;
import java.util.Set;

/**
 * Which attributes {@code targetattr="+"} and {@code targetattr!=} treat as operational: the
 * schema's, plus the password policy and privilege attributes the server maintains even when the
 * loaded schema does not define them, so that {@code *} never covers them.
 */
final class OperationalTypes {
  private static final Set<String> SERVER_MAINTAINED =
      Set.of(
          "pwdchangedtime",
          "pwdaccountlockedtime",
          "pwdfailuretime",
          "pwdhistory",
          "pwdreset",
          "pwdpolicysubentry",
          "ds-pwp-password-policy-dn",
          "ds-pwp-account-disabled",
          "ds-pwp-account-expiration-time",
          "ds-privilege-name",
          "ds-rlim-size-limit",
          "ds-rlim-time-limit",
          "ds-rlim-lookthrough-limit",
          "ds-rlim-idle-time-limit",
          "aci",
          "entrydn",
          "entryuuid",
          "hassubordinates",
          "numsubordinates",
          "subschemasubentry",
          "createtimestamp",
          "creatorsname",
          "modifytimestamp",
          "modifiersname");

  private final Schema schema;

  OperationalTypes(Schema schema) {
    this.schema = schema;
  }

  boolean isOperational(String baseName) {
    if (SERVER_MAINTAINED.contains(baseName)) {
      return true;
    }
    AttributeTypeDefinition type = schema == null ? null : schema.getAttributeType(baseName);
    return type != null && type.isOperational();
  }

  /** The lower-case name without options. */
  static String baseName(String description) {
    int semi = description.indexOf(';');
    return (semi < 0 ? description : description.substring(0, semi)).toLowerCase(Locale.ROOT);
  }
}

package io.rockds.server.security.aci;

import com.unboundid.ldap.sdk.DN;
import java.util.List;
import java.util.Set;

/**
 * One parsed access control instruction.
 *
 * @param text the value as written, for messages and logs
 * @param holder the entry whose {@code aci} attribute holds it; null for a global ACI
 * @param name the {@code acl "name"}
 */
public record Aci(
    String text, DN holder, AciTargets targets, String name, List<Permission> permissions) {

  /** One {@code allow (rights) bindRule;} or {@code deny (rights) bindRule;} clause. */
  record Permission(boolean allow, Set<Right> rights, BindRule bindRule) {}

  /** Parses an ACI value; {@code holder} is null for a global ACI. */
  public static Aci parse(String text, DN holder) throws AciSyntaxException {
    return new AciParser(text, holder).parse();
  }
}

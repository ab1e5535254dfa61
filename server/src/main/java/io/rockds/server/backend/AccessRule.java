package io.rockds.server.backend;

import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.server.Identity;

/**
 * What a backend's reads or writes need: the ACIs of its entries ({@link #ACIS}), nothing ({@link
 * #ANYONE}: the root DSE and the subschema entry are readable before binding), or a privilege
 * checked once per operation ({@code cn=config}, {@code cn=monitor}, {@code cn=tasks}).
 *
 * @param acis true when ACIs decide per entry and attribute
 * @param check the privilege check; passes for ACI-governed and public backends
 */
public record AccessRule(boolean acis, PrivilegeCheck check) {
  /** Refuses with insufficientAccessRights (50) when the identity lacks the privilege. */
  @FunctionalInterface
  public interface PrivilegeCheck {
    void require(Identity identity) throws LDAPException;
  }

  public static final AccessRule ACIS = new AccessRule(true, identity -> {});
  public static final AccessRule ANYONE = new AccessRule(false, identity -> {});

  /** Governed by privileges alone: no ACI applies. */
  public static AccessRule privileged(PrivilegeCheck check) {
    return new AccessRule(false, check);
  }
}

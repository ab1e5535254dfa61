package io.rockds.server.backend;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.server.Identity;

/**
 * What a backend's reads or writes need: the ACIs of its entries ({@link #ACIS}), nothing ({@link
 * #ANYONE}: the root DSE and the subschema entry are readable before binding), or a privilege
 * checked once per operation ({@code cn=config}, {@code cn=monitor}, {@code cn=tasks}).
 *
 * @param acis true when ACIs decide per entry and attribute
 * @param check the privilege check; passes for ACI-governed and public backends
 * @param view what an identity may see of an entry, applied before the filter is evaluated so that
 *     a filter cannot probe what is hidden ({@code cn=changelog} hides password hashes)
 */
public record AccessRule(boolean acis, PrivilegeCheck check, View view) {
  /** Refuses with insufficientAccessRights (50) when the identity lacks the privilege. */
  @FunctionalInterface
  public interface PrivilegeCheck {
    void require(Identity identity) throws LDAPException;
  }

  /** What of an entry an identity may see; the entry itself when all of it. */
  @FunctionalInterface
  public interface View {
    Entry visible(Identity identity, Entry entry);
  }

  private static final View WHOLE = (identity, entry) -> entry;

  public static final AccessRule ACIS = new AccessRule(true, identity -> {}, WHOLE);
  public static final AccessRule ANYONE = new AccessRule(false, identity -> {}, WHOLE);

  /** Governed by privileges alone: no ACI applies. */
  public static AccessRule privileged(PrivilegeCheck check) {
    return new AccessRule(false, check, WHOLE);
  }

  /** Governed by privileges alone, each entry seen through {@code view}. */
  public static AccessRule privileged(PrivilegeCheck check, View view) {
    return new AccessRule(false, check, view);
  }
}

package io.rockds.server.changelog;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import io.rockds.server.Identity;
import io.rockds.server.backend.AccessRule;
import io.rockds.server.backend.DirectoryBackend;
import io.rockds.server.backend.SearchResults;
import io.rockds.server.security.privilege.Privilege;
import java.util.List;

/**
 * {@code cn=changelog} as a naming context: the container and one entry per change, read-only.
 * Reading it needs a root DN or the {@code changelog-read} privilege (anonymous clients never
 * pass); password values in {@code changes} (hashes: passwords are hashed before they are written)
 * are seen only by holders of {@code bypass-acl}, as the default access control shows {@code
 * userPassword} to them alone. A search below the container reads only the change numbers its
 * filter can match ({@link ChangeNumberRange}), in number order.
 */
public final class ChangelogBackend implements DirectoryBackend {
  private static final AccessRule READ =
      AccessRule.privileged(ChangelogBackend::requireRead, ChangelogBackend::visible);

  private final ChangelogStore store;

  public ChangelogBackend(ChangelogStore store) {
    this.store = store;
  }

  @Override
  public List<DN> baseDns() {
    return List.of(ChangelogEntries.BASE);
  }

  @Override
  public AccessRule readAccess() {
    return READ;
  }

  /** The container or a change's entry, without password values (compare cannot probe them). */
  @Override
  public Entry get(DN dn) throws LDAPException {
    if (dn.equals(ChangelogEntries.BASE)) {
      return ChangelogEntries.container();
    }
    long number = ChangelogEntries.numberOf(dn);
    Entry entry = number < 0 ? null : store.entry(number);
    return entry == null ? null : ChangelogEntries.withoutPasswords(entry);
  }

  @Override
  public DN matchedDn(DN dn) {
    return ChangelogEntries.BASE;
  }

  @Override
  public void search(DN base, SearchScope scope, SearchResults results) throws LDAPException {
    if (!base.equals(ChangelogEntries.BASE)) {
      long number = ChangelogEntries.numberOf(base);
      Entry entry = number < 0 ? null : store.entry(number);
      if (entry == null) {
        throw new LDAPException(
            ResultCode.NO_SUCH_OBJECT,
            "The search base entry " + base + " does not exist",
            ChangelogEntries.BASE.toString(),
            null);
      }
      if (scope == SearchScope.BASE || scope == SearchScope.SUB) {
        results.inScope(entry);
      }
      return;
    }
    if (scope == SearchScope.BASE || scope == SearchScope.SUB) {
      if (!results.inScope(ChangelogEntries.container())) {
        return;
      }
    }
    if (scope == SearchScope.BASE) {
      return;
    }
    ChangeNumberRange range = ChangeNumberRange.of(results.filter());
    if (!range.isEmpty()) {
      store.visit(range.from(), range.to(), results::inScope);
    }
  }

  private static void requireRead(Identity identity) throws LDAPException {
    if (!identity.root() && !Privilege.CHANGELOG_READ.heldBy(identity)) {
      throw new LDAPException(
          ResultCode.INSUFFICIENT_ACCESS_RIGHTS,
          "Reading cn=changelog needs the changelog-read privilege");
    }
  }

  private static Entry visible(Identity identity, Entry entry) {
    return Privilege.BYPASS_ACL.heldBy(identity) ? entry : ChangelogEntries.withoutPasswords(entry);
  }
}

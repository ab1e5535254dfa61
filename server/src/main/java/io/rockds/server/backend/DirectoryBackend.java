package io.rockds.server.backend;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import java.util.List;

/**
 * One naming context, as OpenDJ's and slapd's backends: the entries under its base DNs, how they
 * are read and searched, which updates it accepts and what access needs. The operations route a DN
 * to one backend ({@link BackendRouter}) and handle the LDAP around it (access control,
 * noSuchObject with matchedDN, controls, results) the same way whichever backend answers.
 */
public interface DirectoryBackend {
  /** The DNs this backend holds, with everything below them (a null DN holds only the root DSE). */
  List<DN> baseDns();

  /** What reading (search, compare) needs: by default the ACIs of the entries. */
  default AccessRule readAccess() {
    return AccessRule.ACIS;
  }

  /** What writing (add, delete, modify, modify DN) needs: by default the ACIs of the entries. */
  default AccessRule writeAccess() {
    return AccessRule.ACIS;
  }

  /** The entry, or null when this backend does not hold it. */
  Entry get(DN dn) throws LDAPException;

  /**
   * The entry, or null, for testing filters and values only (a compare): it may lack the values of
   * attributes stored apart (member), which the filter evaluator tests by point reads ({@link
   * io.rockds.storage.StoredEntry}). By default the whole entry.
   */
  default Entry getForMatching(DN dn) throws LDAPException {
    return get(dn);
  }

  /**
   * The closest existing ancestor of an absent {@code dn}, the matchedDN of noSuchObject; null if
   * none.
   */
  default DN matchedDn(DN dn) throws LDAPException {
    return null;
  }

  /**
   * Hands {@code results} the entries in scope of {@code base}, the filter not yet applied, or
   * (when the backend has indexes) the container to search. Refuses an absent base with
   * noSuchObject.
   */
  void search(DN base, SearchScope scope, SearchResults results) throws LDAPException;

  /** {@code entry} with the computed attribute a compare names, when this backend computes it. */
  default Entry withComputed(Entry entry, String attribute) throws LDAPException {
    return entry;
  }

  default Written add(Update update, Entry entry) throws LDAPException {
    throw notHeld(entry.getParsedDN());
  }

  default Written delete(Update update, DN dn) throws LDAPException {
    throw notHeld(dn);
  }

  default Written modify(Update update, DN dn, List<Modification> modifications)
      throws LDAPException {
    throw notHeld(dn);
  }

  /** Renames {@code dn} and its subtree to {@code newDn}. */
  default Written rename(Update update, DN dn, DN newDn) throws LDAPException {
    throw notHeld(dn);
  }

  /** How a backend refuses an update it does not take: as if no backend held the entry. */
  static LDAPException notHeld(DN dn) {
    return new LDAPException(ResultCode.NO_SUCH_OBJECT, "No backend holds the entry " + dn);
  }
}

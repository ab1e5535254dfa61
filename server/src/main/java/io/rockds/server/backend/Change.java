package io.rockds.server.backend;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;

/**
 * One committed update of a stored entry, as change listeners hear it.
 *
 * @param type what happened
 * @param dn the entry's DN now (for a delete: the DN it had)
 * @param entry the entry after the change, or as it was before a delete; never mutated
 * @param previousDn the DN before a modify DN, else null
 * @param changeNumber the change's number in a changelog, or -1 when there is none
 */
public record Change(Type type, DN dn, Entry entry, DN previousDn, long changeNumber) {
  /** The kinds of change, with the bit draft-ietf-ldapext-psearch gives each in changeTypes. */
  public enum Type {
    ADD(1),
    DELETE(2),
    MODIFY(4),
    MODIFY_DN(8);

    private final int bit;

    Type(int bit) {
      this.bit = bit;
    }

    public int bit() {
      return bit;
    }
  }

  /** This change with its number in the changelog. */
  public Change numbered(long number) {
    return new Change(type, dn, entry, previousDn, number);
  }

  public static Change add(DN dn, Entry entry) {
    return new Change(Type.ADD, dn, entry, null, -1);
  }

  public static Change delete(DN dn, Entry entry) {
    return new Change(Type.DELETE, dn, entry, null, -1);
  }

  public static Change modify(DN dn, Entry entry) {
    return new Change(Type.MODIFY, dn, entry, null, -1);
  }

  public static Change rename(DN dn, Entry entry, DN previousDn) {
    return new Change(Type.MODIFY_DN, dn, entry, previousDn, -1);
  }
}

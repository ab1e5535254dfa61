package io.rockds.server;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;

/**
 * DN parsing that turns a malformed (or not UTF-8) DN into invalidDNSyntax (34) naming the value.
 */
final class Dns {
  /** Slots of the memo of search bases (a power of two). */
  private static final int BASE_SLOTS = 64;

  private record Parsed(String text, DN dn) {}

  /**
   * The search bases parsed lately, one slot per hash, overwritten freely. Read and written without
   * locks: a slot is an immutable record published whole, and a lost one costs a parse.
   */
  private static final Parsed[] BASES = new Parsed[BASE_SLOTS];

  private Dns() {}

  /**
   * {@link #parse} of a search base: searches name the same few bases again and again, and parsing
   * one, then normalizing its RDNs to route it and compare it with the suffix, was a few percent of
   * a uid search's CPU. The same {@link DN} (immutable, its normalized forms computed once) is
   * returned for the same text.
   */
  static DN parseBase(String dn) throws LDAPException {
    int slot = dn.hashCode() & (BASE_SLOTS - 1);
    Parsed parsed = BASES[slot];
    if (parsed == null || !parsed.text.equals(dn)) {
      parsed = new Parsed(dn, parse(dn));
      BASES[slot] = parsed;
    }
    return parsed.dn;
  }

  static DN parse(String dn) throws LDAPException {
    // The decoder turns bytes that are not UTF-8 into U+FFFD; such a DN must not be stored or
    // matched.
    if (dn.indexOf('\uFFFD') >= 0) {
      throw new LDAPException(
          ResultCode.INVALID_DN_SYNTAX, "invalid DN \"" + dn + "\": not valid UTF-8");
    }
    try {
      return new DN(dn);
    } catch (LDAPException e) {
      throw new LDAPException(
          ResultCode.INVALID_DN_SYNTAX, "invalid DN \"" + dn + "\": " + e.getExceptionMessage());
    }
  }

  /** The DN a checked modify DN request gives its entry (its new RDN under its new parent). */
  static DN renamed(DN dn, com.unboundid.ldap.protocol.ModifyDNRequestProtocolOp op)
      throws LDAPException {
    DN parent = op.getNewSuperiorDN() == null ? dn.getParent() : parse(op.getNewSuperiorDN());
    return new DN(new com.unboundid.ldap.sdk.RDN(op.getNewRDN()), parent);
  }
}

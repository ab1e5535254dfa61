package io.rockds.server.changelog;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.protocol.AddRequestProtocolOp;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.protocol.ModifyDNRequestProtocolOp;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.RDN;
import com.unboundid.ldap.sdk.ResultCode;
import io.rockds.server.WriteRecord;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The entries of {@code cn=changelog}: the container, and one {@code changeNumber=N,cn=changelog}
 * per change with draft-good-ldap-changelog's attributes (changeNumber, targetDN, changeType,
 * changes as LDIF, newRDN, deleteOldRDN, newSuperior) and OpenDJ's (changeTime, targetEntryUUID,
 * changeInitiatorsName).
 */
final class ChangelogEntries {
  static final DN BASE = parse("cn=changelog");
  static final String CHANGE_NUMBER = "changeNumber";
  private static final String CHANGES = "changes";

  /** The password types whose values only holders of bypass-acl see, by name and OID. */
  private static final Set<String> PASSWORDS =
      Set.of("userpassword", "2.5.4.35", "authpassword", "1.3.6.1.4.1.4203.1.3.4");

  private ChangelogEntries() {}

  private static DN parse(String dn) {
    try {
      return new DN(dn);
    } catch (LDAPException e) {
      throw new IllegalArgumentException(e);
    }
  }

  static DN dnOf(long number) {
    return new DN(new RDN(CHANGE_NUMBER, Long.toString(number)), BASE);
  }

  /** The change number an entry DN names, or -1 when it names none (the container, or other). */
  static long numberOf(DN dn) {
    if (!BASE.equals(dn.getParent())) {
      return -1;
    }
    RDN rdn = dn.getRDN();
    if (rdn.isMultiValued() || !rdn.hasAttribute(CHANGE_NUMBER)) {
      return -1;
    }
    try {
      long number = Long.parseLong(rdn.getAttributeValues()[0]);
      return number < 0 ? -1 : number;
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  static Entry container() {
    return new Entry(
        BASE, new Attribute("objectClass", "top", "container"), new Attribute("cn", "changelog"));
  }

  /** The entry of change {@code number}, password values included. */
  static Entry entry(long number, ChangeDescription description) throws LDAPException {
    WriteRecord write = description.write();
    LDAPMessage request = write.request();
    Entry entry = new Entry(dnOf(number));
    entry.addAttribute("objectClass", "top", "changeLogEntry");
    entry.addAttribute(CHANGE_NUMBER, Long.toString(number));
    entry.addAttribute("targetDN", write.targetDn().toString());
    switch (request.getProtocolOpType()) {
      case LDAPMessage.PROTOCOL_OP_TYPE_ADD_REQUEST -> {
        entry.addAttribute("changeType", "add");
        entry.addAttribute(CHANGES, addChanges(request.getAddRequestProtocolOp()));
      }
      case LDAPMessage.PROTOCOL_OP_TYPE_DELETE_REQUEST ->
          entry.addAttribute("changeType", "delete");
      case LDAPMessage.PROTOCOL_OP_TYPE_MODIFY_REQUEST -> {
        entry.addAttribute("changeType", "modify");
        entry.addAttribute(
            CHANGES, modifyChanges(request.getModifyRequestProtocolOp().getModifications()));
      }
      case LDAPMessage.PROTOCOL_OP_TYPE_MODIFY_DN_REQUEST -> {
        ModifyDNRequestProtocolOp op = request.getModifyDNRequestProtocolOp();
        entry.addAttribute("changeType", "modrdn");
        entry.addAttribute("newRDN", op.getNewRDN());
        entry.addAttribute("deleteOldRDN", op.deleteOldRDN() ? "TRUE" : "FALSE");
        if (op.getNewSuperiorDN() != null) {
          entry.addAttribute("newSuperior", op.getNewSuperiorDN());
        }
      }
      default ->
          throw new LDAPException(ResultCode.OTHER, "a changelog record of no change: " + request);
    }
    entry.addAttribute("changeTime", write.time());
    entry.addAttribute("changeInitiatorsName", write.modifier().toString());
    if (!description.targetEntryUuid().isEmpty()) {
      entry.addAttribute("targetEntryUUID", description.targetEntryUuid());
    }
    return entry;
  }

  /**
   * {@code entry} without password values in its changes (a modify of a password keeps its
   * "replace: userPassword" line, so that a consumer knows it changed); the entry itself when it
   * has none.
   */
  static Entry withoutPasswords(Entry entry) {
    String changes = entry.getAttributeValue(CHANGES);
    if (changes == null) {
      return entry;
    }
    StringBuilder kept = new StringBuilder(changes.length());
    boolean removed = false;
    for (String line : changes.split("\n", -1)) {
      if (isPasswordValue(line)) {
        removed = true;
      } else {
        kept.append(line).append('\n');
      }
    }
    if (!removed) {
      return entry;
    }
    Entry copy = entry.duplicate();
    copy.setAttribute(CHANGES, kept.substring(0, kept.length() - 1));
    return copy;
  }

  /** A value line ({@code name: value} or {@code name:: base64}) of a password type. */
  private static boolean isPasswordValue(String line) {
    int colon = line.indexOf(':');
    if (colon <= 0) {
      return false;
    }
    String name = line.substring(0, colon);
    int options = name.indexOf(';');
    return PASSWORDS.contains(
        (options < 0 ? name : name.substring(0, options)).toLowerCase(Locale.ROOT));
  }

  /** An add's attributes as LDIF lines, one line per value (never folded). */
  private static String addChanges(AddRequestProtocolOp add) {
    StringBuilder ldif = new StringBuilder();
    for (Attribute attribute : add.getAttributes()) {
      appendValues(ldif, attribute);
    }
    return ldif.toString();
  }

  /** A modify's modifications as in an LDIF change record: "op: type", the values, "-". */
  private static String modifyChanges(List<Modification> modifications) {
    StringBuilder ldif = new StringBuilder();
    for (Modification m : modifications) {
      ldif.append(m.getModificationType().getName().toLowerCase(Locale.ROOT))
          .append(": ")
          .append(m.getAttributeName())
          .append('\n');
      appendValues(ldif, m.getAttribute());
      ldif.append("-\n");
    }
    return ldif.toString();
  }

  private static void appendValues(StringBuilder ldif, Attribute attribute) {
    for (ASN1OctetString value : attribute.getRawValues()) {
      byte[] bytes = value.getValue();
      ldif.append(attribute.getName());
      if (isSafe(bytes)) {
        ldif.append(": ").append(value.stringValue());
      } else {
        ldif.append(":: ").append(Base64.getEncoder().encodeToString(bytes));
      }
      ldif.append('\n');
    }
  }

  /** RFC 2849's SAFE-STRING: printable ASCII, not starting with a space, colon or "<". */
  private static boolean isSafe(byte[] value) {
    if (value.length == 0) {
      return true;
    }
    if (value[0] == ' ' || value[0] == ':' || value[0] == '<' || value[value.length - 1] == ' ') {
      return false;
    }
    for (byte b : value) {
      if (b < 0x20 || b > 0x7e) {
        return false;
      }
    }
    return true;
  }
}

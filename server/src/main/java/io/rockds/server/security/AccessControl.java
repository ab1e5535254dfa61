package io.rockds.server.security;

import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.RDN;
import com.unboundid.ldap.sdk.ResultCode;
import io.rockds.server.ClientConnection;
import io.rockds.server.Identity;
import io.rockds.server.backend.AccessRule;
import io.rockds.server.security.aci.Aci;
import io.rockds.server.security.aci.AciCache;
import io.rockds.server.security.aci.AciEvaluator;
import io.rockds.server.security.aci.AciSyntaxException;
import io.rockds.server.security.aci.EntryAccess;
import io.rockds.server.security.aci.Right;
import io.rockds.server.security.aci.Subject;
import io.rockds.server.security.policy.ResetRestrictions;
import io.rockds.server.security.privilege.Privilege;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Access control: the one service operations ask before they read or write, given the {@link
 * AccessRule} of the backend holding the entry. Decisions, in order:
 *
 * <ol>
 *   <li>a backend governed by privileges ({@code cn=config}, {@code cn=monitor}, {@code cn=tasks})
 *       checks them once per operation and no ACI applies; a public one (the root DSE, {@code
 *       cn=schema}) is readable by anyone;
 *   <li>changing {@code ds-privilege-name} needs {@code privilege-change}, and changing another
 *       user's {@code userPassword} needs {@code password-reset}, whatever the ACIs say;
 *   <li>holders of {@code bypass-acl} (root DNs by default) pass;
 *   <li>everyone else gets what the ACIs allow (global ones from {@code cn=Access Control
 *       Handler,cn=config}, entry ones from {@code aci} values): deny beats allow, no allow means
 *       no access.
 * </ol>
 *
 * Refused writes fail with insufficientAccessRights (50); for reads, entries the client may not see
 * are left out and attributes it may not read are removed, as OpenDJ and OpenLDAP do.
 */
public final class AccessControl {
  public static final String ACI = "aci";
  private static final String PASSWORD = "userpassword";
  private static final String AUTH_PASSWORD = "authpassword";

  private final AciCache acis;
  private final AciEvaluator evaluator;
  private final EntryLookup entries;
  private final ResetRestrictions restrictions;
  private final ProxiedAuthorization proxied;

  /** DNs whose pending write touches ACIs: the cache is dropped again once the write is done. */
  private final Set<DN> pendingAciWrites = ConcurrentHashMap.newKeySet();

  public AccessControl(
      AciCache acis, AciEvaluator evaluator, EntryLookup entries, ResetRestrictions restrictions) {
    this.acis = acis;
    this.evaluator = evaluator;
    this.entries = entries;
    this.restrictions = restrictions;
    this.proxied = new ProxiedAuthorization(this, entries);
  }

  // ---------------------------------------------------------------- per request

  /**
   * The connection the request runs as: {@code client} itself, or a view acting as the identity of
   * a proxied authorization control (RFC 4370). Refuses every request but a password change while
   * the client must change a reset password.
   */
  public ClientConnection authorize(ClientConnection client, LDAPMessage request)
      throws LDAPException {
    restrictions.check(client, request);
    return proxied.actor(client, request);
  }

  // ---------------------------------------------------------------- reads

  /** The privileges reading a backend needs, checked before any of its entries is read. */
  public void checkRead(ClientConnection client, AccessRule rule) throws LDAPException {
    rule.check().require(client.identity());
  }

  /**
   * What {@code client} may see of an entry read under {@code rule}: see {@link
   * #filterEntry(ClientConnection, Entry, Collection)}.
   */
  public Entry filterEntry(
      ClientConnection client, AccessRule rule, Entry entry, Collection<String> filterAttributes)
      throws LDAPException {
    return rule.acis() ? filterEntry(client, entry, filterAttributes) : entry;
  }

  /**
   * What {@code client} may see of a search result under the ACIs: null to leave the entry out,
   * else the entry without the attributes it may not read. Every attribute the search filter names
   * ({@code filterAttributes}) needs the search right, so a client cannot probe values it may not
   * read.
   */
  public Entry filterEntry(
      ClientConnection client, Entry entry, Collection<String> filterAttributes)
      throws LDAPException {
    Identity identity = client.identity();
    if (Privilege.BYPASS_ACL.heldBy(identity)) {
      return entry;
    }
    EntryAccess access = access(client, entry);
    if (!access.allowsEntry(Right.READ)) {
      return null;
    }
    for (String attribute : filterAttributes) {
      if (!access.allowsAttribute(Right.SEARCH, attribute)) {
        return null;
      }
    }
    List<Attribute> readable = new ArrayList<>();
    for (Attribute a : entry.getAttributes()) {
      if (access.allowsAttribute(Right.READ, a.getName())) {
        readable.add(a);
      }
    }
    return readable.size() == entry.getAttributes().size()
        ? entry
        : new Entry(entry.getDN(), readable);
  }

  /**
   * Compare needs the compare right on the attribute under the ACIs (privileges: {@link
   * #checkRead}).
   */
  public void checkCompare(ClientConnection client, AccessRule rule, Entry entry, String attribute)
      throws LDAPException {
    Identity identity = client.identity();
    DN dn = entry.getParsedDN();
    if (rule.acis()
        && !Privilege.BYPASS_ACL.heldBy(identity)
        && !access(client, entry).allowsAttribute(Right.COMPARE, attribute)) {
      throw denied(identity, "compare " + attribute + " of", dn);
    }
  }

  // ---------------------------------------------------------------- writes

  /** Add: the add right on the new entry; its ACI values must parse. */
  public void checkAdd(ClientConnection client, AccessRule rule, Entry entry) throws LDAPException {
    Identity identity = client.identity();
    DN dn = entry.getParsedDN();
    if (entry.hasAttribute(Privilege.ATTRIBUTE)) {
      Privilege.PRIVILEGE_CHANGE.require(identity, "set " + Privilege.ATTRIBUTE);
    }
    if (!rule.acis()) {
      rule.check().require(identity);
    } else if (!Privilege.BYPASS_ACL.heldBy(identity)
        && !access(client, entry).allowsEntry(Right.ADD)) {
      throw denied(identity, "add", dn);
    }
    Attribute aci = entry.getAttribute(ACI);
    if (aci != null) {
      validate(aci.getValues(), dn);
      aciWriteStarts(dn);
    }
  }

  /** Delete: the delete right on the entry. */
  public void checkDelete(ClientConnection client, AccessRule rule, DN dn) throws LDAPException {
    Identity identity = client.identity();
    if (!rule.acis()) {
      rule.check().require(identity);
      return;
    }
    if (!Privilege.BYPASS_ACL.heldBy(identity)
        && !access(client, entries.getOrStub(dn)).allowsEntry(Right.DELETE)) {
      throw denied(identity, "delete", dn);
    }
    if (acis.holdsAcis(dn)) {
      aciWriteStarts(dn);
    }
  }

  /**
   * Modify: the write right on every attribute modified, or selfwrite when a client only adds or
   * removes its own DN (joining or leaving a group).
   */
  public void checkModify(ClientConnection client, DN dn, List<Modification> modifications)
      throws LDAPException {
    checkModify(client, AccessRule.ACIS, dn, modifications);
  }

  /**
   * Modify of an entry of a backend with this rule: see {@link #checkModify(ClientConnection, DN,
   * List)}.
   */
  public void checkModify(
      ClientConnection client, AccessRule rule, DN dn, List<Modification> modifications)
      throws LDAPException {
    Identity identity = client.identity();
    boolean touchesAci = false;
    for (Modification m : modifications) {
      String name = baseName(m.getAttributeName());
      if (name.equals(Privilege.ATTRIBUTE)) {
        Privilege.PRIVILEGE_CHANGE.require(identity, "change " + Privilege.ATTRIBUTE);
      }
      if ((name.equals(PASSWORD) || name.equals(AUTH_PASSWORD)) && !dn.equals(identity.dn())) {
        Privilege.PASSWORD_RESET.require(identity, "reset the password of " + dn);
      }
      if (name.equals(ACI)) {
        validate(m.getValues(), dn);
        touchesAci = true;
      }
    }
    if (!rule.acis()) {
      rule.check().require(identity);
    } else if (!Privilege.BYPASS_ACL.heldBy(identity)) {
      EntryAccess access = access(client, entries.getOrStub(dn));
      for (Modification m : modifications) {
        if (!access.allowsAttribute(Right.WRITE, m.getAttributeName())
            && !(isSelfWrite(identity, m)
                && access.allowsAttribute(Right.SELFWRITE, m.getAttributeName()))) {
          throw denied(identity, "modify " + m.getAttributeName() + " of", dn);
        }
      }
    }
    if (touchesAci) {
      aciWriteStarts(dn);
    }
  }

  /**
   * Modify DN: the write right on the naming attributes that change, and the add right at the new
   * place when the entry moves under another parent. Where a privilege governs the old or the new
   * place, that privilege alone decides.
   */
  public void checkRename(
      ClientConnection client, AccessRule rule, AccessRule newRule, DN dn, DN newDn)
      throws LDAPException {
    Identity identity = client.identity();
    if (!rule.acis() || !newRule.acis()) {
      rule.check().require(identity);
      newRule.check().require(identity);
      return;
    }
    if (!Privilege.BYPASS_ACL.heldBy(identity)) {
      EntryAccess access = access(client, entries.getOrStub(dn));
      for (RDN rdn : List.of(dn.getRDN(), newDn.getRDN())) {
        for (String name : rdn.getAttributeNames()) {
          if (!access.allowsAttribute(Right.WRITE, name)) {
            throw denied(identity, "rename", dn);
          }
        }
      }
      boolean moves = !newDn.getParent().equals(dn.getParent());
      if (moves && !access(client, new Entry(newDn)).allowsEntry(Right.ADD)) {
        throw denied(identity, "move under " + newDn.getParent() + " the entry", dn);
      }
    }
    if (acis.holdsAcis(dn)) {
      aciWriteStarts(dn);
    }
  }

  /** Called once a write of {@code dn} has been attempted: drops ACIs it may have changed. */
  public void written(DN dn) {
    if (pendingAciWrites.remove(dn)) {
      acis.invalidate();
    }
  }

  /**
   * Whether applying the prepared write {@code request} of {@code dn} may change the entry ACIs in
   * force: an add bringing {@code aci} values, a modify of {@code aci}, a delete or modify DN at or
   * above an entry holding some. Asked before the write is applied (a deleted holder is still known
   * then) by a server applying another server's write, which did not check it.
   */
  public boolean mayChangeAcis(LDAPMessage request, DN dn) throws LDAPException {
    return switch (request.getProtocolOpType()) {
      case LDAPMessage.PROTOCOL_OP_TYPE_ADD_REQUEST ->
          request.getAddRequestProtocolOp().getAttributes().stream()
              .anyMatch(a -> baseName(a.getName()).equals(ACI));
      case LDAPMessage.PROTOCOL_OP_TYPE_MODIFY_REQUEST ->
          request.getModifyRequestProtocolOp().getModifications().stream()
              .anyMatch(m -> baseName(m.getAttributeName()).equals(ACI));
      default -> acis.holdsAcis(dn);
    };
  }

  /** Drops the cached entry ACIs: a write that may have changed them was applied. */
  public void acisChanged() {
    acis.invalidate();
  }

  /** The proxy right of {@code client} on {@code target}, for proxied authorization. */
  boolean mayProxyAs(ClientConnection client, Entry target) throws LDAPException {
    return Privilege.BYPASS_ACL.heldBy(client.identity())
        || access(client, target).allowsEntry(Right.PROXY);
  }

  // ---------------------------------------------------------------- helpers

  private EntryAccess access(ClientConnection client, Entry entry) throws LDAPException {
    Subject subject = Subjects.of(client);
    return evaluator.evaluate(subject, entry, acis.candidates(entry.getParsedDN()));
  }

  private void aciWriteStarts(DN dn) {
    pendingAciWrites.add(dn);
    acis.invalidate();
  }

  private static void validate(String[] values, DN holder) throws LDAPException {
    for (String value : values) {
      try {
        Aci.parse(value, holder);
      } catch (AciSyntaxException e) {
        throw e.toLdapException(value);
      }
    }
  }

  private static boolean isSelfWrite(Identity identity, Modification m) {
    if (identity.isAnonymous()
        || m.getModificationType() == ModificationType.REPLACE
        || !m.hasValue()) {
      return false;
    }
    for (String value : m.getValues()) {
      try {
        if (!new DN(value).equals(identity.dn())) {
          return false;
        }
      } catch (LDAPException e) {
        return false;
      }
    }
    return true;
  }

  private static String baseName(String description) {
    int semi = description.indexOf(';');
    return (semi < 0 ? description : description.substring(0, semi)).toLowerCase(Locale.ROOT);
  }

  private static LDAPException denied(Identity identity, String action, DN target) {
    String who = identity.isAnonymous() ? "Anonymous clients" : identity.dn().toString();
    return new LDAPException(
        ResultCode.INSUFFICIENT_ACCESS_RIGHTS,
        who + " may not " + action + " " + target + ": insufficient access rights");
  }
}

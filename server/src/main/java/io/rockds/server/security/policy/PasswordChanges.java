package io.rockds.server.security.policy;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import io.rockds.server.ClientConnection;
import io.rockds.server.Identity;
import io.rockds.server.security.EntryLookup;
import io.rockds.server.security.password.PasswordSchemes;
import io.rockds.server.security.privilege.Privilege;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A new password for an entry, by a modify of {@code userPassword} or by Password Modify: checked
 * against the policy (length, history, pre-hashed values only from administrators), and the policy
 * state that goes with it ({@code pwdChangedTime}, {@code pwdHistory}, {@code pwdReset}; a reset by
 * someone else also unlocks the account).
 */
final class PasswordChanges {
  private final PasswordPolicies policies;
  private final EntryLookup entries;
  private final ResetRestrictions restrictions;
  private final Clock clock;

  PasswordChanges(
      PasswordPolicies policies, EntryLookup entries, ResetRestrictions restrictions, Clock clock) {
    this.policies = policies;
    this.entries = entries;
    this.restrictions = restrictions;
    this.clock = clock;
  }

  /**
   * The state modifications to apply with {@code requested}, after checking its new passwords;
   * empty when it sets no password. Refusals: constraintViolation (19) for a too short, reused or
   * (from a non-administrator) pre-hashed password, unwillingToPerform (53) when the policy forbids
   * users to change their own password.
   */
  List<Modification> stateChanges(ClientConnection client, DN dn, List<Modification> requested)
      throws LDAPException {
    List<byte[]> newPasswords = new ArrayList<>();
    for (Modification m : requested) {
      if (m.getAttribute().getBaseName().equalsIgnoreCase(PasswordState.PASSWORD)
          && m.getModificationType() != ModificationType.DELETE
          && m.hasValue()) {
        newPasswords.addAll(List.of(m.getValueByteArrays()));
      }
    }
    Entry entry = newPasswords.isEmpty() ? null : entries.get(dn);
    if (entry == null) {
      return List.of();
    }
    Identity identity = client.identity();
    boolean self = identity.dn().equals(dn);
    boolean administrator = Privilege.BYPASS_ACL.heldBy(identity);
    PasswordPolicy policy = policies.policyFor(entry);
    if (self && !policy.allowUserChange() && !administrator) {
      throw new LDAPException(
          ResultCode.UNWILLING_TO_PERFORM, "Users may not change their own password");
    }
    for (byte[] password : newPasswords) {
      check(password, entry, policy, administrator);
    }
    if (self) {
      restrictions.lift(client);
    }
    return stateAfterChange(entry, policy, self);
  }

  /**
   * For an add: the entry's clear-text passwords must pass the policy that will govern it (its
   * minimum length and validators; pre-encoded values only from administrators), as OpenDJ checks
   * them on add. There is no history yet to compare with.
   */
  void checkNewEntry(Identity identity, Entry entry) throws LDAPException {
    byte[][] passwords = entry.getAttributeValueByteArrays(PasswordState.PASSWORD);
    if (passwords == null) {
      return;
    }
    PasswordPolicy policy = policies.policyFor(entry);
    boolean administrator = Privilege.BYPASS_ACL.heldBy(identity);
    for (byte[] password : passwords) {
      checkPolicy(password, entry, policy, administrator);
    }
  }

  private void check(byte[] password, Entry entry, PasswordPolicy policy, boolean administrator)
      throws LDAPException {
    if (checkPolicy(password, entry, policy, administrator)
        && policy.historyCount() > 0
        && inHistory(password, entry, policy, policies.schemesFor(policy))) {
      throw violation("The password was used recently and may not be reused");
    }
  }

  /**
   * Length, validators and pre-encoding; true when the password is clear text (and so may be
   * compared with the history).
   */
  private boolean checkPolicy(
      byte[] password, Entry entry, PasswordPolicy policy, boolean administrator)
      throws LDAPException {
    PasswordSchemes schemes = policies.schemesFor(policy);
    if (schemes.isEncoded(password)) {
      if (!administrator && !policy.allowPreEncoded()) {
        throw violation("Pre-encoded passwords are not allowed");
      }
      return false;
    }
    int length = new String(password, StandardCharsets.UTF_8).codePointCount(0, password.length);
    if (length < policy.minLength()) {
      throw violation(
          "The password is too short: it needs at least " + policy.minLength() + " characters");
    }
    String clear = new String(password, StandardCharsets.UTF_8);
    for (PasswordValidator validator : policy.validators()) {
      String refusal = validator.refusal(clear, entry);
      if (refusal != null) {
        throw violation(refusal);
      }
    }
    return true;
  }

  private static boolean inHistory(
      byte[] password, Entry entry, PasswordPolicy policy, PasswordSchemes schemes) {
    byte[][] current = entry.getAttributeValueByteArrays(PasswordState.PASSWORD);
    if (current != null) {
      for (byte[] stored : current) {
        if (schemes.verify(password, stored)) {
          return true;
        }
      }
    }
    List<String> history = new PasswordState(entry).historyValues();
    for (String value :
        history.subList(Math.max(0, history.size() - policy.historyCount()), history.size())) {
      if (schemes.verify(
          password, PasswordState.historyHash(value).getBytes(StandardCharsets.UTF_8))) {
        return true;
      }
    }
    return false;
  }

  private List<Modification> stateAfterChange(Entry entry, PasswordPolicy policy, boolean self) {
    Instant now = clock.instant();
    List<Modification> mods = new ArrayList<>();
    mods.add(
        new Modification(
            ModificationType.REPLACE, PasswordState.CHANGED_TIME, PasswordState.format(now)));
    if (policy.historyCount() > 0) {
      List<String> history = new PasswordState(entry).historyValues();
      String[] current = entry.getAttributeValues(PasswordState.PASSWORD);
      if (current != null) {
        for (String hash : current) {
          history.add(PasswordState.historyValue(now, hash));
        }
      }
      List<String> kept =
          history.subList(Math.max(0, history.size() - policy.historyCount()), history.size());
      mods.add(
          new Modification(
              ModificationType.REPLACE, PasswordState.HISTORY, kept.toArray(String[]::new)));
    }
    if (!self && policy.forceChangeOnReset()) {
      mods.add(new Modification(ModificationType.REPLACE, PasswordState.RESET, "TRUE"));
    } else {
      mods.add(new Modification(ModificationType.REPLACE, PasswordState.RESET));
    }
    if (!self) {
      mods.addAll(PasswordState.clearFailures());
    }
    return mods;
  }

  private static LDAPException violation(String message) {
    return new LDAPException(ResultCode.CONSTRAINT_VIOLATION, message);
  }
}

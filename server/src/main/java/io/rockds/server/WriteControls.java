package io.rockds.server;

import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ReadOnlyEntry;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.controls.AssertionRequestControl;
import com.unboundid.ldap.sdk.controls.PostReadRequestControl;
import com.unboundid.ldap.sdk.controls.PostReadResponseControl;
import com.unboundid.ldap.sdk.controls.PreReadRequestControl;
import com.unboundid.ldap.sdk.controls.PreReadResponseControl;
import com.unboundid.ldap.sdk.schema.Schema;
import io.rockds.storage.matching.FilterEvaluator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The request controls of the write operations: assertion (RFC 4528), pre-read and post-read (RFC
 * 4527), permissive modify, no-op and subtree delete. Decoded once per request; a control that does
 * not decode is a protocolError (2), as in OpenLDAP.
 */
final class WriteControls {
  static final String ASSERTION = AssertionRequestControl.ASSERTION_REQUEST_OID;
  static final String PRE_READ = PreReadRequestControl.PRE_READ_REQUEST_OID;
  static final String POST_READ = PostReadRequestControl.POST_READ_REQUEST_OID;
  static final String PERMISSIVE_MODIFY = "1.2.840.113556.1.4.1413";
  static final String NO_OP = "1.3.6.1.4.1.4203.1.10.2";
  static final String SUBTREE_DELETE = "1.2.840.113556.1.4.805";

  private final Schema schema;
  private final boolean mayReadPasswords;
  private Filter assertion;
  private String[] preRead;
  private String[] postRead;
  private boolean permissiveModify;
  private boolean noOp;
  private boolean subtreeDelete;

  /**
   * @param identity who asks: pre- and post-read show userPassword only to whom search shows it
   */
  WriteControls(LDAPMessage request, Schema schema, Identity identity) throws LDAPException {
    this.schema = schema;
    this.mayReadPasswords = identity.root() || identity.has("bypass-acl");
    for (Control c : request.getControls()) {
      try {
        switch (c.getOID()) {
          case ASSERTION -> assertion = new AssertionRequestControl(c).getFilter();
          case PRE_READ -> preRead = new PreReadRequestControl(c).getAttributes();
          case POST_READ -> postRead = new PostReadRequestControl(c).getAttributes();
          case PERMISSIVE_MODIFY -> permissiveModify = true;
          case NO_OP -> noOp = true;
          case SUBTREE_DELETE -> subtreeDelete = true;
          default -> {}
        }
      } catch (LDAPException e) {
        throw new LDAPException(
            ResultCode.PROTOCOL_ERROR,
            "the control " + c.getOID() + " cannot be decoded: " + e.getExceptionMessage());
      }
    }
  }

  /** assertionFailed (122) unless the entry matches the assertion control's filter. */
  void checkAssertion(Entry target) throws LDAPException {
    if (assertion == null) {
      return;
    }
    if (!FilterEvaluator.forSchema(schema).matches(assertion, target)) {
      throw new LDAPException(
          ResultCode.ASSERTION_FAILED,
          "assertion control failed: " + assertion + " does not match " + target.getDN());
    }
  }

  /**
   * Whether the write must see the whole entry: an assertion tests it, or a read control returns
   * it.
   */
  boolean needsWholeEntry() {
    return assertion != null || readsEntries();
  }

  /** Whether the response needs the entry before or after the write (pre-/post-read). */
  boolean readsEntries() {
    return preRead != null || postRead != null;
  }

  boolean permissiveModify() {
    return permissiveModify;
  }

  boolean noOp() {
    return noOp;
  }

  boolean subtreeDelete() {
    return subtreeDelete;
  }

  /** Fails the operation with noOperation (0x410e) once everything but the commit succeeded. */
  LDAPException noOperation() {
    return new LDAPException(
        ResultCode.NO_OPERATION, "the no-op control was given: nothing was changed");
  }

  /** The pre-read and post-read response controls for the entry before and after the write. */
  List<Control> readControls(Entry before, Entry after) {
    List<Control> controls = new ArrayList<>(2);
    if (preRead != null && before != null) {
      controls.add(new PreReadResponseControl(selected(before, preRead)));
    }
    if (postRead != null && after != null) {
      controls.add(new PostReadResponseControl(selected(after, postRead)));
    }
    return controls;
  }

  private ReadOnlyEntry selected(Entry entry, String[] attributes) {
    AttributeSelection selection = new AttributeSelection(Arrays.asList(attributes), schema);
    List<Attribute> selected = selection.select(entry, false);
    if (!mayReadPasswords) {
      selected.removeIf(a -> a.getBaseName().equalsIgnoreCase(PasswordValues.ATTRIBUTE));
    }
    return new ReadOnlyEntry(entry.getDN(), selected);
  }
}

package io.rockds.server;

import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import io.rockds.server.security.policy.PasswordPolicyService;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The request controls the server understands, and for which operations: the one place a new
 * control is declared. From this list come the critical-control check every request passes (RFC
 * 4511 section 4.1.11) and the root DSE's {@code supportedControl}. The operation that implements a
 * control reads it with {@link #find}.
 */
public final class SupportedControls {
  /** ManageDsaIT (RFC 3296): we hold no referral entries, so honouring it is a no-op. */
  public static final String MANAGE_DSA_IT = "2.16.840.1.113730.3.4.2";

  /** Proxied authorization v2 (RFC 4370). */
  public static final String PROXIED_AUTHORIZATION = "2.16.840.1.113730.3.4.18";

  /** Simple paged results (RFC 2696). */
  public static final String PAGED_RESULTS = "1.2.840.113556.1.4.319";

  /** Server-side sort (RFC 2891). */
  public static final String SERVER_SIDE_SORT = "1.2.840.113556.1.4.473";

  /** Virtual list view (draft-ietf-ldapext-ldapv3-vlv-09). */
  public static final String VIRTUAL_LIST_VIEW = "2.16.840.1.113730.3.4.9";

  /** Matched values (RFC 3876). */
  public static final String MATCHED_VALUES = "1.2.826.0.1.3344810.2.3";

  /**
   * Read after write, RockDS' own: a search or compare carrying it waits until the server applied
   * every write the replication group committed before it (Raft read index), so it sees them all
   * whichever server it reaches; no value. The OID is derived from a UUID (ITU-T X.667, arc 2.25),
   * which needs no registration.
   */
  public static final String READ_AFTER_WRITE = "2.25.28759973430515076363666229464208347148";

  /** Persistent search (draft-ietf-ldapext-psearch-03). */
  public static final String PERSISTENT_SEARCH = "2.16.840.1.113730.3.4.3";

  private static final byte SEARCH = LDAPMessage.PROTOCOL_OP_TYPE_SEARCH_REQUEST;
  private static final byte ADD = LDAPMessage.PROTOCOL_OP_TYPE_ADD_REQUEST;
  private static final byte DELETE = LDAPMessage.PROTOCOL_OP_TYPE_DELETE_REQUEST;
  private static final byte MODIFY = LDAPMessage.PROTOCOL_OP_TYPE_MODIFY_REQUEST;
  private static final byte MODIFY_DN = LDAPMessage.PROTOCOL_OP_TYPE_MODIFY_DN_REQUEST;
  private static final byte COMPARE = LDAPMessage.PROTOCOL_OP_TYPE_COMPARE_REQUEST;

  /**
   * A supported control.
   *
   * @param oid the control's OID
   * @param name what it is, for readers of this list
   * @param operations the request types ({@code LDAPMessage.PROTOCOL_OP_TYPE_*}) it applies to
   */
  public record Definition(String oid, String name, Set<Byte> operations) {}

  private static final Set<Byte> READS_AND_WRITES =
      Set.of(
          LDAPMessage.PROTOCOL_OP_TYPE_SEARCH_REQUEST,
          LDAPMessage.PROTOCOL_OP_TYPE_ADD_REQUEST,
          LDAPMessage.PROTOCOL_OP_TYPE_DELETE_REQUEST,
          LDAPMessage.PROTOCOL_OP_TYPE_MODIFY_REQUEST,
          LDAPMessage.PROTOCOL_OP_TYPE_MODIFY_DN_REQUEST,
          LDAPMessage.PROTOCOL_OP_TYPE_COMPARE_REQUEST);

  /**
   * Add a control here, with the operations it applies to; then implement it in those operations.
   */
  private static final List<Definition> DEFINITIONS =
      List.of(
          new Definition(MANAGE_DSA_IT, "ManageDsaIT (RFC 3296)", READS_AND_WRITES),
          new Definition(
              PROXIED_AUTHORIZATION, "Proxied authorization v2 (RFC 4370)", READS_AND_WRITES),
          new Definition(
              PasswordPolicyService.CONTROL_OID,
              "Password policy (draft-behera-ldap-password-policy)",
              Set.of(LDAPMessage.PROTOCOL_OP_TYPE_BIND_REQUEST)),
          new Definition(PAGED_RESULTS, "Simple paged results (RFC 2696)", Set.of(SEARCH)),
          new Definition(SERVER_SIDE_SORT, "Server-side sort (RFC 2891)", Set.of(SEARCH)),
          new Definition(
              VIRTUAL_LIST_VIEW,
              "Virtual list view (draft-ietf-ldapext-ldapv3-vlv-09)",
              Set.of(SEARCH)),
          new Definition(MATCHED_VALUES, "Matched values (RFC 3876)", Set.of(SEARCH)),
          new Definition(
              PERSISTENT_SEARCH, "Persistent search (draft-ietf-ldapext-psearch)", Set.of(SEARCH)),
          new Definition(READ_AFTER_WRITE, "Read after write (RockDS)", Set.of(SEARCH, COMPARE)),
          new Definition(
              WriteControls.ASSERTION,
              "Assertion (RFC 4528)",
              Set.of(ADD, DELETE, MODIFY, MODIFY_DN, COMPARE)),
          new Definition(
              WriteControls.PRE_READ, "Pre-read (RFC 4527)", Set.of(DELETE, MODIFY, MODIFY_DN)),
          new Definition(
              WriteControls.POST_READ, "Post-read (RFC 4527)", Set.of(ADD, MODIFY, MODIFY_DN)),
          new Definition(
              WriteControls.NO_OP,
              "No-op (draft-zeilenga-ldap-noop)",
              Set.of(ADD, DELETE, MODIFY, MODIFY_DN)),
          new Definition(WriteControls.PERMISSIVE_MODIFY, "Permissive modify", Set.of(MODIFY)),
          new Definition(WriteControls.SUBTREE_DELETE, "Subtree delete", Set.of(DELETE)));

  private SupportedControls() {}

  public static boolean isSupported(byte operationType, String oid) {
    for (Definition definition : DEFINITIONS) {
      if (definition.oid().equals(oid) && definition.operations().contains(operationType)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Refuses a request carrying a critical control that is not supported for its operation with
   * unavailableCriticalExtension (12); unsupported non-critical controls are ignored.
   */
  static void checkCritical(LDAPMessage request) throws LDAPException {
    for (Control control : request.getControls()) {
      if (control.isCritical() && !isSupported(request.getProtocolOpType(), control.getOID())) {
        throw new LDAPException(
            ResultCode.UNAVAILABLE_CRITICAL_EXTENSION,
            "The critical control " + control.getOID() + " is not supported for this operation");
      }
    }
  }

  /** The request's control with this OID, or null. */
  public static Control find(LDAPMessage request, String oid) {
    for (Control control : request.getControls()) {
      if (control.getOID().equals(oid)) {
        return control;
      }
    }
    return null;
  }

  /** Every supported control OID, sorted, for the root DSE. */
  public static Set<String> all() {
    Set<String> oids = new TreeSet<>();
    DEFINITIONS.forEach(definition -> oids.add(definition.oid()));
    return oids;
  }
}

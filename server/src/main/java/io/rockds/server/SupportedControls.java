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
 * control is declared. From this list come the critical-control check every request passes
 * (RFC 4511 section 4.1.11) and the root DSE's {@code supportedControl}. The operation that
 * implements a control reads it with {@link #find}.
 */
public final class SupportedControls {
  /** ManageDsaIT (RFC 3296): we hold no referral entries, so honouring it is a no-op. */
  public static final String MANAGE_DSA_IT = "2.16.840.1.113730.3.4.2";

  /** Proxied authorization v2 (RFC 4370). */
  public static final String PROXIED_AUTHORIZATION = "2.16.840.1.113730.3.4.18";

  /**
   * A supported control.
   *
   * @param oid the control's OID
   * @param name what it is, for readers of this list
   * @param operations the request types ({@code LDAPMessage.PROTOCOL_OP_TYPE_*}) it applies to
   */
  public record Definition(String oid, String name, Set<Byte> operations) {}

  private static final Set<Byte> READS_AND_WRITES = Set.of(
      LDAPMessage.PROTOCOL_OP_TYPE_SEARCH_REQUEST,
      LDAPMessage.PROTOCOL_OP_TYPE_ADD_REQUEST,
      LDAPMessage.PROTOCOL_OP_TYPE_DELETE_REQUEST,
      LDAPMessage.PROTOCOL_OP_TYPE_MODIFY_REQUEST,
      LDAPMessage.PROTOCOL_OP_TYPE_MODIFY_DN_REQUEST,
      LDAPMessage.PROTOCOL_OP_TYPE_COMPARE_REQUEST);

  /** Add a control here, with the operations it applies to; then implement it in those operations. */
  private static final List<Definition> DEFINITIONS = List.of(
      new Definition(MANAGE_DSA_IT, "ManageDsaIT (RFC 3296)", READS_AND_WRITES),
      new Definition(PROXIED_AUTHORIZATION, "Proxied authorization v2 (RFC 4370)", READS_AND_WRITES),
      new Definition(PasswordPolicyService.CONTROL_OID, "Password policy (draft-behera-ldap-password-policy)",
          Set.of(LDAPMessage.PROTOCOL_OP_TYPE_BIND_REQUEST)));

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
        throw new LDAPException(ResultCode.UNAVAILABLE_CRITICAL_EXTENSION,
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

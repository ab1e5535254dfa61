package io.rockds.server;

import com.unboundid.ldap.protocol.LDAPMessage;
import io.rockds.server.security.policy.PasswordPolicyService;
import java.util.Map;
import java.util.Set;

/**
 * The request controls each operation understands: the one place a new control is declared
 * (and advertised in the root DSE's supportedControl).
 */
public final class SupportedControls {
  /** ManageDsaIT (RFC 3296): we hold no referral entries, so honouring it is a no-op. */
  public static final String MANAGE_DSA_IT = "2.16.840.1.113730.3.4.2";
  /** Simple paged results (RFC 2696). */
  public static final String PAGED_RESULTS = "1.2.840.113556.1.4.319";
  /** Server-side sort (RFC 2891). */
  public static final String SERVER_SIDE_SORT = "1.2.840.113556.1.4.473";
  /** Matched values (RFC 3876). */
  public static final String MATCHED_VALUES = "1.2.826.0.1.3344810.2.3";

  /** Proxied authorization v2 (RFC 4370). */
  public static final String PROXIED_AUTHORIZATION = "2.16.840.1.113730.3.4.18";

  private static final Map<Byte, Set<String>> BY_OPERATION = Map.of(
      LDAPMessage.PROTOCOL_OP_TYPE_BIND_REQUEST, Set.of(PasswordPolicyService.CONTROL_OID),
      LDAPMessage.PROTOCOL_OP_TYPE_SEARCH_REQUEST, Set.of(MANAGE_DSA_IT, PROXIED_AUTHORIZATION, PAGED_RESULTS,
          SERVER_SIDE_SORT, MATCHED_VALUES),
      LDAPMessage.PROTOCOL_OP_TYPE_ADD_REQUEST, Set.of(MANAGE_DSA_IT, PROXIED_AUTHORIZATION, WriteControls.ASSERTION,
          WriteControls.POST_READ, WriteControls.NO_OP),
      LDAPMessage.PROTOCOL_OP_TYPE_DELETE_REQUEST, Set.of(MANAGE_DSA_IT, PROXIED_AUTHORIZATION, WriteControls.ASSERTION,
          WriteControls.PRE_READ, WriteControls.NO_OP, WriteControls.SUBTREE_DELETE),
      LDAPMessage.PROTOCOL_OP_TYPE_MODIFY_REQUEST, Set.of(MANAGE_DSA_IT, PROXIED_AUTHORIZATION, WriteControls.ASSERTION,
          WriteControls.PRE_READ, WriteControls.POST_READ, WriteControls.NO_OP, WriteControls.PERMISSIVE_MODIFY),
      LDAPMessage.PROTOCOL_OP_TYPE_MODIFY_DN_REQUEST, Set.of(MANAGE_DSA_IT, PROXIED_AUTHORIZATION,
          WriteControls.ASSERTION, WriteControls.PRE_READ, WriteControls.POST_READ, WriteControls.NO_OP),
      LDAPMessage.PROTOCOL_OP_TYPE_COMPARE_REQUEST, Set.of(MANAGE_DSA_IT, PROXIED_AUTHORIZATION,
          WriteControls.ASSERTION));

  private SupportedControls() {}

  public static boolean isSupported(byte operationType, String oid) {
    return BY_OPERATION.getOrDefault(operationType, Set.of()).contains(oid);
  }

  /** Every supported control OID, for the root DSE. */
  public static Set<String> all() {
    return BY_OPERATION.values().stream().flatMap(Set::stream).collect(java.util.stream.Collectors.toSet());
  }
}

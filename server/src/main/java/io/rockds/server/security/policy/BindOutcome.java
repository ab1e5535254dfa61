package io.rockds.server.security.policy;

import com.unboundid.ldap.sdk.Control;
import io.rockds.server.Identity;
import java.util.List;

/**
 * A successful bind: who the client now is, and the response controls to send (the password policy
 * control when the client asked for it).
 */
public record BindOutcome(Identity identity, List<Control> responseControls) {
  public BindOutcome {
    responseControls = List.copyOf(responseControls);
  }
}

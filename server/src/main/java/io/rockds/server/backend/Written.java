package io.rockds.server.backend;

import com.unboundid.ldap.sdk.Control;
import java.util.List;

/**
 * What an update answers besides success.
 *
 * @param notice the diagnostic message for the operator (restart, rebuild) or null
 * @param controls response controls (pre- and post-read)
 */
public record Written(String notice, List<Control> controls) {
  public static final Written DONE = new Written(null, List.of());

  public static Written notice(String notice) {
    return new Written(notice, List.of());
  }
}

package io.rockds.server.sasl;

import io.rockds.server.ServerContext;
import io.rockds.server.UserEntries;
import io.rockds.server.security.policy.AuthenticationGate;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The SASL mechanisms the server offers: the one place a mechanism is added. */
public final class SaslMechanisms {
  private final Map<String, SaslMechanism> byName = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);

  public SaslMechanisms(ServerContext context) {
    AuthenticationGate gate = context.passwordPolicy().authentication();
    for (SaslMechanism mechanism :
        List.of(new PlainMechanism(gate, new UserEntries(context)), new ExternalMechanism(gate))) {
      byName.put(mechanism.name(), mechanism);
    }
  }

  /** The mechanism with this name, or null. */
  public SaslMechanism get(String name) {
    return byName.get(name);
  }

  /** Names for the root DSE's supportedSASLMechanisms. */
  public List<String> names() {
    return List.copyOf(byName.keySet());
  }
}

package io.rockds.server.sasl;

import io.rockds.server.ServerContext;
import io.rockds.server.UserEntries;
import io.rockds.server.security.policy.AuthenticationGate;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The SASL mechanisms the server offers: the one place a mechanism is added. Only those whose
 * handler is enabled ({@code cn=<NAME>,cn=SASL Mechanisms,cn=config}) are offered, asked at each
 * bind (the handlers change live).
 */
public final class SaslMechanisms {
  private final Map<String, SaslMechanism> byName = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
  private final ServerContext context;

  public SaslMechanisms(ServerContext context) {
    this.context = context;
    AuthenticationGate gate = context.passwordPolicy().authentication();
    for (SaslMechanism mechanism :
        List.of(new PlainMechanism(gate, new UserEntries(context)), new ExternalMechanism(gate))) {
      byName.put(mechanism.name(), mechanism);
    }
  }

  /** The mechanism with this name if it is enabled, else null. */
  public SaslMechanism get(String name) {
    return enabled(name) ? byName.get(name) : null;
  }

  /** Names of the enabled mechanisms, for the root DSE's supportedSASLMechanisms. */
  public List<String> names() {
    return byName.keySet().stream().filter(this::enabled).toList();
  }

  private boolean enabled(String name) {
    return context.configuration().current().saslMechanisms().stream()
        .anyMatch(name::equalsIgnoreCase);
  }
}

package io.rockds.server.reliability;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What one writer knows about its own entries: the state every acknowledged operation left, and the
 * at most one operation that was sent but never acknowledged (the server died under it). Each
 * writer owns its entries, so its model is exact whatever the other writers do.
 */
final class AcknowledgedWrites {
  /** An entry's checked attributes, names lower-cased; null in a map means "absent". */
  record Snapshot(Map<String, Set<String>> attributes) {
    static Snapshot of(Entry entry, List<String> names) {
      Map<String, Set<String>> attributes = new TreeMap<>();
      for (String name : names) {
        Attribute a = entry.getAttribute(name);
        if (a != null) {
          attributes.put(name.toLowerCase(Locale.ROOT), new TreeSet<>(List.of(a.getValues())));
        }
      }
      return new Snapshot(attributes);
    }
  }

  private final Map<String, Snapshot> acknowledged = new HashMap<>();
  private Map<String, Snapshot> inFlight;
  private long acknowledgedCount;

  static String key(String dn) {
    return dn.toLowerCase(Locale.ROOT);
  }

  /**
   * Records an operation about to be sent: for each DN it touches, the state it leaves (null =
   * absent).
   */
  synchronized void sending(Map<String, Snapshot> after) {
    inFlight = new HashMap<>(after);
  }

  /** The server acknowledged the operation last {@link #sending sent}. */
  synchronized void acknowledged() {
    acknowledged.putAll(inFlight);
    acknowledged.values().removeIf(Objects::isNull);
    inFlight = null;
    acknowledgedCount++;
  }

  synchronized Snapshot stateOf(String dn) {
    return acknowledged.get(key(dn));
  }

  synchronized List<String> dns() {
    return new ArrayList<>(acknowledged.keySet());
  }

  synchronized long acknowledgedCount() {
    return acknowledgedCount;
  }

  /**
   * Compares {@code actual} (DN key → state found on the server, for every DN this writer ever
   * touched) with the model: every acknowledged state must be there, and the unacknowledged
   * operation must be wholly applied or wholly absent. Returns the problems found.
   */
  synchronized List<String> check(Map<String, Snapshot> actual) {
    List<String> problems = new ArrayList<>();
    Map<String, Snapshot> before = new HashMap<>();
    for (String dn : touched()) {
      before.put(dn, acknowledged.get(dn));
    }
    Map<String, Snapshot> after = new HashMap<>(before);
    if (inFlight != null) {
      after.putAll(inFlight);
    }
    Map<String, Snapshot> found = new HashMap<>();
    for (String dn : touched()) {
      found.put(dn, actual.get(dn));
    }
    if (!found.equals(before) && !found.equals(after)) {
      for (String dn : touched()) {
        Snapshot f = found.get(dn);
        if (!Objects.equals(f, before.get(dn)) && !Objects.equals(f, after.get(dn))) {
          problems.add(
              dn
                  + ": found "
                  + f
                  + ", acknowledged "
                  + before.get(dn)
                  + (inFlight != null && inFlight.containsKey(dn)
                      ? ", in flight " + after.get(dn)
                      : ""));
        }
      }
      if (problems.isEmpty()) {
        problems.add("the unacknowledged operation " + inFlight + " is half applied: " + found);
      }
    }
    return problems;
  }

  /** After a check passed: adopt what the server holds, so the next cycle starts from it. */
  synchronized void settle(Map<String, Snapshot> actual) {
    for (String dn : touched()) {
      Snapshot state = actual.get(dn);
      if (state == null) {
        acknowledged.remove(dn);
      } else {
        acknowledged.put(dn, state);
      }
    }
    inFlight = null;
  }

  /**
   * Every DN whose state the model predicts: acknowledged entries and those of the operation in
   * flight.
   */
  synchronized Set<String> touched() {
    Set<String> dns = new TreeSet<>(acknowledged.keySet());
    if (inFlight != null) {
      dns.addAll(inFlight.keySet());
    }
    return dns;
  }
}

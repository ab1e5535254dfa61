package io.rockds.storage;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How the raw values of one attribute (all its options together: index keys depend only on the
 * values) differ between two versions of an entry: computed once per attribute and write, in one
 * hash pass, and shared by the attribute's indexes.
 */
record ValueChange(List<byte[]> removed, List<byte[]> added, List<byte[]> kept) {
  private static final ValueChange NONE = new ValueChange(List.of(), List.of(), List.of());

  boolean isNone() {
    return removed.isEmpty() && added.isEmpty();
  }

  boolean wasEmpty() {
    return removed.isEmpty() && kept.isEmpty();
  }

  boolean isEmpty() {
    return added.isEmpty() && kept.isEmpty();
  }

  /** The value changes of every attribute between two versions of one entry, computed on demand. */
  static final class Diff {
    private final Entry before;
    private final Entry after;
    private final Map<String, ValueChange> byAttribute = new HashMap<>();
    private Map<String, List<Attribute>> beforeByName;
    private Map<String, List<Attribute>> afterByName;

    Diff(Entry before, Entry after) {
      this.before = before;
      this.after = after;
    }

    ValueChange of(String attribute) {
      if (beforeByName == null) {
        beforeByName = byBaseName(before);
        afterByName = byBaseName(after);
      }
      String name = attribute.toLowerCase(Locale.ROOT);
      return byAttribute.computeIfAbsent(
          name,
          a ->
              compute(
                  beforeByName.getOrDefault(a, List.of()), afterByName.getOrDefault(a, List.of())));
    }

    /**
     * An entry's attributes by lower-case base name (all options of one together): one pass, where
     * asking the entry per indexed attribute would compare every name with every index's.
     */
    private static Map<String, List<Attribute>> byBaseName(Entry entry) {
      Map<String, List<Attribute>> byName = new HashMap<>();
      for (Attribute attribute : entry.getAttributes()) {
        byName
            .computeIfAbsent(
                attribute.getBaseName().toLowerCase(Locale.ROOT), n -> new ArrayList<>(1))
            .add(attribute);
      }
      return byName;
    }
  }

  private static ValueChange compute(List<Attribute> was, List<Attribute> is) {
    if (sameInstances(was, is)) {
      return NONE;
    }
    if (was.size() == 1 && is.size() == 1) {
      ValueChange aligned = aligned(was.get(0).getRawValues(), is.get(0).getRawValues());
      if (aligned != null) {
        return aligned;
      }
    }
    Map<ByteBuffer, byte[]> remaining = new HashMap<>();
    for (Attribute a : was) {
      for (ASN1OctetString value : a.getRawValues()) {
        byte[] bytes = value.getValue();
        remaining.put(ByteBuffer.wrap(bytes), bytes);
      }
    }
    List<byte[]> added = new ArrayList<>();
    List<byte[]> kept = new ArrayList<>();
    for (Attribute a : is) {
      for (ASN1OctetString value : a.getRawValues()) {
        byte[] bytes = value.getValue();
        if (remaining.remove(ByteBuffer.wrap(bytes)) != null) {
          kept.add(bytes);
        } else {
          added.add(bytes);
        }
      }
    }
    return new ValueChange(new ArrayList<>(remaining.values()), added, kept);
  }

  /**
   * The change of a value list that kept its order and differs by at most one removed run and one
   * appended tail, as a modify leaves it (values are appended, removals keep the others' order),
   * found by one walk without hashing; null for any other shape.
   */
  private static ValueChange aligned(ASN1OctetString[] was, ASN1OctetString[] is) {
    int i = 0;
    List<byte[]> kept = new ArrayList<>(Math.min(was.length, is.length));
    List<byte[]> removed = new ArrayList<>();
    int j = 0;
    while (i < was.length && j < is.length) {
      if (same(was[i], is[j])) {
        kept.add(is[j].getValue());
        i++;
        j++;
      } else if (i + 1 < was.length && same(was[i + 1], is[j]) && removed.size() < 8) {
        removed.add(was[i++].getValue());
      } else {
        break;
      }
    }
    if (i < was.length && j < is.length) {
      return null;
    }
    while (i < was.length) {
      removed.add(was[i++].getValue());
    }
    List<byte[]> added = new ArrayList<>(is.length - j);
    while (j < is.length) {
      added.add(is[j++].getValue());
    }
    if (!distinct(removed, added)) {
      return null;
    }
    return new ValueChange(removed, added, kept);
  }

  private static boolean same(ASN1OctetString a, ASN1OctetString b) {
    return a == b || Arrays.equals(a.getValue(), b.getValue());
  }

  /** A value both removed and appended (moved to the end) is kept: leave such shapes to hashing. */
  private static boolean distinct(List<byte[]> removed, List<byte[]> added) {
    for (byte[] r : removed) {
      for (byte[] a : added) {
        if (Arrays.equals(r, a)) {
          return false;
        }
      }
    }
    return true;
  }

  /** Attributes are immutable: a write that did not touch this one kept the same instances. */
  private static boolean sameInstances(List<Attribute> a, List<Attribute> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      if (a.get(i) != b.get(i)) {
        return false;
      }
    }
    return true;
  }
}

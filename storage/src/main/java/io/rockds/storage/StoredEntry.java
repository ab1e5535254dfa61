package io.rockds.storage;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import java.util.List;

/**
 * An entry as decoded from {@code id2entry}, with two facts the codec learns for free while
 * decoding: whether any attribute description carries options ({@code cn;lang-fr}), so readers may
 * find an attribute by name lookups instead of walking every attribute, and an estimate of its heap
 * footprint for the entry cache's weigher (rendering LDIF to weigh it cost as much as decoding it).
 * Only storage makes them; a {@link PartialEntry} holds some of the attributes only.
 */
public class StoredEntry extends Entry {
  /** Heap of one attribute and one value (map node, Attribute, ASN1OctetString, array headers). */
  private static final int PER_ATTRIBUTE_BYTES = 160;

  private static final int PER_VALUE_BYTES = 64;

  private final boolean withOptions;
  private final int footprint;

  StoredEntry(
      String dn, List<Attribute> attributes, boolean withOptions, int encodedBytes, int values) {
    super(dn, attributes);
    this.withOptions = withOptions;
    this.footprint =
        2 * dn.length()
            + encodedBytes
            + attributes.size() * PER_ATTRIBUTE_BYTES
            + values * PER_VALUE_BYTES;
  }

  /** True if some attribute description of this entry has options: name lookups would miss it. */
  public boolean hasAttributeOptions() {
    return withOptions;
  }

  /** Estimated bytes of heap this decoded entry holds. */
  public int footprint() {
    return footprint;
  }
}

package io.rockds.storage;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.rocksdb.RocksDBException;

/**
 * An entry as decoded from {@code id2entry}, with two facts the codec learns for free while
 * decoding: whether any attribute description carries options ({@code cn;lang-fr}), so readers may
 * find an attribute by name lookups instead of walking every attribute, and an estimate of its heap
 * footprint for the entry cache's weigher (rendering LDIF to weigh it cost as much as decoding it).
 * Only storage makes them; a {@link PartialEntry} holds some of the attributes only.
 *
 * <p>The values of the attributes stored apart ({@link Id2Values}: member, uniqueMember, photos and
 * certificates) may be left out: the entry cache holds entries without them, so that a group of
 * 100,000 members weighs what its other attributes weigh, and a user what it weighs without its
 * photo. Such an entry says which it lacks ({@link #lacksValues}); a filter or compare tests them
 * by point reads ({@link #holdsValueApart}), anything else reads them ({@link #valuesApart}). Whole
 * entries (what {@link EntryContainer#get} returns) lack none.
 */
public class StoredEntry extends Entry {
  /** Heap of one attribute and one value (map node, Attribute, ASN1OctetString, array headers). */
  private static final int PER_ATTRIBUTE_BYTES = 160;

  private static final int PER_VALUE_BYTES = 64;

  /**
   * An attribute description whose values the record leaves to {@link Id2Values}, with the keys of
   * those values in key order when the record lists them (a photo's or a certificate's digest: a
   * reader fetches each by a point read) or null (a group's members, unbounded, or a record written
   * before keys were listed: a reader reads the key range).
   */
  record Apart(int descriptionId, String description, byte[][] keys) {}

  private final boolean withOptions;
  private final int footprint;
  private final long id;
  private final List<Apart> apart;
  private final List<Apart> lacking;
  private final Id2Values values;

  StoredEntry(
      String dn,
      List<Attribute> attributes,
      boolean withOptions,
      int encodedBytes,
      int valueCount,
      Stored stored) {
    super(dn, attributes);
    this.withOptions = withOptions;
    this.footprint = footprint(dn.length(), encodedBytes, attributes.size(), valueCount);
    this.id = stored.id;
    this.apart = stored.apart;
    this.lacking = stored.lacking;
    this.values = stored.values;
  }

  /**
   * Where an entry's values apart are: its ID, the descriptions its record lists as apart, those
   * whose values the decoded entry lacks, and the tree holding them.
   */
  record Stored(long id, List<Apart> apart, List<Apart> lacking, Id2Values values) {
    static final Stored NONE = new Stored(-1, List.of(), List.of(), null);

    Stored lacking(List<Apart> stillLacking) {
      return new Stored(id, apart, stillLacking, values);
    }
  }

  /** The estimate of {@link #footprint}, from the DN's length in characters and the counts. */
  static int footprint(int dnChars, int encodedBytes, int attributes, int values) {
    return 2 * dnChars + encodedBytes + attributes * PER_ATTRIBUTE_BYTES + values * PER_VALUE_BYTES;
  }

  /** True if some attribute description of this entry has options: name lookups would miss it. */
  public boolean hasAttributeOptions() {
    return withOptions;
  }

  /** Estimated bytes of heap this decoded entry holds. */
  public int footprint() {
    return footprint;
  }

  Stored stored() {
    return new Stored(id, apart, lacking, values);
  }

  /** The descriptions the record stores apart, whether held here or not. */
  List<Apart> apart() {
    return apart;
  }

  /** The descriptions stored apart whose values this object does not hold. */
  List<Apart> lacking() {
    return lacking;
  }

  /** True when the values of some attribute stored apart are not held here. */
  public boolean lacksValues() {
    return !lacking.isEmpty();
  }

  /**
   * Whether an attribute whose values this object lacks, with a description {@code covered}
   * accepts, holds a value equal to {@code value} under its equality rule: one point read per such
   * attribute, however many values it has.
   */
  public boolean holdsValueApart(Predicate<String> covered, ASN1OctetString value) {
    try {
      for (Apart a : lacking) {
        byte[] asserted = value.getValue();
        if (covered.test(a.description())
            && values.find(
                    id,
                    a.descriptionId(),
                    a.description(),
                    asserted,
                    values.valueKey(a.description(), asserted))
                != null) {
          return true;
        }
      }
      return false;
    } catch (RocksDBException e) {
      throw new IllegalStateException("cannot read the values of entry " + id + ": " + e, e);
    }
  }

  /**
   * Whether every attribute whose values this object lacks is of a binary type ({@link
   * Id2Values#isBinary}: a photo, a few certificates), never the members of a group: reading them
   * is bounded.
   */
  public boolean lacksOnlyBoundedValues() {
    for (Apart a : lacking) {
      if (!Id2Values.isBinary(a.description())) {
        return false;
      }
    }
    return true;
  }

  /** Whether this object lacks the values of an attribute {@code covered} accepts (never empty). */
  public boolean lacksValuesOf(Predicate<String> covered) {
    for (Apart a : lacking) {
      if (covered.test(a.description())) {
        return true;
      }
    }
    return false;
  }

  /**
   * This entry with the values apart it lacks read now (itself if it lacks none): for readers of
   * attribute values that were handed an entry meant for tests, such as access control reading
   * {@code userattr} values.
   */
  public Entry withValuesApart() {
    if (!lacksValues()) {
      return this;
    }
    List<Attribute> attributes = new ArrayList<>(getAttributes());
    attributes.addAll(valuesApart(description -> true));
    return new Entry(getDN(), attributes);
  }

  /** The attributes this object lacks that {@code covered} accepts, read now. */
  public List<Attribute> valuesApart(Predicate<String> covered) {
    List<Attribute> read = new ArrayList<>(1);
    for (Apart a : lacking) {
      ASN1OctetString[] all = covered.test(a.description()) ? values.values(id, a, null) : null;
      if (all != null && all.length > 0) {
        read.add(new Attribute(a.description(), all));
      }
    }
    return read;
  }
}

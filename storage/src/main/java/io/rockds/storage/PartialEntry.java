package io.rockds.storage;

import com.unboundid.ldap.sdk.Attribute;
import java.util.List;

/**
 * An entry decoded with only the attributes an {@link AttributeProjection} keeps (what a scan tests
 * its filter on), keeping the record it was read from so that, when it matches, the rest is decoded
 * from that record ({@link EntryContainer#complete}) rather than read and decoded again. Never
 * cached, sent or modified.
 */
final class PartialEntry extends StoredEntry {
  private final byte[] record;
  private final List<Attribute> decoded;
  private final AttributeProjection projection;

  /**
   * @param decoded the attributes decoded from the record, in its order
   * @param attributes those and the attributes stored apart read for the projection
   */
  PartialEntry(
      String dn,
      List<Attribute> decoded,
      List<Attribute> attributes,
      boolean withOptions,
      byte[] record,
      AttributeProjection projection,
      Stored stored) {
    super(dn, attributes, withOptions, record.length, 0, stored);
    this.record = record;
    this.decoded = decoded;
    this.projection = projection;
  }

  /** The id2entry record it was decoded from (its values are slices of it). */
  byte[] record() {
    return record;
  }

  /** The attributes decoded from the record, in the record's order. */
  List<Attribute> decoded() {
    return decoded;
  }

  AttributeProjection projection() {
    return projection;
  }
}

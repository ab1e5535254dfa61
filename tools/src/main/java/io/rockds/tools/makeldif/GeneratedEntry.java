package io.rockds.tools.makeldif;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * One entry made from a template: its DN and attributes, in template order. Written to LDIF by
 * {@link LdifWriter} without materialising multi-valued {@code <partition>} lines, or turned into
 * an UnboundID {@link Entry} (which does hold every value) by {@link #toEntry()}.
 */
public final class GeneratedEntry {
  private final String dn;
  private final List<GeneratedAttribute> attributes;

  GeneratedEntry(String dn, List<GeneratedAttribute> attributes) {
    this.dn = dn;
    this.attributes = attributes;
  }

  public String dn() {
    return dn;
  }

  List<GeneratedAttribute> attributes() {
    return attributes;
  }

  /** This entry as an UnboundID entry; {@code attr::} values become their decoded bytes. */
  public Entry toEntry() {
    List<Attribute> converted = new ArrayList<>(attributes.size());
    for (GeneratedAttribute attribute : attributes) {
      if (attribute.base64()) {
        List<byte[]> values = new ArrayList<>();
        attribute.forEachValue(value -> values.add(Base64.getDecoder().decode(value)));
        converted.add(new Attribute(attribute.name(), values.toArray(byte[][]::new)));
      } else {
        List<String> values = new ArrayList<>();
        attribute.forEachValue(values::add);
        converted.add(new Attribute(attribute.name(), values));
      }
    }
    return new Entry(dn, converted);
  }
}

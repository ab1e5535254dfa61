package io.rockds.tools.makeldif;

import java.util.Locale;

/**
 * {@code <ifpresent:attr[:value]>} and {@code <ifabsent:attr[:value]>}: keep the line only when the
 * entry already has (or has not) the attribute, or that value of it.
 */
record ConditionTag(String attributeKey, String requiredValue, boolean whenPresent) implements Tag {
  static ConditionTag parse(TagArguments args, boolean whenPresent) {
    args.expectCount(1, 2, "<ifpresent|ifabsent:attribute[:value]>");
    String attribute = args.get(0).trim();
    if (!TemplateLine.isAttributeName(attribute)) {
      throw args.error("'" + attribute + "' is not an attribute name");
    }
    return new ConditionTag(
        attribute.toLowerCase(Locale.ROOT), args.size() == 2 ? args.get(1) : null, whenPresent);
  }

  @Override
  public boolean append(EntryContext entry, StringBuilder value) {
    boolean present =
        requiredValue == null
            ? entry.firstValue(attributeKey) != null
            : entry.hasValue(attributeKey, requiredValue);
    return present == whenPresent;
  }
}

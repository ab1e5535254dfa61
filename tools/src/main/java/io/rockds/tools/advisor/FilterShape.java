package io.rockds.tools.advisor;

import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.schema.AttributeTypeDefinition;
import com.unboundid.ldap.sdk.schema.Schema;

/**
 * A filter with its assertion values replaced by {@code ?}: {@code (&(objectClass=?)(sn=?))}. All
 * searches of one shape need the same indexes, so the advisor counts them together.
 */
final class FilterShape {
  private static final Schema SCHEMA = standardSchema();

  private FilterShape() {}

  private static Schema standardSchema() {
    try {
      return Schema.getDefaultStandardSchema();
    } catch (com.unboundid.ldap.sdk.LDAPException e) {
      throw new IllegalStateException("the UnboundID SDK's standard schema does not load", e);
    }
  }

  static String of(Filter filter) {
    StringBuilder sb = new StringBuilder();
    append(filter, sb);
    return sb.toString();
  }

  /** The schema's name for an attribute ({@code SN} is {@code sn}), so aliases count together. */
  static String canonical(String attribute) {
    AttributeTypeDefinition type = SCHEMA.getAttributeType(attribute);
    return type == null ? attribute : type.getNameOrOID();
  }

  private static void append(Filter f, StringBuilder sb) {
    switch (f.getFilterType()) {
      case Filter.FILTER_TYPE_AND, Filter.FILTER_TYPE_OR -> {
        sb.append('(').append(f.getFilterType() == Filter.FILTER_TYPE_AND ? '&' : '|');
        for (Filter c : f.getComponents()) {
          append(c, sb);
        }
        sb.append(')');
      }
      case Filter.FILTER_TYPE_NOT -> {
        sb.append("(!");
        append(f.getNOTComponent(), sb);
        sb.append(')');
      }
      case Filter.FILTER_TYPE_PRESENCE ->
          sb.append('(').append(canonical(f.getAttributeName())).append("=*)");
      case Filter.FILTER_TYPE_SUBSTRING ->
          sb.append('(')
              .append(canonical(f.getAttributeName()))
              .append('=')
              .append(f.getSubInitialString() != null ? "?" : "")
              .append('*')
              .append("?*".repeat(f.getSubAnyStrings().length))
              .append(f.getSubFinalString() != null ? "?" : "")
              .append(')');
      case Filter.FILTER_TYPE_GREATER_OR_EQUAL ->
          sb.append('(').append(canonical(f.getAttributeName())).append(">=?)");
      case Filter.FILTER_TYPE_LESS_OR_EQUAL ->
          sb.append('(').append(canonical(f.getAttributeName())).append("<=?)");
      case Filter.FILTER_TYPE_APPROXIMATE_MATCH ->
          sb.append('(').append(canonical(f.getAttributeName())).append("~=?)");
      case Filter.FILTER_TYPE_EXTENSIBLE_MATCH -> sb.append("(:?:=?)");
      default -> sb.append('(').append(canonical(f.getAttributeName())).append("=?)");
    }
  }
}

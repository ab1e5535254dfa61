package io.rockds.server.schema;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.schema.AttributeTypeDefinition;
import com.unboundid.ldap.sdk.schema.MatchingRuleDefinition;
import com.unboundid.ldap.sdk.schema.MatchingRuleUseDefinition;
import com.unboundid.ldap.sdk.schema.Schema;
import com.unboundid.ldap.sdk.schema.SchemaElement;
import com.unboundid.util.StaticUtils;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The subschema entry (RFC 4512 section 4.2) clients read to validate against: every definition of
 * the schema, plus matchingRuleUse, which the SDK does not compute and schema-aware clients (Apache
 * Directory Studio) want: for each matching rule, the attribute types whose EQUALITY, ORDERING or
 * SUBSTR it is.
 */
public final class SubschemaEntry {
  /** The DN of the subschema entry, the root DSE's subschemaSubentry. */
  public static final String DN_STRING = "cn=schema";

  public static final DN DN = dn();

  private SubschemaEntry() {}

  private static DN dn() {
    try {
      return new DN(DN_STRING);
    } catch (com.unboundid.ldap.sdk.LDAPException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The entry for {@code schema}, stamped with the times the schema was loaded and last changed.
   */
  static Entry build(Schema schema, Date created, Date modified) {
    Entry entry = new Entry(DN_STRING);
    entry.addAttribute("objectClass", "top", "subentry", "subschema");
    entry.addAttribute("cn", "schema");
    entry.addAttribute(attribute(Schema.ATTR_ATTRIBUTE_SYNTAX, schema.getAttributeSyntaxes()));
    entry.addAttribute(attribute(Schema.ATTR_MATCHING_RULE, schema.getMatchingRules()));
    entry.addAttribute(attribute(Schema.ATTR_MATCHING_RULE_USE, matchingRuleUses(schema)));
    entry.addAttribute(attribute(Schema.ATTR_ATTRIBUTE_TYPE, schema.getAttributeTypes()));
    entry.addAttribute(attribute(Schema.ATTR_OBJECT_CLASS, schema.getObjectClasses()));
    if (!schema.getNameForms().isEmpty()) {
      entry.addAttribute(attribute(Schema.ATTR_NAME_FORM, schema.getNameForms()));
    }
    if (!schema.getDITContentRules().isEmpty()) {
      entry.addAttribute(attribute(Schema.ATTR_DIT_CONTENT_RULE, schema.getDITContentRules()));
    }
    if (!schema.getDITStructureRules().isEmpty()) {
      entry.addAttribute(attribute(Schema.ATTR_DIT_STRUCTURE_RULE, schema.getDITStructureRules()));
    }
    entry.addAttribute("structuralObjectClass", "subentry");
    entry.addAttribute("createTimestamp", StaticUtils.encodeGeneralizedTime(created));
    entry.addAttribute("modifyTimestamp", StaticUtils.encodeGeneralizedTime(modified));
    entry.addAttribute("entryDN", DN_STRING);
    entry.addAttribute("subschemaSubentry", DN_STRING);
    return entry;
  }

  private static Attribute attribute(String name, Collection<? extends SchemaElement> elements) {
    List<String> values = new ArrayList<>(elements.size());
    for (SchemaElement e : elements) {
      values.add(e.toString());
    }
    return new Attribute(name, values);
  }

  private static List<MatchingRuleUseDefinition> matchingRuleUses(Schema schema) {
    Map<String, List<String>> appliesTo = new LinkedHashMap<>();
    for (AttributeTypeDefinition type : schema.getAttributeTypes()) {
      for (String rule :
          new String[] {
            type.getEqualityMatchingRule(schema),
            type.getOrderingMatchingRule(schema),
            type.getSubstringMatchingRule(schema)
          }) {
        MatchingRuleDefinition mr = rule == null ? null : schema.getMatchingRule(rule);
        if (mr != null) {
          appliesTo.computeIfAbsent(mr.getOID(), k -> new ArrayList<>()).add(type.getNameOrOID());
        }
      }
    }
    List<MatchingRuleUseDefinition> uses = new ArrayList<>();
    for (MatchingRuleDefinition mr : schema.getMatchingRules()) {
      List<String> types = appliesTo.get(mr.getOID());
      if (types != null) {
        uses.add(
            new MatchingRuleUseDefinition(
                mr.getOID(), mr.getNames(), null, false, types.toArray(String[]::new), null));
      }
    }
    return uses;
  }
}

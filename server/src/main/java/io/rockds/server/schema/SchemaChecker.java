package io.rockds.server.schema;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.matchingrules.MatchingRule;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.RDN;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.schema.AttributeTypeDefinition;
import com.unboundid.ldap.sdk.schema.EntryValidator;
import com.unboundid.ldap.sdk.schema.ObjectClassDefinition;
import com.unboundid.ldap.sdk.schema.ObjectClassType;
import com.unboundid.ldap.sdk.schema.Schema;
import io.rockds.storage.matching.MatchingRules;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checks an entry against the schema the way OpenLDAP's {@code entry_schema_check} does, with its
 * result codes and, where practical, its messages: undefined object class → invalidAttributeSyntax
 * (21); no or several unrelated structural classes, a missing MUST or an attribute no class allows
 * → objectClassViolation (65); undefined attribute → undefinedAttributeType (17); a second value of
 * a single-valued attribute → constraintViolation (19); a value its syntax rejects →
 * invalidAttributeSyntax (21); an RDN value missing from the entry → namingViolation (64).
 */
public final class SchemaChecker {
  /** RFC 4517 syntaxes whose values have at least one character. */
  private static final Set<String> NON_EMPTY_SYNTAXES =
      Set.of(
          "1.3.6.1.4.1.1466.115.121.1.15", // Directory String
          "1.3.6.1.4.1.1466.115.121.1.44", // Printable String
          "1.3.6.1.4.1.1466.115.121.1.36", // Numeric String
          "1.3.6.1.4.1.1466.115.121.1.50", // Telephone Number
          "1.3.6.1.4.1.1466.115.121.1.41", // Postal Address
          "1.3.6.1.4.1.1466.115.121.1.11", // Country String
          "1.3.6.1.4.1.1466.115.121.1.27", // INTEGER
          "1.3.6.1.4.1.1466.115.121.1.7", // Boolean
          "1.3.6.1.4.1.1466.115.121.1.24", // Generalized Time
          "1.3.6.1.4.1.1466.115.121.1.38"); // OID

  /** At most this many object class sets are remembered (a directory uses a handful). */
  private static final int MAX_CLASS_SETS = 1024;

  private final Schema schema;
  private final EntryValidator syntax;
  private final Map<String, ClassRules> rulesByClasses = new ConcurrentHashMap<>();

  public SchemaChecker(Schema schema) {
    this.schema = schema;
    // The SDK's validator only for what it does well and we do not: value syntaxes.
    this.syntax = new EntryValidator(schema);
    syntax.setCheckAttributeSyntax(true);
    syntax.setCheckEntryMissingRDNValues(false);
    syntax.setCheckMalformedDNs(false);
    syntax.setCheckMissingAttributes(false);
    syntax.setCheckMissingSuperiorObjectClasses(false);
    syntax.setCheckNameForms(false);
    syntax.setCheckProhibitedAttributes(false);
    syntax.setCheckProhibitedObjectClasses(false);
    syntax.setCheckSingleValuedAttributes(false);
    syntax.setCheckStructuralObjectClasses(false);
    syntax.setCheckUndefinedAttributes(false);
    syntax.setCheckUndefinedObjectClasses(false);
  }

  /** Checks {@code entry}, every value's syntax included; returns its structural object class. */
  public ObjectClassDefinition check(Entry entry) throws LDAPException {
    return check(entry, entry);
  }

  /**
   * Checks {@code entry} after a change, checking the syntax of {@code newValues} only: the values
   * already stored were checked when written, and re-checking 100,000 member DNs to add one would
   * cost a second.
   */
  public ObjectClassDefinition check(Entry entry, Entry newValues) throws LDAPException {
    ClassRules rules = rulesOf(entry);
    Set<String> present = new HashSet<>();
    for (Attribute attribute : entry.getAttributes()) {
      AttributeTypeDefinition t = schema.getAttributeType(attribute.getBaseName());
      for (; t != null; t = t.getSuperiorType(schema)) {
        present.add(t.getOID());
      }
    }
    for (Required must : rules.required()) {
      if (!present.contains(must.type().getOID())) {
        throw new LDAPException(
            ResultCode.OBJECT_CLASS_VIOLATION,
            "object class '"
                + must.objectClass().getNameOrOID()
                + "' requires attribute '"
                + must.type().getNameOrOID()
                + "'");
      }
    }
    for (Attribute attribute : entry.getAttributes()) {
      AttributeTypeDefinition type = type(attribute.getBaseName());
      if (!rules.extensible() && !type.isOperational() && !isAllowed(type, rules.allowed())) {
        throw new LDAPException(
            ResultCode.OBJECT_CLASS_VIOLATION,
            "attribute '" + attribute.getBaseName() + "' not allowed");
      }
      if (type.isSingleValued() && attribute.size() > 1) {
        throw new LDAPException(
            ResultCode.CONSTRAINT_VIOLATION,
            "attribute '" + attribute.getBaseName() + "' cannot have multiple values");
      }
    }
    checkSyntax(entry, newValues);
    checkNaming(entry);
    return rules.structural();
  }

  /** An attribute type an object class requires. */
  private record Required(ObjectClassDefinition objectClass, AttributeTypeDefinition type) {}

  /**
   * What a set of object classes requires and allows, worked out once per set: the SDK computes
   * each class's MUST and MAY lists (superiors included) afresh on every call, which cost a modify
   * at 1M entries 3 % of its CPU.
   */
  private record ClassRules(
      ObjectClassDefinition structural,
      List<Required> required,
      Set<String> allowed,
      boolean extensible) {}

  private ClassRules rulesOf(Entry entry) throws LDAPException {
    String[] names = entry.getObjectClassValues();
    String key = names == null ? "" : String.join("\0", names).toLowerCase(Locale.ROOT);
    ClassRules rules = rulesByClasses.get(key);
    if (rules == null) {
      rules = rules(objectClasses(entry));
      if (rulesByClasses.size() < MAX_CLASS_SETS) {
        rulesByClasses.put(key, rules);
      }
    }
    return rules;
  }

  private ClassRules rules(List<ObjectClassDefinition> classes) throws LDAPException {
    ObjectClassDefinition structural = structural(classes);
    List<Required> required = new ArrayList<>();
    Set<String> allowed = new HashSet<>();
    boolean extensible = false;
    for (ObjectClassDefinition oc : classes) {
      extensible |= oc.hasNameOrOID("extensibleObject");
      for (AttributeTypeDefinition must : oc.getRequiredAttributes(schema, true)) {
        required.add(new Required(oc, must));
        allowed.add(must.getOID());
      }
      oc.getOptionalAttributes(schema, true).forEach(t -> allowed.add(t.getOID()));
    }
    return new ClassRules(structural, List.copyOf(required), Set.copyOf(allowed), extensible);
  }

  /** The type of an attribute name, or undefinedAttributeType (17). */
  public AttributeTypeDefinition type(String baseName) throws LDAPException {
    AttributeTypeDefinition type = schema.getAttributeType(baseName);
    if (type == null) {
      throw new LDAPException(
          ResultCode.UNDEFINED_ATTRIBUTE_TYPE, baseName + ": attribute type undefined");
    }
    return type;
  }

  /** Refuses a client write of a NO-USER-MODIFICATION attribute with constraintViolation (19). */
  public void checkUserModifiable(String baseName) throws LDAPException {
    if (type(baseName).isNoUserModification()) {
      throw new LDAPException(
          ResultCode.CONSTRAINT_VIOLATION, baseName + ": no user modification allowed");
    }
  }

  private List<ObjectClassDefinition> objectClasses(Entry entry) throws LDAPException {
    String[] names = entry.getObjectClassValues();
    if (names == null || names.length == 0) {
      throw new LDAPException(ResultCode.OBJECT_CLASS_VIOLATION, "no objectClass attribute");
    }
    List<ObjectClassDefinition> classes = new ArrayList<>();
    for (int i = 0; i < names.length; i++) {
      ObjectClassDefinition oc = schema.getObjectClass(names[i]);
      if (oc == null) {
        throw new LDAPException(
            ResultCode.INVALID_ATTRIBUTE_SYNTAX,
            "objectClass: value #" + i + " invalid per syntax");
      }
      classes.add(oc);
      classes.addAll(oc.getSuperiorClasses(schema, true));
    }
    return classes;
  }

  /** The most specific structural class; the others must be its superclasses (X.501 chain). */
  private ObjectClassDefinition structural(List<ObjectClassDefinition> classes)
      throws LDAPException {
    ObjectClassDefinition most = null;
    for (ObjectClassDefinition oc : classes) {
      if (oc.getObjectClassType(schema) != ObjectClassType.STRUCTURAL) {
        continue;
      }
      if (most == null || oc.getSuperiorClasses(schema, true).contains(most)) {
        most = oc;
      } else if (!most.equals(oc) && !most.getSuperiorClasses(schema, true).contains(oc)) {
        throw new LDAPException(
            ResultCode.OBJECT_CLASS_VIOLATION,
            "invalid structural object class chain ("
                + most.getNameOrOID()
                + "/"
                + oc.getNameOrOID()
                + ")");
      }
    }
    if (most == null) {
      throw new LDAPException(
          ResultCode.OBJECT_CLASS_VIOLATION, "no structural object class provided");
    }
    return most;
  }

  /**
   * Adds the superior classes an entry's object classes imply (inetOrgPerson brings
   * organizationalPerson, person and top), as OpenDJ and 389 DS store them: then {@code
   * (objectClass=person)} finds every person through the equality index alone.
   */
  public void addSuperiorClasses(Entry entry) {
    String[] names = entry.getObjectClassValues();
    if (names == null) {
      return;
    }
    for (String name : names) {
      ObjectClassDefinition oc = schema.getObjectClass(name);
      if (oc != null) {
        for (ObjectClassDefinition sup : oc.getSuperiorClasses(schema, true)) {
          if (!hasClass(entry, sup)) {
            entry.addAttribute("objectClass", sup.getNameOrOID());
          }
        }
      }
    }
  }

  private boolean hasClass(Entry entry, ObjectClassDefinition oc) {
    for (String name : entry.getObjectClassValues()) {
      if (oc.hasNameOrOID(name)) {
        return true;
      }
    }
    return false;
  }

  /** The structural class of an entry already stored (assumed valid), or null. */
  public ObjectClassDefinition structuralOf(Entry entry) {
    try {
      return rulesOf(entry).structural();
    } catch (LDAPException e) {
      return null;
    }
  }

  private boolean isAllowed(AttributeTypeDefinition type, Set<String> allowed) {
    for (AttributeTypeDefinition t = type; t != null; t = t.getSuperiorType(schema)) {
      if (allowed.contains(t.getOID())) {
        return true;
      }
    }
    return false;
  }

  private void checkSyntax(Entry entry, Entry values) throws LDAPException {
    Entry probe = values;
    if (values != entry) {
      // The SDK's validator refuses an entry without object classes whatever it is asked to check;
      // it checks no class here, so the cheapest one does unless classes are among the values.
      probe = values.duplicate();
      if (!probe.hasAttribute("objectClass")) {
        probe.setAttribute("objectClass", "top");
      }
    }
    List<String> reasons = new ArrayList<>();
    if (!syntax.entryIsValid(probe, reasons)) {
      throw new LDAPException(ResultCode.INVALID_ATTRIBUTE_SYNTAX, String.join("; ", reasons));
    }
  }

  /** Every RDN value must be a value of the entry (RFC 4512 section 2.3.1). */
  private void checkNaming(Entry entry) throws LDAPException {
    List<Attribute> missing = missingRdnValues(entry);
    if (!missing.isEmpty()) {
      throw new LDAPException(
          ResultCode.NAMING_VIOLATION,
          "value of naming attribute '"
              + missing.get(0).getName().toLowerCase(Locale.ROOT)
              + "' is not present in entry");
    }
  }

  /**
   * The values of the entry's RDN that the entry lacks, compared under each attribute's equality
   * rule: what an add supplies and a schema check refuses (RFC 4512 section 2.3.1).
   */
  public List<Attribute> missingRdnValues(Entry entry) throws LDAPException {
    RDN rdn = entry.getParsedDN().getRDN();
    if (rdn == null) {
      return List.of();
    }
    String[] names = rdn.getAttributeNames();
    byte[][] values = rdn.getByteArrayAttributeValues();
    List<Attribute> missing = new ArrayList<>();
    for (int i = 0; i < names.length; i++) {
      if (!entry.hasAttributeValue(names[i], values[i], matchingRule(names[i]))) {
        missing.add(new Attribute(names[i], values[i]));
      }
    }
    return missing;
  }

  /** The equality rule of an attribute, for value comparisons that must follow the schema. */
  public MatchingRule matchingRule(String attribute) {
    return MatchingRules.forIndex(attribute, MatchingRules.Kind.EQUALITY, schema);
  }

  /**
   * The values of an add or of one modification, before they are merged into an entry (which would
   * silently drop repeats): two values equal under the equality rule are attributeOrValueExists
   * (20, RFC 4511 sections 4.6 and 4.7); an empty value of a syntax that has none (Directory String
   * and the other RFC 4517 syntaxes of one or more characters) is invalidAttributeSyntax (21).
   */
  public void checkValues(Attribute attribute) throws LDAPException {
    AttributeTypeDefinition type = schema.getAttributeType(attribute.getBaseName());
    if (type == null) {
      return; // undefinedAttributeType is reported by the caller's type check
    }
    boolean emptyForbidden = NON_EMPTY_SYNTAXES.contains(type.getBaseSyntaxOID(schema));
    MatchingRule rule = matchingRule(attribute.getBaseName());
    Set<String> seen = new HashSet<>();
    byte[][] values = attribute.getValueByteArrays();
    for (int i = 0; i < values.length; i++) {
      if (values[i].length == 0 && emptyForbidden) {
        throw new LDAPException(
            ResultCode.INVALID_ATTRIBUTE_SYNTAX,
            attribute.getName() + ": value #" + i + " invalid per syntax");
      }
      if (!seen.add(normalized(rule, values[i]))) {
        throw new LDAPException(
            ResultCode.ATTRIBUTE_OR_VALUE_EXISTS,
            attribute.getName() + ": value #" + i + " provided more than once");
      }
    }
  }

  /** A value's key under {@code rule}; a value the rule cannot read stands for itself. */
  static String normalized(MatchingRule rule, byte[] value) {
    try {
      return rule.normalize(new ASN1OctetString(value)).stringValue();
    } catch (LDAPException unreadable) {
      return "\0raw:" + new ASN1OctetString(value).stringValue();
    }
  }
}

package io.rockds.storage.matching;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.matchingrules.CaseExactStringMatchingRule;
import com.unboundid.ldap.matchingrules.CaseIgnoreStringMatchingRule;
import com.unboundid.ldap.matchingrules.GeneralizedTimeMatchingRule;
import com.unboundid.ldap.matchingrules.MatchingRule;
import com.unboundid.ldap.matchingrules.NumericStringMatchingRule;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.RDN;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.schema.AttributeTypeDefinition;
import com.unboundid.ldap.sdk.schema.Schema;
import io.rockds.storage.Id2Values;
import io.rockds.storage.Soundex;
import io.rockds.storage.StoredEntry;
import io.rockds.storage.matching.MatchingRules.Kind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * Phase 2 of a search: does an entry match a filter? RFC 4511 section 4.5.1.7's three-valued logic
 * with the schema's matching rules. A filter on {@code cn} sees {@code cn;lang-fr} and the subtypes
 * of {@code cn}; a filter on {@code cn;lang-fr} only values carrying that option. Undefined: an
 * assertion value the rule cannot parse; a component on a type without the rule it needs ({@code
 * >=} without ORDERING, as on {@code sn}; a substring without SUBSTR, as on {@code member}); an
 * unknown extensible matching rule or a substrings one. The rules are {@link MatchingRules}', the
 * very ones the index keys are normalized with.
 *
 * <p>Approximate matching compares the Soundex codes storage indexes ({@link
 * io.rockds.storage.Soundex}); values with no letters compare by equality. For the string and time
 * rules whose normalized form sorts correctly, ordering compares normalized bytes, the very order
 * of the index keys phase 1 reads. Types the schema does not know use its default rules
 * (case-ignore string), as OpenDJ does with placeholder types, in the evaluator of the naming
 * contexts outside the schema (cn=config, cn=monitor); in the schema-governed backends ({@link
 * #definedTypesOnly}) any component on such a type is Undefined, as RFC 4511 section 4.5.1.7 and
 * slapd have it.
 */
public final class FilterEvaluator {
  /** The value of a filter for an entry. */
  public enum Result {
    TRUE,
    FALSE,
    UNDEFINED
  }

  private static final Set<Class<? extends MatchingRule>> BYTE_ORDERED =
      Set.of(
          CaseIgnoreStringMatchingRule.class,
          CaseExactStringMatchingRule.class,
          GeneralizedTimeMatchingRule.class,
          NumericStringMatchingRule.class);

  /** A deadline is checked before each component and every this many values. */
  private static final int VALUES_PER_DEADLINE_CHECK = 256;

  private final Schema schema;

  /** True when a component on a type the schema does not define is Undefined. */
  private final boolean definedTypesOnly;

  /** This evaluator's twin that makes components on undefined types Undefined (or itself). */
  private final FilterEvaluator definedTypesOnlyTwin;

  /**
   * Per attribute description of a schema type; unknown types are not cached (clients choose them).
   */
  private final Map<String, Description> descriptions = new ConcurrentHashMap<>();

  /**
   * The evaluator of the schema last asked for, so that call sites holding only a Schema share one.
   */
  private static volatile FilterEvaluator latest;

  public FilterEvaluator(Schema schema) {
    this.schema = schema;
    this.definedTypesOnly = false;
    this.definedTypesOnlyTwin = new FilterEvaluator(schema, true);
  }

  private FilterEvaluator(Schema schema, boolean definedTypesOnly) {
    this.schema = schema;
    this.definedTypesOnly = definedTypesOnly;
    this.definedTypesOnlyTwin = this;
  }

  /**
   * The evaluator for entries the schema governs (user backends), where an equality, substring,
   * ordering, approximate, presence or extensible component on an attribute type the schema does
   * not define is Undefined (RFC 4511 section 4.5.1.7): {@code (!(fooBar=x))} matches nothing.
   */
  public FilterEvaluator definedTypesOnly() {
    return definedTypesOnlyTwin;
  }

  /**
   * The evaluator of {@code schema}: the single entry point of every place that matches a filter or
   * compares values (search, compare, assertion control, cn=config, groups, ACIs). Reuses the last
   * one while the schema object is the same (a schema change publishes a new one).
   */
  public static FilterEvaluator forSchema(Schema schema) {
    FilterEvaluator current = latest;
    if (current != null && current.schema == schema) {
      return current;
    }
    current = new FilterEvaluator(schema);
    latest = current;
    return current;
  }

  /**
   * The analysis of {@code filter} for this evaluator, made once and used for every entry it tests
   * (see {@link PreparedFilter}).
   */
  public PreparedFilter prepare(Filter filter) {
    return new PreparedFilter(this, filter);
  }

  /**
   * True only when the filter is TRUE for the entry (FALSE and UNDEFINED do not match). A caller
   * testing many entries against one filter prepares it once instead ({@link #prepare}).
   */
  public boolean matches(Filter filter, Entry entry) {
    return compile(filter, null).evaluate(entry, Deadline.NONE) == Result.TRUE;
  }

  /**
   * {@link #matches(Filter, Entry)} that stops (not matching) once {@code deadline} has passed; the
   * caller must then check its time limit before taking FALSE for an answer.
   */
  public boolean matches(Filter filter, Entry entry, Deadline deadline) {
    return compile(filter, null).evaluate(entry, deadline) == Result.TRUE;
  }

  /**
   * A compare (RFC 4511 section 4.10): whether the entry holds a value of {@code attribute} equal
   * to {@code value} under the type's equality rule.
   *
   * @throws LDAPException inappropriateMatching (18) when the type has no equality rule,
   *     invalidAttributeSyntax (21) when the rule cannot read the value
   */
  public boolean compare(Entry entry, String attribute, byte[] value) throws LDAPException {
    if (description(attribute).equality == null) {
      throw new LDAPException(
          ResultCode.INAPPROPRIATE_MATCHING, attribute + " has no EQUALITY matching rule");
    }
    Result result = evaluate(Filter.createEqualityFilter(attribute, value), entry);
    if (result == Result.UNDEFINED) {
      throw new LDAPException(
          ResultCode.INVALID_ATTRIBUTE_SYNTAX, "the assertion value is not valid for " + attribute);
    }
    return result == Result.TRUE;
  }

  public Result evaluate(Filter filter, Entry entry) {
    return compile(filter, null).evaluate(entry, Deadline.NONE);
  }

  /** True when this evaluator makes components on types the schema does not define Undefined. */
  boolean isDefinedTypesOnly() {
    return definedTypesOnly;
  }

  /** A component of a prepared filter: its value for an entry. */
  @FunctionalInterface
  interface Node {
    Result evaluate(Entry entry, Deadline deadline);
  }

  private static final Node UNDEFINED = (entry, deadline) -> Result.UNDEFINED;

  /**
   * The evaluation of {@code filter} with everything that does not depend on the entry done now:
   * attribute descriptions resolved against the schema, assertion values normalized once.
   *
   * @param leafNames when not null, receives the attribute description of each component that is
   *     not an AND, OR or NOT, in the filter's order (null for an extensible match naming none)
   */
  Node compile(Filter filter, List<String> leafNames) {
    byte type = filter.getFilterType();
    boolean leaf =
        type != Filter.FILTER_TYPE_AND
            && type != Filter.FILTER_TYPE_OR
            && type != Filter.FILTER_TYPE_NOT;
    if (leaf && leafNames != null) {
      leafNames.add(filter.getAttributeName());
    }
    if (definedTypesOnly
        && filter.getAttributeName() != null
        && !description(filter.getAttributeName()).known) {
      return UNDEFINED;
    }
    switch (type) {
      case Filter.FILTER_TYPE_AND -> {
        Node[] components = compileAll(filter.getComponents(), leafNames);
        return (entry, deadline) -> combine(components, Result.FALSE, entry, deadline);
      }
      case Filter.FILTER_TYPE_OR -> {
        Node[] components = compileAll(filter.getComponents(), leafNames);
        return (entry, deadline) -> combine(components, Result.TRUE, entry, deadline);
      }
      case Filter.FILTER_TYPE_NOT -> {
        Node component = compile(filter.getNOTComponent(), leafNames);
        return (entry, deadline) -> {
          Result r = component.evaluate(entry, deadline);
          return r == Result.UNDEFINED ? r : r == Result.TRUE ? Result.FALSE : Result.TRUE;
        };
      }
      case Filter.FILTER_TYPE_PRESENCE -> {
        Description d = description(filter.getAttributeName());
        return (entry, deadline) ->
            d.heldAttributesOf(entry).isEmpty() && !d.lacksValuesOf(entry)
                ? Result.FALSE
                : Result.TRUE;
      }
      case Filter.FILTER_TYPE_EXTENSIBLE_MATCH -> {
        return (entry, deadline) -> extensible(filter, entry, deadline);
      }
      default -> {
        return valueMatch(filter);
      }
    }
  }

  /**
   * An AND ({@code decisive} FALSE) or an OR ({@code decisive} TRUE): the decisive value as soon as
   * a component has it, else Undefined if a component is, else the other value. Undefined too once
   * the deadline has passed.
   */
  private static Result combine(
      Node[] components, Result decisive, Entry entry, Deadline deadline) {
    Result result = decisive == Result.FALSE ? Result.TRUE : Result.FALSE;
    for (Node component : components) {
      if (deadline.passed()) {
        return Result.UNDEFINED;
      }
      Result r = component.evaluate(entry, deadline);
      if (r == decisive) {
        return decisive;
      }
      if (r == Result.UNDEFINED) {
        result = Result.UNDEFINED;
      }
    }
    return result;
  }

  private Node[] compileAll(Filter[] filters, List<String> leafNames) {
    Node[] nodes = new Node[filters.length];
    for (int i = 0; i < filters.length; i++) {
      nodes[i] = compile(filters[i], leafNames);
    }
    return nodes;
  }

  /**
   * True if the schema defines the type of {@code attributeDescription}: only components on other
   * types evaluate differently in this evaluator and its {@link #definedTypesOnly} twin.
   */
  boolean isDefined(String attributeDescription) {
    return description(attributeDescription).known;
  }

  /**
   * Whether evaluating {@code filter} on an entry that lacks its values stored apart ({@link
   * StoredEntry#lacksValues}: a group's members) may read all of them: a substring, ordering,
   * approximate or extensible component on an attribute stored apart or on a supertype of one
   * ({@code distinguishedName} covers {@code member}), or an extensible match naming no attribute.
   * Equality and presence read at most one value of each; a substring or ordering component whose
   * type has no such rule is Undefined without reading any.
   */
  boolean readsValuesApart(Filter filter) {
    switch (filter.getFilterType()) {
      case Filter.FILTER_TYPE_AND, Filter.FILTER_TYPE_OR -> {
        for (Filter component : filter.getComponents()) {
          if (readsValuesApart(component)) {
            return true;
          }
        }
        return false;
      }
      case Filter.FILTER_TYPE_NOT -> {
        return readsValuesApart(filter.getNOTComponent());
      }
      case Filter.FILTER_TYPE_EQUALITY, Filter.FILTER_TYPE_PRESENCE -> {
        return false;
      }
      default -> {
        String attribute = filter.getAttributeName();
        if (attribute == null) {
          return true;
        }
        Description d = description(attribute);
        byte type = filter.getFilterType();
        boolean undefined =
            type == Filter.FILTER_TYPE_SUBSTRING && d.substring == null
                || (type == Filter.FILTER_TYPE_GREATER_OR_EQUAL
                        || type == Filter.FILTER_TYPE_LESS_OR_EQUAL)
                    && d.ordering == null;
        return !undefined && d.names.stream().anyMatch(Id2Values::isApart);
      }
    }
  }

  /**
   * The stored attribute descriptions that evaluating a filter naming {@code descriptions} may
   * read: those of the attributes, of their subtypes, with any options. An entry holding only these
   * (and its DN) evaluates as the whole entry does.
   */
  Predicate<String> attributesTested(Collection<String> descriptions) {
    List<Description> tested = new ArrayList<>();
    for (String description : descriptions) {
      tested.add(description(description));
    }
    return description -> {
      String base = Attribute.getBaseName(description);
      for (Description d : tested) {
        if (d.names.contains(base)) {
          return true;
        }
      }
      return false;
    };
  }

  /**
   * Equality, substring, ordering and approximate: TRUE if any value of the attribute matches; an
   * assertion the rule cannot read makes the component Undefined for every entry.
   */
  private Node valueMatch(Filter filter) {
    Description d = description(filter.getAttributeName());
    ValueTest test;
    try {
      test = valueTest(filter, d);
    } catch (LDAPException e) {
      return UNDEFINED;
    }
    boolean equality = filter.getFilterType() == Filter.FILTER_TYPE_EQUALITY;
    ASN1OctetString assertion = filter.getRawAssertionValue();
    return (entry, deadline) -> {
      if (equality
          && d.lacksValuesOf(entry)
          && ((StoredEntry) entry).holdsValueApart(d::covers, assertion)) {
        // A member of a group whose members are stored apart: one point read, not a walk of them.
        return Result.TRUE;
      }
      List<Attribute> attributes = equality ? d.heldAttributesOf(entry) : d.attributesOf(entry);
      if (equality && hasRawValue(attributes, assertion)) {
        // A value byte-equal to a valid assertion normalizes to the same key: it matches without
        // normalizing the others. Applications send back the DNs and values they read, so this is
        // the common case, and it spares a (member=<DN>) search normalizing every member of a
        // large group.
        return Result.TRUE;
      }
      int tested = 0;
      for (Attribute attribute : attributes) {
        for (ASN1OctetString value : attribute.getRawValues()) {
          if (++tested % VALUES_PER_DEADLINE_CHECK == 0 && deadline.passed()) {
            return Result.UNDEFINED;
          }
          try {
            if (test.matches(value)) {
              return Result.TRUE;
            }
          } catch (LDAPException e) {
            // A stored value the rule cannot read matches nothing.
          }
        }
      }
      return Result.FALSE;
    };
  }

  private static boolean hasRawValue(List<Attribute> attributes, ASN1OctetString assertion) {
    // The assertion is a slice of the request: getValue() copies it, so once, not per stored value.
    int length = assertion.getValueLength();
    byte[] wanted = null;
    for (Attribute attribute : attributes) {
      for (ASN1OctetString value : attribute.getRawValues()) {
        if (value.getValueLength() == length) {
          wanted = wanted == null ? assertion.getValue() : wanted;
          if (Arrays.equals(value.getValue(), wanted)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  @FunctionalInterface
  private interface ValueTest {
    boolean matches(ASN1OctetString value) throws LDAPException;
  }

  /** Prepares the assertion once; an assertion the rule cannot read makes the filter undefined. */
  private ValueTest valueTest(Filter filter, Description d) throws LDAPException {
    switch (filter.getFilterType()) {
      case Filter.FILTER_TYPE_EQUALITY -> {
        required(d.equality, "EQUALITY", filter);
        byte[] assertion = d.equality.normalize(filter.getRawAssertionValue()).getValue();
        return value -> Arrays.equals(d.equality.normalize(value).getValue(), assertion);
      }
      case Filter.FILTER_TYPE_SUBSTRING -> {
        MatchingRule rule = required(d.substring, "SUBSTR", filter);
        ASN1OctetString initial = filter.getRawSubInitialValue();
        ASN1OctetString[] any = filter.getRawSubAnyValues();
        ASN1OctetString end = filter.getRawSubFinalValue();
        validate(rule, initial, MatchingRule.SUBSTRING_TYPE_SUBINITIAL);
        for (ASN1OctetString fragment : any) {
          validate(rule, fragment, MatchingRule.SUBSTRING_TYPE_SUBANY);
        }
        validate(rule, end, MatchingRule.SUBSTRING_TYPE_SUBFINAL);
        return value -> rule.matchesSubstring(value, initial, any, end);
      }
      case Filter.FILTER_TYPE_GREATER_OR_EQUAL, Filter.FILTER_TYPE_LESS_OR_EQUAL -> {
        boolean greater = filter.getFilterType() == Filter.FILTER_TYPE_GREATER_OR_EQUAL;
        ASN1OctetString assertion = filter.getRawAssertionValue();
        MatchingRule rule = required(d.ordering, "ORDERING", filter);
        if (BYTE_ORDERED.contains(rule.getClass())) {
          byte[] bound = rule.normalize(assertion).getValue();
          return value -> {
            int c = Arrays.compareUnsigned(rule.normalize(value).getValue(), bound);
            return greater ? c >= 0 : c <= 0;
          };
        }
        rule.compareValues(assertion, assertion);
        return value -> {
          int c = rule.compareValues(value, assertion);
          return greater ? c >= 0 : c <= 0;
        };
      }
      case Filter.FILTER_TYPE_APPROXIMATE_MATCH -> {
        required(d.equality, "EQUALITY", filter);
        String assertion = d.equality.normalize(filter.getRawAssertionValue()).stringValue();
        String code = Soundex.encode(assertion);
        if (code.isEmpty()) {
          return value -> d.equality.normalize(value).stringValue().equals(assertion);
        }
        return value -> Soundex.encode(d.equality.normalize(value).stringValue()).equals(code);
      }
      default -> throw new IllegalArgumentException("not a value filter: " + filter);
    }
  }

  private static MatchingRule required(MatchingRule rule, String kind, Filter filter)
      throws LDAPException {
    if (rule == null) {
      throw new LDAPException(
          ResultCode.INAPPROPRIATE_MATCHING,
          filter.getAttributeName() + " has no " + kind + " matching rule");
    }
    return rule;
  }

  private static void validate(MatchingRule rule, ASN1OctetString fragment, byte type)
      throws LDAPException {
    if (fragment != null) {
      rule.normalizeSubstring(fragment, type);
    }
  }

  /**
   * {@code (attr:rule:=value)}: the rule (or the attribute's equality rule) on the attribute's
   * values, or on every attribute when none is named; with {@code :dn:} also on the DN's RDNs.
   */
  private Result extensible(Filter filter, Entry entry, Deadline deadline) {
    String attribute = filter.getAttributeName();
    String ruleId = filter.getMatchingRuleID();
    if (ruleId != null
        && (schema.getMatchingRule(ruleId) == null
            || MatchingRules.named(ruleId, attribute == null ? "" : attribute, schema).kind()
                == Kind.SUBSTRING)) {
      // An unknown rule; or a substrings rule, whose SubstringAssertion an extensible match cannot
      // carry.
      return Result.UNDEFINED;
    }
    ASN1OctetString assertion = filter.getRawAssertionValue();
    List<Attribute> candidates = new ArrayList<>();
    if (attribute != null) {
      candidates.addAll(description(attribute).attributesOf(entry));
    } else {
      candidates.addAll(entry.getAttributes());
      if (entry instanceof StoredEntry stored && stored.lacksValues()) {
        candidates.addAll(stored.valuesApart(description -> true));
      }
    }
    if (filter.getDNAttributes()) {
      try {
        for (RDN rdn : entry.getParsedDN().getRDNs()) {
          String[] names = rdn.getAttributeNames();
          byte[][] values = rdn.getByteArrayAttributeValues();
          for (int i = 0; i < names.length; i++) {
            if (attribute == null || description(attribute).names.contains(names[i])) {
              candidates.add(new Attribute(names[i], values[i]));
            }
          }
        }
      } catch (LDAPException e) {
        return Result.UNDEFINED;
      }
    }
    Result result = Result.FALSE;
    int tested = 0;
    for (Attribute a : candidates) {
      MatchingRules.Named named =
          ruleId == null
              ? new MatchingRules.Named(
                  MatchingRules.strict(a.getBaseName(), Kind.EQUALITY, schema), Kind.EQUALITY)
              : MatchingRules.named(ruleId, a.getBaseName(), schema);
      MatchingRule rule = named.rule();
      Kind kind = named.kind();
      if (rule == null) {
        result = Result.UNDEFINED;
        continue;
      }
      for (ASN1OctetString value : a.getRawValues()) {
        if (++tested % VALUES_PER_DEADLINE_CHECK == 0 && deadline.passed()) {
          return Result.UNDEFINED;
        }
        try {
          if (kind == Kind.ORDERING
              ? rule.compareValues(value, assertion) < 0
              : equal(rule, value, assertion)) {
            return Result.TRUE;
          }
        } catch (LDAPException e) {
          result = Result.UNDEFINED;
        }
      }
    }
    return result;
  }

  /**
   * Equal normalized bytes. Not {@code MatchingRule.valuesMatch}: it compares the normalized octet
   * strings with their BER types, and an assertion decoded from a request keeps its
   * context-specific tag.
   */
  private static boolean equal(MatchingRule rule, ASN1OctetString value, ASN1OctetString assertion)
      throws LDAPException {
    return Arrays.equals(rule.normalize(value).getValue(), rule.normalize(assertion).getValue());
  }

  private Description description(String attributeDescription) {
    Description cached = descriptions.get(attributeDescription);
    if (cached != null) {
      return cached;
    }
    Description d = new Description(attributeDescription, schema);
    if (d.known) {
      descriptions.put(attributeDescription, d);
    }
    return d;
  }

  /**
   * An attribute description resolved against the schema: the names it covers, its options and
   * rules.
   */
  private static final class Description {
    final boolean known;

    /** Case-insensitive, so that matching an entry's attribute names allocates nothing. */
    final Set<String> names = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);

    /** The same names in lower case, as {@link Entry} keys its attributes without options. */
    final List<String> lowerCaseNames = new ArrayList<>();

    final Set<String> options = new HashSet<>();

    /** Null when the type has no rule of that kind: a filter needing it is Undefined. */
    final MatchingRule equality;

    final MatchingRule ordering;
    final MatchingRule substring;

    Description(String description, Schema schema) {
      String[] parts = description.split(";");
      String base = parts[0];
      for (int i = 1; i < parts.length; i++) {
        options.add(parts[i].toLowerCase(Locale.ROOT));
      }
      AttributeTypeDefinition type = schema.getAttributeType(base);
      known = type != null;
      names.add(base);
      if (type != null) {
        addNames(type);
        for (AttributeTypeDefinition sub : schema.getSubordinateAttributeTypes(type)) {
          addNames(sub);
        }
      }
      for (String name : names) {
        lowerCaseNames.add(name.toLowerCase(Locale.ROOT));
      }
      equality = MatchingRules.strict(base, Kind.EQUALITY, schema);
      ordering = MatchingRules.strict(base, Kind.ORDERING, schema);
      substring = MatchingRules.strict(base, Kind.SUBSTRING, schema);
    }

    private void addNames(AttributeTypeDefinition type) {
      for (String name : type.getNames()) {
        names.add(name);
      }
      names.add(type.getOID());
    }

    /**
     * The entry's attributes this description covers: same type or a subtype, with at least its
     * options; the values of those stored apart that {@code entry} lacks are read.
     */
    List<Attribute> attributesOf(Entry entry) {
      List<Attribute> held = heldAttributesOf(entry);
      if (!lacksValuesOf(entry)) {
        return held;
      }
      List<Attribute> all = new ArrayList<>(held);
      all.addAll(((StoredEntry) entry).valuesApart(this::covers));
      return all;
    }

    /** Whether {@code entry} lacks the values of an attribute stored apart this one covers. */
    boolean lacksValuesOf(Entry entry) {
      return entry instanceof StoredEntry stored
          && stored.lacksValues()
          && stored.lacksValuesOf(this::covers);
    }

    /** Whether this description covers the attribute description {@code stored}. */
    boolean covers(String stored) {
      String[] parts = stored.split(";");
      if (!names.contains(parts[0])) {
        return false;
      }
      Set<String> present = new HashSet<>();
      for (int i = 1; i < parts.length; i++) {
        present.add(parts[i].toLowerCase(Locale.ROOT));
      }
      return present.containsAll(options);
    }

    /** The attributes this description covers among those {@code entry} holds. */
    List<Attribute> heldAttributesOf(Entry entry) {
      List<Attribute> out = new ArrayList<>(2);
      if (options.isEmpty()
          && entry instanceof StoredEntry stored
          && !stored.hasAttributeOptions()) {
        // A few hash lookups instead of walking every attribute of an entry that is cold in the CPU
        // cache.
        for (String name : lowerCaseNames) {
          Attribute a = entry.getAttribute(name);
          if (a != null) {
            out.add(a);
          }
        }
        return out;
      }
      for (Attribute a : entry.getAttributes()) {
        if (names.contains(a.getBaseName()) && hasOptions(a)) {
          out.add(a);
        }
      }
      return out;
    }

    private boolean hasOptions(Attribute a) {
      if (options.isEmpty()) {
        return true;
      }
      for (String option : options) {
        if (!a.hasOption(option)) {
          return false;
        }
      }
      return true;
    }
  }
}

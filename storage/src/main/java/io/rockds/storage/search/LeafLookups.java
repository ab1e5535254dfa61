package io.rockds.storage.search;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.matchingrules.CaseExactStringMatchingRule;
import com.unboundid.ldap.matchingrules.CaseIgnoreStringMatchingRule;
import com.unboundid.ldap.matchingrules.GeneralizedTimeMatchingRule;
import com.unboundid.ldap.matchingrules.MatchingRule;
import com.unboundid.ldap.matchingrules.NumericStringMatchingRule;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.schema.AttributeTypeDefinition;
import com.unboundid.ldap.sdk.schema.Schema;
import io.rockds.storage.AttributeIndex;
import io.rockds.storage.EntryContainer;
import io.rockds.storage.IdSet;
import io.rockds.storage.IndexKey;
import io.rockds.storage.IndexType;
import io.rockds.storage.matching.MatchingRules;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The index reads of one leaf filter (equality, presence, approximate, substring, ordering,
 * extensible), against trusted indexes only: an index that is not trusted is treated as absent.
 *
 * <p>Substring filters follow OpenDJ: every fragment at least {@code substring-length} long is
 * looked up as its n-gram keys ({@code user.19} with length 6: {@code user.1} and {@code ser.19}),
 * a shorter one as a key range of the substring tree ({@code den}: {@code [den,deo[}). A short
 * subInitial reads the equality tree's key range instead when there is one: "starts with den" is a
 * subset of "contains den", so the substring range would add nothing. Unlike OpenDJ (which reads
 * both), a long subInitial reads only its n-gram keys, as DS 6.5's traces show ({@code
 * (mail=user.19*)}: {@code ser.19} and {@code user.1}, no equality range).
 *
 * <p>{@code >=} and {@code <=} read the ordering index, or else the equality index when its
 * normalized keys sort in the attribute's ordering (case-ignore, case-exact, numeric-string and
 * generalized-time rules), as OpenDJ reuses equality trees for ordering (OPENDJ-1864). Integer
 * equality keys are decimal text, which does not sort, so integers need an ordering index.
 */
final class LeafLookups {
  private static final byte[] PRESENCE_KEY = {'+'};
  private static final Set<Class<? extends MatchingRule>> KEYS_SORT_IN_ORDER =
      Set.of(
          CaseIgnoreStringMatchingRule.class,
          CaseExactStringMatchingRule.class,
          GeneralizedTimeMatchingRule.class,
          NumericStringMatchingRule.class);

  private final EntryContainer container;
  private final Schema schema;
  private final VirtualIndexes virtual;

  LeafLookups(EntryContainer container, Schema schema, VirtualIndexes virtual) {
    this.container = container;
    this.schema = schema;
    this.virtual = virtual;
  }

  List<Lookup> of(Filter filter) {
    return switch (filter.getFilterType()) {
      case Filter.FILTER_TYPE_EQUALITY -> exactValue(filter, IndexType.EQUALITY);
      case Filter.FILTER_TYPE_APPROXIMATE_MATCH -> exactValue(filter, IndexType.APPROXIMATE);
      case Filter.FILTER_TYPE_PRESENCE -> presence(filter);
      case Filter.FILTER_TYPE_SUBSTRING -> substring(filter);
      case Filter.FILTER_TYPE_GREATER_OR_EQUAL -> range(filter, null);
      case Filter.FILTER_TYPE_LESS_OR_EQUAL -> range(null, filter);
      case Filter.FILTER_TYPE_EXTENSIBLE_MATCH -> extensible(filter);
      default -> notIndexed(null);
    };
  }

  /** One range for {@code (a>=x)} and {@code (a<=y)} on the same attribute. */
  Lookup boundedRange(Filter lower, Filter upper) {
    return range(lower, upper).get(0);
  }

  // ---------------------------------------------------------------- single keys

  private List<Lookup> exactValue(Filter filter, IndexType type) {
    if (type == IndexType.EQUALITY && virtual.answers(filter.getAttributeName())) {
      return List.of(
          new Lookup(
              Lookup.Category.FAST,
              null,
              label -> {
                IdSet ids =
                    virtual.equality(
                        container, filter.getAttributeName(), filter.getRawAssertionValue());
                return new Evaluated(
                    ids,
                    labelled(label)
                        .put("virtual", filter.getAttributeName())
                        .putCount("candidates", ids));
              }));
    }
    AttributeIndex index = trusted(filter.getAttributeName(), type);
    if (index == null) {
      return notIndexed(filter.getAttributeName());
    }
    ASN1OctetString value = filter.getRawAssertionValue();
    byte[] key = index.normalize(value);
    boolean proves =
        type == IndexType.EQUALITY
            && filter.getFilterType() == Filter.FILTER_TYPE_EQUALITY
            && indexProves(filter.getAttributeName());
    return List.of(
        exact(
            Lookup.Category.FAST,
            index,
            key,
            key == null ? value.stringValue() : utf8(key),
            proves));
  }

  private List<Lookup> presence(Filter filter) {
    AttributeIndex index = trusted(filter.getAttributeName(), IndexType.PRESENCE);
    return index == null
        ? notIndexed(filter.getAttributeName())
        : List.of(
            exact(
                Lookup.Category.FAST,
                index,
                PRESENCE_KEY,
                "+",
                indexProves(filter.getAttributeName())));
  }

  /**
   * True if the attribute's index holds exactly the entries an equality or presence filter on
   * {@code description} matches: no options in the filter (the index ignores them, so it holds a
   * superset) and no subtypes in the schema (the filter matches their values, the index does not
   * hold them).
   */
  private boolean indexProves(String description) {
    if (description.indexOf(';') >= 0) {
      return false;
    }
    AttributeTypeDefinition type = schema.getAttributeType(description);
    return type != null && schema.getSubordinateAttributeTypes(type).isEmpty();
  }

  /**
   * An extensible match is indexed only as an equality match with the equality index's own rule.
   */
  private List<Lookup> extensible(Filter filter) {
    String attribute = filter.getAttributeName();
    if (attribute == null || filter.getDNAttributes()) {
      return notIndexed(null);
    }
    AttributeIndex index = trusted(attribute, IndexType.EQUALITY);
    String rule = filter.getMatchingRuleID();
    if (index == null
        || (rule != null
            && !rule.equalsIgnoreCase(index.matchingRule().getEqualityMatchingRuleName())
            && !rule.equals(index.matchingRule().getEqualityMatchingRuleOID()))) {
      return notIndexed(attribute);
    }
    return exactValue(filter, IndexType.EQUALITY);
  }

  // ---------------------------------------------------------------- substrings

  private List<Lookup> substring(Filter filter) {
    if (lacks(filter.getAttributeName(), MatchingRules.Kind.SUBSTRING)) {
      return undefined("SUBSTR");
    }
    AttributeIndex substrings = trusted(filter.getAttributeName(), IndexType.SUBSTRING);
    AttributeIndex equality = trusted(filter.getAttributeName(), IndexType.EQUALITY);
    Set<IndexKey> exactKeys = new TreeSet<>();
    Set<IndexKey> shortFragments = new LinkedHashSet<>();
    List<Lookup> steps = new ArrayList<>();
    ASN1OctetString initial = filter.getRawSubInitialValue();
    if (initial != null) {
      byte[] normalized =
          substrings == null
              ? null
              : substrings.normalizeSubstring(initial, MatchingRule.SUBSTRING_TYPE_SUBINITIAL);
      boolean hasExactKeys =
          normalized != null && normalized.length >= substrings.substringLength();
      byte[] prefix =
          equality == null
              ? null
              : equality.normalizeSubstring(initial, MatchingRule.SUBSTRING_TYPE_SUBINITIAL);
      if (!hasExactKeys && prefix != null && prefix.length > 0) {
        steps.add(prefixRange(Lookup.Category.SUBSTRING_RANGE, equality, prefix));
      } else if (substrings != null) {
        addFragment(substrings, normalized, exactKeys, shortFragments);
      }
    }
    if (substrings != null) {
      for (ASN1OctetString any : filter.getRawSubAnyValues()) {
        addFragment(
            substrings,
            substrings.normalizeSubstring(any, MatchingRule.SUBSTRING_TYPE_SUBANY),
            exactKeys,
            shortFragments);
      }
      ASN1OctetString end = filter.getRawSubFinalValue();
      if (end != null) {
        addFragment(
            substrings,
            substrings.normalizeSubstring(end, MatchingRule.SUBSTRING_TYPE_SUBFINAL),
            exactKeys,
            shortFragments);
      }
      for (IndexKey key : exactKeys) {
        steps.add(
            exact(Lookup.Category.SUBSTRING_EXACT, substrings, key.bytes(), key.toString(), false));
      }
      for (IndexKey fragment : shortFragments) {
        steps.add(prefixRange(Lookup.Category.SUBSTRING_RANGE, substrings, fragment.bytes()));
      }
    }
    return steps.isEmpty() ? notIndexed(filter.getAttributeName()) : steps;
  }

  /** Adds a normalized fragment as its n-gram keys, or as a short fragment to range-scan. */
  private static void addFragment(
      AttributeIndex index,
      byte[] normalized,
      Set<IndexKey> exactKeys,
      Set<IndexKey> shortFragments) {
    if (normalized == null || normalized.length == 0) {
      return;
    }
    int length = index.substringLength();
    if (normalized.length < length) {
      shortFragments.add(new IndexKey(normalized));
      return;
    }
    for (int i = 0; i + length <= normalized.length; i++) {
      exactKeys.add(new IndexKey(Arrays.copyOfRange(normalized, i, i + length)));
    }
  }

  // ---------------------------------------------------------------- ranges

  private List<Lookup> range(Filter lower, Filter upper) {
    String attribute = (lower != null ? lower : upper).getAttributeName();
    if (lacks(attribute, MatchingRules.Kind.ORDERING)) {
      return undefined("ORDERING");
    }
    AttributeIndex index = orderedIndex(attribute);
    if (index == null) {
      return notIndexed(attribute);
    }
    byte[] from = lower == null ? null : index.normalize(lower.getRawAssertionValue());
    byte[] to = upper == null ? null : index.normalize(upper.getRawAssertionValue());
    if ((lower != null && from == null) || (upper != null && to == null)) {
      // An assertion value the rule cannot normalize matches nothing (phase 2 finds it undefined).
      return List.of(
          new Lookup(
              Lookup.Category.RANGE,
              null,
              label ->
                  new Evaluated(
                      IdSet.empty(), step(label, index).putCount("candidates", IdSet.empty()))));
    }
    String text =
        (from == null ? "]-∞" : "[" + display(index, lower.getRawAssertionValue(), from))
            + ","
            + (to == null ? "+∞[" : display(index, upper.getRawAssertionValue(), to) + "]");
    byte[] end = to == null ? null : Arrays.copyOf(to, to.length + 1);
    return List.of(rangeRead(Lookup.Category.RANGE, index, from, end, text));
  }

  /** The ordering index, or the equality index if its keys sort like the ordering rule. */
  private AttributeIndex orderedIndex(String attribute) {
    AttributeIndex ordering = trusted(attribute, IndexType.ORDERING);
    if (ordering != null) {
      return ordering;
    }
    AttributeIndex equality = trusted(attribute, IndexType.EQUALITY);
    if (equality == null || !KEYS_SORT_IN_ORDER.contains(equality.matchingRule().getClass())) {
      return null;
    }
    MatchingRule orderingRule =
        MatchingRules.strict(baseName(attribute), MatchingRules.Kind.ORDERING, schema);
    return orderingRule != null && orderingRule.getClass() == equality.matchingRule().getClass()
        ? equality
        : null;
  }

  private static Lookup prefixRange(Lookup.Category category, AttributeIndex index, byte[] prefix) {
    byte[] end = successor(prefix);
    String text = "[" + utf8(prefix) + "," + (end == null ? "+∞" : utf8(end)) + "[";
    return rangeRead(category, index, prefix, end, text);
  }

  /** The smallest key greater than every key starting with {@code prefix}; null if none. */
  static byte[] successor(byte[] prefix) {
    byte[] end = prefix.clone();
    for (int i = end.length - 1; i >= 0; i--) {
      if (end[i] != (byte) 0xFF) {
        end[i]++;
        return Arrays.copyOf(end, i + 1);
      }
    }
    return null;
  }

  // ---------------------------------------------------------------- reads

  /**
   * One key; {@code proves}: the key's IDs are exactly the filter's matches (see {@link
   * Evaluated#exact()}).
   */
  private static Lookup exact(
      Lookup.Category category, AttributeIndex index, byte[] key, String text, boolean proves) {
    return new Lookup(
        category,
        null,
        label -> {
          IdSet ids = key == null ? IdSet.empty() : index.read(key);
          return new Evaluated(
              ids,
              step(label, index).put("exact", text).putCount("candidates", ids),
              proves && ids.isDefined());
        });
  }

  private static Lookup rangeRead(
      Lookup.Category category, AttributeIndex index, byte[] from, byte[] to, String text) {
    return new Lookup(
        category,
        null,
        label -> {
          IdSet ids = index.readRange(from, to, IndexFilter.CURSOR_ENTRY_LIMIT);
          return new Evaluated(
              ids, step(label, index).put("range", text).putCount("candidates", ids));
        });
  }

  private static Trace step(String label, AttributeIndex index) {
    return labelled(label).put("index", index.name());
  }

  /** A step's trace, naming the filter it stands for when it stands for one. */
  private static Trace labelled(String label) {
    Trace trace = new Trace();
    if (label != null) {
      trace.put("filter", label);
    }
    return trace;
  }

  /**
   * A component on a type without the matching rule it needs is Undefined for every entry (RFC 4511
   * section 4.5.1.7), so no entry: an empty set read from no index, not an unindexed scan.
   */
  private static List<Lookup> undefined(String kind) {
    return List.of(
        new Lookup(
            Lookup.Category.FAST,
            null,
            label ->
                new Evaluated(
                    IdSet.empty(),
                    labelled(label)
                        .put("undefined", "no " + kind + " matching rule")
                        .putCount("candidates", IdSet.empty()))));
  }

  private boolean lacks(String attribute, MatchingRules.Kind kind) {
    return MatchingRules.strict(baseName(attribute), kind, schema) == null;
  }

  /**
   * A filter no trusted index answers. The trace names the attribute's untrusted indexes (new, or
   * their limit changed, or being rebuilt), which searches ignore until a rebuild completes.
   */
  private List<Lookup> notIndexed(String description) {
    IdSet all = IdSet.undefined(IdSet.Undefined.NOT_INDEXED);
    List<String> untrusted =
        description == null
            ? List.of()
            : container.indexes().stream()
                .filter(
                    i -> !i.isTrusted() && i.attribute().equalsIgnoreCase(baseName(description)))
                .map(AttributeIndex::name)
                .toList();
    return List.of(
        new Lookup(
            Lookup.Category.FAST,
            null,
            label -> {
              Trace trace = labelled(label);
              if (!untrusted.isEmpty()) {
                trace.put("untrusted", String.join(",", untrusted));
              }
              return new Evaluated(all, trace.putCount("candidates", all));
            }));
  }

  // ---------------------------------------------------------------- helpers

  /**
   * The trusted index of that type for the attribute (options ignored, any of its names), or null.
   */
  private AttributeIndex trusted(String description, IndexType type) {
    String base = baseName(description);
    AttributeIndex index = container.index(base, type);
    if (index == null) {
      AttributeTypeDefinition definition = schema.getAttributeType(base);
      if (definition != null) {
        for (String name : definition.getNames()) {
          index = index != null ? index : container.index(name, type);
        }
      }
    }
    return index != null && index.isTrusted() ? index : null;
  }

  static String baseName(String description) {
    int semicolon = description.indexOf(';');
    return semicolon < 0 ? description : description.substring(0, semicolon);
  }

  /**
   * How a range bound shows in the trace: the key's text, or the normalized value for binary
   * (integer) keys.
   */
  private static String display(AttributeIndex index, ASN1OctetString value, byte[] key) {
    if (index.indexType() != IndexType.ORDERING) {
      return utf8(key);
    }
    try {
      return index.matchingRule().normalize(value).stringValue();
    } catch (LDAPException e) {
      return value.stringValue();
    }
  }

  private static String utf8(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }
}

package io.rockds.storage.matching;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Filter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;

/**
 * A filter analysed once, for every entry a search (or any other caller) tests against it: the
 * evaluation with each attribute description resolved and each assertion value normalized ({@link
 * FilterEvaluator#compile}), the attribute descriptions it names (which an ACI must let the client
 * search), their lower-case base names (which computed attributes it tests), and the stored
 * attributes an entry needs to be evaluated ({@link #attributesTested}). One walk of the filter
 * gathers it all; the index reads of phase 1 are the only other walk a search makes of it.
 */
public final class PreparedFilter {
  private final FilterEvaluator evaluator;
  private final Filter filter;
  private final FilterEvaluator.Node root;

  /** The attribute descriptions as the filter writes them, in the order they appear. */
  private final Set<String> attributeNames;

  private final Set<String> lowerCaseBaseNames;

  /** Null when the filter may test any attribute (an extensible match naming none). */
  private final Predicate<String> attributesTested;

  private final boolean namesUndefinedType;

  PreparedFilter(FilterEvaluator evaluator, Filter filter) {
    this.evaluator = evaluator;
    this.filter = filter;
    List<String> leafNames = new ArrayList<>();
    this.root = evaluator.compile(filter, leafNames);
    Set<String> names = new LinkedHashSet<>();
    Set<String> baseNames = new HashSet<>();
    boolean testsAny = false;
    boolean undefinedType = false;
    for (String name : leafNames) {
      if (name == null) {
        testsAny = true;
      } else if (names.add(name)) {
        baseNames.add(Attribute.getBaseName(name).toLowerCase(Locale.ROOT));
        undefinedType |= !evaluator.isDefined(name);
      }
    }
    this.attributeNames = Collections.unmodifiableSet(names);
    this.lowerCaseBaseNames = baseNames;
    this.attributesTested = testsAny ? null : evaluator.attributesTested(names);
    this.namesUndefinedType = undefinedType;
  }

  public Filter filter() {
    return filter;
  }

  /** True only when the filter is TRUE for the entry (FALSE and UNDEFINED do not match). */
  public boolean matches(Entry entry) {
    return root.evaluate(entry, Deadline.NONE) == FilterEvaluator.Result.TRUE;
  }

  /**
   * {@link #matches(Entry)} that stops (not matching) once {@code deadline} has passed; the caller
   * must then check its time limit before taking FALSE for an answer.
   */
  public boolean matches(Entry entry, Deadline deadline) {
    return root.evaluate(entry, deadline) == FilterEvaluator.Result.TRUE;
  }

  public FilterEvaluator.Result evaluate(Entry entry, Deadline deadline) {
    return root.evaluate(entry, deadline);
  }

  /** The attribute descriptions the filter names, as it writes them (options included). */
  public Set<String> attributeNames() {
    return attributeNames;
  }

  /** True if the filter names an attribute of this base name (lower case, no options). */
  public boolean names(String lowerCaseBaseName) {
    return lowerCaseBaseNames.contains(lowerCaseBaseName);
  }

  /**
   * The stored attribute descriptions that evaluating the filter may read: those of its attributes,
   * of their subtypes, with any options; all of them for an extensible match that names no
   * attribute. An entry holding only these (and its DN) evaluates as the whole entry does.
   */
  public Predicate<String> attributesTested() {
    return attributesTested == null ? description -> true : attributesTested;
  }

  /**
   * True if evaluating the filter on an entry lacking its values stored apart (a group's members)
   * may read every one of them rather than test them by point reads: see {@link
   * FilterEvaluator#readsValuesApart}. Walks the filter: ask once, and only when it matters.
   */
  public boolean readsValuesApart() {
    return evaluator.readsValuesApart(filter);
  }

  /**
   * This filter for entries the schema governs ({@link FilterEvaluator#definedTypesOnly}): itself
   * unless it names a type the schema does not define, the only case where the two differ.
   */
  public PreparedFilter definedTypesOnly() {
    return evaluator.isDefinedTypesOnly() || !namesUndefinedType
        ? this
        : evaluator.definedTypesOnly().prepare(filter);
  }
}

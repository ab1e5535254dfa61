package io.rockds.server.security.aci;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPException;
import java.time.DayOfWeek;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Recursive-descent parser of OpenDJ's ACI syntax:
 *
 * <pre>
 * aci        = *target "(" "version 3.0" ";" "acl" quoted ";" 1*permission ")"
 * target     = "(" ("target" | "targetattr" | "targetfilter" | "targetscope") ("=" | "!=") quoted ")"
 * permission = ("allow" | "deny") "(" right *("," right) ")" bindRule ";"
 * bindRule   = and *("or" and);  and = unary *("and" unary);  unary = "not" unary | "(" bindRule ")" | rule
 * rule       = ("userdn" | "groupdn" | "roledn" | "userattr" | "authmethod" | "ip" | "dns" | "dayofweek")
 *              ("=" | "!=") quoted
 *            | ("timeofday" | "ssf") ("=" | "!=" | "<" | "<=" | ">" | ">=") quoted
 * </pre>
 *
 * Keywords OpenDJ knows but RockDS does not evaluate (targattrfilters, targetcontrol, extop) are
 * refused rather than ignored: an ACI that silently lost a clause could grant more than its author
 * meant.
 */
final class AciParser {
  private static final int MAX_NESTING = 32;

  /** The highest {@code ssf} OpenDJ accepts. */
  private static final int MAX_SSF = 1024;

  private static final int MAX_PARENT_LEVEL = 9;
  private static final Pattern ATTRIBUTE =
      Pattern.compile("[A-Za-z][A-Za-z0-9-]*|[0-9]+(\\.[0-9]+)+");
  private static final Pattern HOST_PATTERN =
      Pattern.compile(
          "\\*|(\\*\\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*");
  private static final Map<String, DayOfWeek> DAYS =
      Map.of(
          "sun",
          DayOfWeek.SUNDAY,
          "mon",
          DayOfWeek.MONDAY,
          "tue",
          DayOfWeek.TUESDAY,
          "wed",
          DayOfWeek.WEDNESDAY,
          "thu",
          DayOfWeek.THURSDAY,
          "fri",
          DayOfWeek.FRIDAY,
          "sat",
          DayOfWeek.SATURDAY);

  private final String text;
  private final DN holder;
  private int pos;
  private int nesting;

  AciParser(String text, DN holder) {
    this.text = text;
    this.holder = holder;
  }

  Aci parse() throws AciSyntaxException {
    DnPattern target = null;
    boolean targetNegated = false;
    TargetAttributes attributes = null;
    Filter filter = null;
    boolean filterNegated = false;
    TargetScope scope = null;
    skipSpace();
    while (true) {
      expect('(');
      skipSpace();
      String keyword = word();
      if (keyword.equalsIgnoreCase("version")) {
        break;
      }
      boolean negated = equalityOperator(keyword);
      String value = quoted();
      skipSpace();
      expect(')');
      skipSpace();
      switch (keyword.toLowerCase(Locale.ROOT)) {
        case "target" -> {
          if (target != null) {
            throw error("target given twice");
          }
          target = DnPattern.parse(ldapUrl(value));
          targetNegated = negated;
        }
        case "targetattr" -> {
          if (attributes != null) {
            throw error("targetattr given twice");
          }
          attributes = TargetAttributes.parse(value, negated);
        }
        case "targetfilter" -> {
          if (filter != null) {
            throw error("targetfilter given twice");
          }
          try {
            filter = Filter.create(value);
          } catch (LDAPException e) {
            throw error("invalid targetfilter \"" + value + "\": " + e.getExceptionMessage());
          }
          filterNegated = negated;
        }
        case "targetscope" -> {
          if (scope != null || negated) {
            throw error("targetscope given twice or with !=");
          }
          scope = TargetScope.parse(value);
          if (scope == null) {
            throw error(
                "targetscope \"" + value + "\" (expected: base, onelevel, subtree or subordinate)");
          }
        }
        default -> throw error("unsupported target keyword \"" + keyword + "\"");
      }
    }
    skipSpace();
    String version = word();
    if (!version.equals("3.0")) {
      throw error("version \"" + version + "\" (expected: 3.0)");
    }
    skipSpace();
    expect(';');
    skipSpace();
    if (!word().equalsIgnoreCase("acl")) {
      throw error("expected acl \"name\"");
    }
    skipSpace();
    String name = quoted();
    skipSpace();
    expect(';');
    List<Aci.Permission> permissions = new ArrayList<>();
    skipSpace();
    while (pos < text.length() && text.charAt(pos) != ')') {
      permissions.add(permission());
      skipSpace();
    }
    if (permissions.isEmpty()) {
      throw error("no allow or deny permission");
    }
    expect(')');
    skipSpace();
    if (pos != text.length()) {
      throw error("unexpected text after the closing parenthesis");
    }
    AciTargets targets =
        new AciTargets(
            target,
            targetNegated,
            attributes,
            filter,
            filterNegated,
            scope == null ? TargetScope.SUBTREE : scope);
    return new Aci(text, holder, targets, name, List.copyOf(permissions));
  }

  private Aci.Permission permission() throws AciSyntaxException {
    String kind = word().toLowerCase(Locale.ROOT);
    if (!kind.equals("allow") && !kind.equals("deny")) {
      throw error("expected allow or deny, found \"" + kind + "\"");
    }
    skipSpace();
    expect('(');
    Set<Right> rights = EnumSet.noneOf(Right.class);
    while (true) {
      skipSpace();
      String right = word();
      Set<Right> named = Right.parse(right);
      if (named == null) {
        throw error("unknown right \"" + right + "\"");
      }
      rights.addAll(named);
      skipSpace();
      if (peek() == ',') {
        pos++;
      } else {
        break;
      }
    }
    expect(')');
    skipSpace();
    BindRule rule = orRule();
    skipSpace();
    expect(';');
    return new Aci.Permission(kind.equals("allow"), Set.copyOf(rights), rule);
  }

  private BindRule orRule() throws AciSyntaxException {
    List<BindRule> rules = new ArrayList<>(List.of(andRule()));
    while (nextWordIs("or")) {
      rules.add(andRule());
    }
    return rules.size() == 1 ? rules.get(0) : new BindRule.Or(List.copyOf(rules));
  }

  private BindRule andRule() throws AciSyntaxException {
    List<BindRule> rules = new ArrayList<>(List.of(unaryRule()));
    while (nextWordIs("and")) {
      rules.add(unaryRule());
    }
    return rules.size() == 1 ? rules.get(0) : new BindRule.And(List.copyOf(rules));
  }

  private BindRule unaryRule() throws AciSyntaxException {
    skipSpace();
    if (++nesting > MAX_NESTING) {
      throw error("bind rule nested deeper than " + MAX_NESTING);
    }
    try {
      if (peek() == '(') {
        pos++;
        BindRule inner = orRule();
        skipSpace();
        expect(')');
        return inner;
      }
      if (nextWordIs("not")) {
        return new BindRule.Not(unaryRule());
      }
      return keywordRule();
    } finally {
      nesting--;
    }
  }

  private BindRule keywordRule() throws AciSyntaxException {
    String keyword = word().toLowerCase(Locale.ROOT);
    if (keyword.equals("timeofday") || keyword.equals("ssf")) {
      Comparison comparison = comparison();
      String value = quoted();
      return keyword.equals("ssf")
          ? new BindRule.Ordered(BindRule.Ordered.Quantity.SSF, comparison, ssf(value))
          : new BindRule.Ordered(
              BindRule.Ordered.Quantity.TIME_OF_DAY, comparison, timeOfDay(value));
    }
    if (keyword.isEmpty()) {
      throw error("expected a bind rule");
    }
    boolean negated = equalityOperator(keyword);
    String value = quoted();
    return switch (keyword) {
      case "userdn" -> userDn(value, negated);
      case "groupdn", "roledn" -> groupDn(value, negated);
      case "userattr" -> userAttr(value, negated);
      case "authmethod" -> authMethod(value, negated);
      case "ip" -> ip(value, negated);
      case "dns" -> dns(value, negated);
      case "dayofweek" -> dayOfWeek(value, negated);
      default -> throw error("unsupported bind rule keyword \"" + keyword + "\"");
    };
  }

  private BindRule userDn(String value, boolean negated) throws AciSyntaxException {
    List<BindRule.UserUrl> urls = new ArrayList<>();
    for (String part : value.split("\\|\\|")) {
      String dn = ldapUrl(part.trim());
      BindRule.UserUrl.Kind kind =
          switch (dn.trim().toLowerCase(Locale.ROOT)) {
            case "anyone" -> BindRule.UserUrl.Kind.ANYONE;
            case "all" -> BindRule.UserUrl.Kind.ALL;
            case "self" -> BindRule.UserUrl.Kind.SELF;
            case "parent" -> BindRule.UserUrl.Kind.PARENT;
            default -> BindRule.UserUrl.Kind.DN;
          };
      urls.add(
          new BindRule.UserUrl(
              kind, kind == BindRule.UserUrl.Kind.DN ? DnPattern.parse(dn) : null));
    }
    return new BindRule.UserDn(List.copyOf(urls), negated);
  }

  private BindRule groupDn(String value, boolean negated) throws AciSyntaxException {
    List<DN> groups = new ArrayList<>();
    for (String part : value.split("\\|\\|")) {
      DN dn = DnPattern.parse(ldapUrl(part.trim())).exactDn();
      if (dn == null) {
        throw error("groupdn cannot hold wildcards: \"" + part.trim() + "\"");
      }
      groups.add(dn);
    }
    return new BindRule.GroupDn(List.copyOf(groups), negated);
  }

  private BindRule authMethod(String value, boolean negated) throws AciSyntaxException {
    String method = value.trim().toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
    if (!method.equals("none")
        && !method.equals("simple")
        && !method.equals("ssl")
        && !method.equals("sasl")
        && !method.startsWith("sasl ")) {
      throw error("authmethod \"" + value + "\" (expected: none, simple, ssl or sasl [mechanism])");
    }
    return new BindRule.AuthMethod(method, negated);
  }

  /** {@code [parent[0,1,...].]attribute#(USERDN|GROUPDN|ROLEDN|LDAPURL|value)}. */
  private BindRule userAttr(String value, boolean negated) throws AciSyntaxException {
    int hash = value.lastIndexOf('#');
    if (hash < 0) {
      throw error(
          "userattr \""
              + value
              + "\" (expected: attribute#USERDN, #GROUPDN, #ROLEDN, #LDAPURL or #value)");
    }
    String attribute = value.substring(0, hash).trim();
    String bindType = value.substring(hash + 1).trim();
    List<Integer> levels = List.of(0);
    if (attribute.regionMatches(true, 0, "parent[", 0, 7)) {
      int close = attribute.indexOf("].");
      if (close < 0) {
        throw error("userattr \"" + value + "\" (expected: parent[levels].attribute#type)");
      }
      levels = parentLevels(attribute.substring(7, close), value);
      attribute = attribute.substring(close + 2).trim();
    }
    if (!ATTRIBUTE.matcher(attribute).matches()) {
      throw error("userattr \"" + value + "\": invalid attribute name \"" + attribute + "\"");
    }
    BindRule.UserAttr.Kind kind =
        switch (bindType.toUpperCase(Locale.ROOT)) {
          case "USERDN" -> BindRule.UserAttr.Kind.USERDN;
          case "GROUPDN", "ROLEDN" -> BindRule.UserAttr.Kind.GROUPDN;
          case "LDAPURL" -> BindRule.UserAttr.Kind.LDAPURL;
          default -> BindRule.UserAttr.Kind.VALUE;
        };
    if (bindType.isEmpty()) {
      throw error("userattr \"" + value + "\": empty value after '#'");
    }
    boolean inherited = !levels.equals(List.of(0));
    if (inherited
        && (kind == BindRule.UserAttr.Kind.LDAPURL || kind == BindRule.UserAttr.Kind.VALUE)) {
      throw error(
          "userattr \""
              + value
              + "\": parent[] inheritance applies to USERDN, GROUPDN and ROLEDN only");
    }
    return new BindRule.UserAttr(
        attribute, kind, kind == BindRule.UserAttr.Kind.VALUE ? bindType : null, levels, negated);
  }

  private List<Integer> parentLevels(String list, String value) throws AciSyntaxException {
    List<Integer> levels = new ArrayList<>();
    for (String part : list.split(",")) {
      String p = part.trim();
      if (!p.matches("[0-9]")
          || Integer.parseInt(p) > MAX_PARENT_LEVEL
          || levels.contains(Integer.parseInt(p))) {
        throw error(
            "userattr \""
                + value
                + "\": parent levels must be distinct digits 0 to "
                + MAX_PARENT_LEVEL);
      }
      levels.add(Integer.parseInt(p));
    }
    return List.copyOf(levels);
  }

  private BindRule dns(String value, boolean negated) throws AciSyntaxException {
    List<String> patterns = new ArrayList<>();
    for (String part : value.split(",")) {
      String p = part.trim().toLowerCase(Locale.ROOT);
      if (!HOST_PATTERN.matcher(p).matches()) {
        throw error("dns pattern \"" + part.trim() + "\" (expected: a host name, *.domain or *)");
      }
      patterns.add(p);
    }
    return new BindRule.Dns(List.copyOf(patterns), negated);
  }

  private BindRule dayOfWeek(String value, boolean negated) throws AciSyntaxException {
    Set<DayOfWeek> days = EnumSet.noneOf(DayOfWeek.class);
    for (String part : value.split(",")) {
      DayOfWeek day = DAYS.get(part.trim().toLowerCase(Locale.ROOT));
      if (day == null) {
        throw error(
            "dayofweek \"" + part.trim() + "\" (expected: sun, mon, tue, wed, thu, fri or sat)");
      }
      days.add(day);
    }
    return new BindRule.DayOfWeekRule(Set.copyOf(days), negated);
  }

  /** {@code hhmm}, 0000 to 2359. */
  private int timeOfDay(String value) throws AciSyntaxException {
    String v = value.trim();
    if (v.matches("[0-9]{4}")) {
      int hhmm = Integer.parseInt(v);
      if (hhmm / 100 < 24 && hhmm % 100 < 60) {
        return hhmm;
      }
    }
    throw error("timeofday \"" + value + "\" (expected: hhmm from 0000 to 2359)");
  }

  private int ssf(String value) throws AciSyntaxException {
    String v = value.trim();
    if (v.matches("[0-9]{1,4}") && Integer.parseInt(v) <= MAX_SSF) {
      return Integer.parseInt(v);
    }
    throw error("ssf \"" + value + "\" (expected: an integer from 0 to " + MAX_SSF + ")");
  }

  private BindRule ip(String value, boolean negated) throws AciSyntaxException {
    List<IpPattern> patterns = new ArrayList<>();
    for (String part : value.split(",")) {
      patterns.add(IpPattern.parse(part));
    }
    return new BindRule.Ip(List.copyOf(patterns), negated);
  }

  /** The DN of an {@code ldap:///<dn>} URL; URLs with a host, scope or filter are not supported. */
  private String ldapUrl(String value) throws AciSyntaxException {
    String v = value.trim();
    if (!v.regionMatches(true, 0, "ldap:///", 0, 8)) {
      throw error("\"" + v + "\" is not an ldap:/// URL");
    }
    String dn = v.substring(8);
    if (dn.contains("?")) {
      throw error("LDAP URLs with attributes, scope or filter are not supported: \"" + v + "\"");
    }
    return dn;
  }

  // ---------------------------------------------------------------- lexing

  private boolean nextWordIs(String expected) {
    skipSpace();
    int end = pos;
    while (end < text.length() && Character.isLetter(text.charAt(end))) {
      end++;
    }
    if (text.substring(pos, end).equalsIgnoreCase(expected)) {
      pos = end;
      return true;
    }
    return false;
  }

  /** Reads {@code =} or {@code !=}, the only operators of {@code keyword}; true for {@code !=}. */
  private boolean equalityOperator(String keyword) throws AciSyntaxException {
    Comparison comparison = comparison();
    if (comparison.isOrdered()) {
      throw error(keyword + " takes = or !=, not " + comparison.symbol());
    }
    return comparison == Comparison.NOT_EQUAL;
  }

  /** Reads {@code =}, {@code !=}, {@code <}, {@code <=}, {@code >} or {@code >=}. */
  private Comparison comparison() throws AciSyntaxException {
    skipSpace();
    char first = peek();
    Comparison comparison;
    if (first == '!') {
      pos++;
      expect('=');
      comparison = Comparison.NOT_EQUAL;
    } else if (first == '<' || first == '>') {
      pos++;
      boolean orEqual = peek() == '=';
      if (orEqual) {
        pos++;
      }
      comparison =
          first == '<'
              ? (orEqual ? Comparison.LESS_OR_EQUAL : Comparison.LESS)
              : (orEqual ? Comparison.GREATER_OR_EQUAL : Comparison.GREATER);
    } else {
      expect('=');
      comparison = Comparison.EQUAL;
    }
    skipSpace();
    return comparison;
  }

  private String word() {
    int start = pos;
    while (pos < text.length()
        && (Character.isLetterOrDigit(text.charAt(pos)) || text.charAt(pos) == '.')) {
      pos++;
    }
    return text.substring(start, pos);
  }

  private String quoted() throws AciSyntaxException {
    expect('"');
    StringBuilder sb = new StringBuilder();
    while (pos < text.length() && text.charAt(pos) != '"') {
      char c = text.charAt(pos++);
      if (c == '\\' && pos < text.length() && text.charAt(pos) == '"') {
        c = text.charAt(pos++);
      }
      sb.append(c);
    }
    expect('"');
    return sb.toString();
  }

  private char peek() {
    return pos < text.length() ? text.charAt(pos) : '\0';
  }

  private void expect(char c) throws AciSyntaxException {
    if (peek() != c) {
      throw error("expected '" + c + "'");
    }
    pos++;
  }

  private void skipSpace() {
    while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
      pos++;
    }
  }

  private AciSyntaxException error(String message) {
    return new AciSyntaxException(message + " at position " + pos);
  }
}

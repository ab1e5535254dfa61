package io.rockds.tools.makeldif;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.RDN;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the MakeLDIF template language, line by line:
 *
 * <pre>
 * # comment
 * define name=value              constants, used as [name] on any later line
 *
 * branch: dn                     an entry with a fixed DN (blocks end at a blank line)
 * subordinateTemplate: name:count
 * attr: value
 *
 * template: name
 * extends: parentName
 * rdnAttr: attr[+attr...]
 * subordinateTemplate: name:count
 * attr: value                    or attr:: base64value
 * </pre>
 *
 * Constants given on the command line ({@code -c name=value}) replace the file's {@code define}s.
 * Values are parsed by {@link ValueParser}. Every error names its line.
 */
final class TemplateParser {
  private static final Pattern CONSTANT = Pattern.compile("(?<!\\\\)\\[([A-Za-z0-9_.-]+)\\]");

  private final Map<String, String> constants = new HashMap<>();
  private final Map<String, String> overrides = new HashMap<>();
  private final ValueParser values;
  private final List<BlockDraft> branches = new ArrayList<>();
  private final Map<String, BlockDraft> templates = new LinkedHashMap<>();

  /** A branch or template as written, before {@code extends} and names are resolved. */
  private static final class BlockDraft {
    final String name;
    final int lineNumber;
    String parentName;
    List<String> rdnAttributes;
    final List<TemplateLine> lines = new ArrayList<>();
    final List<Subordinate> subordinates = new ArrayList<>();

    BlockDraft(String name, int lineNumber) {
      this.name = name;
      this.lineNumber = lineNumber;
    }
  }

  TemplateParser(Map<String, String> constantOverrides, TemplateResources resources) {
    constantOverrides.forEach((name, value) -> overrides.put(name.toLowerCase(Locale.ROOT), value));
    constants.putAll(overrides);
    this.values = new ValueParser(new TagFactory(resources));
  }

  TemplateFile parse(List<String> lines) {
    BlockDraft block = null;
    boolean inTemplate = false;
    for (int index = 0; index < lines.size(); index++) {
      int lineNumber = index + 1;
      String raw = lines.get(index);
      if (raw.startsWith("#")) {
        continue;
      }
      if (raw.isBlank()) {
        block = null;
        continue;
      }
      String line = substituteConstants(raw);
      String lower = line.toLowerCase(Locale.ROOT);
      if (lower.startsWith("branch:")) {
        block = new BlockDraft(afterColon(line), lineNumber);
        branches.add(block);
        inTemplate = false;
      } else if (lower.startsWith("template:")) {
        block = newTemplate(afterColon(line), lineNumber);
        inTemplate = true;
      } else if (block == null) {
        parseTopLevel(line, lower, lineNumber);
      } else if (lower.startsWith("subordinatetemplate:")) {
        block.subordinates.add(subordinate(afterColon(line), lineNumber));
      } else if (inTemplate && lower.startsWith("extends:")) {
        block.parentName = afterColon(line);
      } else if (inTemplate && lower.startsWith("rdnattr:")) {
        block.rdnAttributes = rdnAttributes(afterColon(line), lineNumber);
      } else {
        block.lines.add(attributeLine(line, lineNumber));
      }
    }
    return resolve();
  }

  private void parseTopLevel(String line, String lower, int lineNumber) {
    if (lower.startsWith("define ")) {
      int equals = line.indexOf('=');
      String name = equals < 0 ? "" : line.substring("define ".length(), equals).trim();
      if (name.isEmpty()) {
        throw new TemplateException(lineNumber, "expected 'define name=value', found: " + line);
      }
      String key = name.toLowerCase(Locale.ROOT);
      if (!overrides.containsKey(key)) {
        constants.put(key, line.substring(equals + 1));
      }
    } else if (lower.startsWith("include ")) {
      throw new TemplateException(lineNumber, "custom tag classes ('include') are not supported");
    } else {
      throw new TemplateException(
          lineNumber,
          "expected 'define', 'branch:' or 'template:' (or a blank line), found: " + line);
    }
  }

  private String substituteConstants(String line) {
    Matcher matcher = CONSTANT.matcher(line);
    StringBuilder result = new StringBuilder(line.length());
    while (matcher.find()) {
      String value = constants.get(matcher.group(1).toLowerCase(Locale.ROOT));
      matcher.appendReplacement(
          result, Matcher.quoteReplacement(value != null ? value : matcher.group()));
    }
    return matcher.appendTail(result).toString();
  }

  private static String afterColon(String line) {
    return line.substring(line.indexOf(':') + 1).trim();
  }

  private BlockDraft newTemplate(String name, int lineNumber) {
    if (name.isEmpty()) {
      throw new TemplateException(lineNumber, "template has no name");
    }
    BlockDraft draft = new BlockDraft(name, lineNumber);
    BlockDraft previous = templates.putIfAbsent(name.toLowerCase(Locale.ROOT), draft);
    if (previous != null) {
      throw new TemplateException(
          lineNumber, "template '" + name + "' is already defined at line " + previous.lineNumber);
    }
    return draft;
  }

  private static Subordinate subordinate(String spec, int lineNumber) {
    int colon = spec.lastIndexOf(':');
    if (colon <= 0) {
      throw new TemplateException(
          lineNumber, "expected 'subordinateTemplate: name:count', found: " + spec);
    }
    long count;
    try {
      count = Long.parseLong(spec.substring(colon + 1).trim());
    } catch (NumberFormatException e) {
      throw new TemplateException(
          lineNumber,
          "subordinateTemplate count '"
              + spec.substring(colon + 1)
              + "' is not an integer (an undefined [constant]?)");
    }
    if (count < 0) {
      throw new TemplateException(
          lineNumber, "subordinateTemplate count " + count + " (expected: >= 0)");
    }
    return new Subordinate(spec.substring(0, colon).trim(), count, lineNumber);
  }

  private static List<String> rdnAttributes(String spec, int lineNumber) {
    List<String> names = new ArrayList<>();
    for (String name : spec.split("\\+", -1)) {
      if (!TemplateLine.isAttributeName(name.trim())) {
        throw new TemplateException(lineNumber, "rdnAttr '" + spec + "' is not attr[+attr...]");
      }
      names.add(name.trim());
    }
    return names;
  }

  private TemplateLine attributeLine(String line, int lineNumber) {
    int colon = line.indexOf(':');
    if (colon <= 0) {
      throw new TemplateException(lineNumber, "expected 'attribute: value', found: " + line);
    }
    String attribute = line.substring(0, colon);
    if (!TemplateLine.isAttributeName(attribute)) {
      throw new TemplateException(lineNumber, "'" + attribute + "' is not an attribute name");
    }
    boolean base64 = colon + 1 < line.length() && line.charAt(colon + 1) == ':';
    String value = line.substring(colon + (base64 ? 2 : 1)).stripLeading();
    return new TemplateLine(
        attribute,
        attribute.toLowerCase(Locale.ROOT),
        base64,
        values.parseLine(value, lineNumber),
        lineNumber);
  }

  private TemplateFile resolve() {
    if (branches.isEmpty()) {
      throw new TemplateException(0, "the template defines no branch");
    }
    Map<String, Template> resolved = new HashMap<>();
    for (BlockDraft draft : templates.values()) {
      resolveTemplate(draft, resolved, new ArrayList<>());
    }
    List<Branch> resolvedBranches = new ArrayList<>();
    for (BlockDraft draft : branches) {
      checkSubordinates(draft.subordinates, resolved);
      resolvedBranches.add(branch(draft));
    }
    for (Template template : resolved.values()) {
      checkSubordinates(template.subordinates(), resolved);
      checkNoCycle(template, resolved, new ArrayList<>());
    }
    return new TemplateFile(resolvedBranches, resolved);
  }

  private Template resolveTemplate(
      BlockDraft draft, Map<String, Template> resolved, List<String> extending) {
    String key = draft.name.toLowerCase(Locale.ROOT);
    Template done = resolved.get(key);
    if (done != null) {
      return done;
    }
    if (extending.contains(key)) {
      throw new TemplateException(draft.lineNumber, "template '" + draft.name + "' extends itself");
    }
    extending.add(key);
    List<TemplateLine> lines = new ArrayList<>();
    List<Subordinate> subordinates = new ArrayList<>();
    List<String> rdnAttributes = draft.rdnAttributes;
    List<TemplateLine> parentRdnLines = null;
    if (draft.parentName != null) {
      BlockDraft parentDraft = templates.get(draft.parentName.toLowerCase(Locale.ROOT));
      if (parentDraft == null) {
        throw new TemplateException(
            draft.lineNumber,
            "template '" + draft.name + "' extends unknown template '" + draft.parentName + "'");
      }
      Template parent = resolveTemplate(parentDraft, resolved, extending);
      lines.addAll(parent.lines());
      subordinates.addAll(parent.subordinates());
      parentRdnLines = parent.rdnLines();
    }
    lines.addAll(draft.lines);
    subordinates.addAll(draft.subordinates);
    checkBase64Consistency(lines);
    List<TemplateLine> rdnLines;
    if (rdnAttributes != null) {
      rdnLines = rdnLines(draft, rdnAttributes, lines);
    } else if (parentRdnLines != null) {
      rdnLines = parentRdnLines;
    } else {
      throw new TemplateException(draft.lineNumber, "template '" + draft.name + "' has no rdnAttr");
    }
    Template template = new Template(draft.name, rdnLines, lines, subordinates, draft.lineNumber);
    resolved.put(key, template);
    return template;
  }

  private static List<TemplateLine> rdnLines(
      BlockDraft draft, List<String> rdnAttributes, List<TemplateLine> lines) {
    List<TemplateLine> rdnLines = new ArrayList<>();
    for (String attribute : rdnAttributes) {
      String key = attribute.toLowerCase(Locale.ROOT);
      TemplateLine line =
          lines.stream()
              .filter(l -> l.key().equals(key))
              .findFirst()
              .orElseThrow(
                  () ->
                      new TemplateException(
                          draft.lineNumber,
                          "template '"
                              + draft.name
                              + "' has rdnAttr "
                              + attribute
                              + " but no line for it"));
      if (line.value().hasPartition() || line.base64()) {
        throw new TemplateException(
            line.lineNumber(), "rdnAttr " + attribute + " must be a single text value");
      }
      rdnLines.add(line);
    }
    return rdnLines;
  }

  /**
   * An attribute is either text or base64 throughout an entry, as its LDIF form is one or the
   * other.
   */
  private static void checkBase64Consistency(List<TemplateLine> lines) {
    Map<String, TemplateLine> first = new HashMap<>();
    for (TemplateLine line : lines) {
      TemplateLine previous = first.putIfAbsent(line.key(), line);
      if (previous != null && previous.base64() != line.base64()) {
        throw new TemplateException(
            line.lineNumber(),
            line.attribute()
                + " mixes 'attr:' and 'attr::' lines (see line "
                + previous.lineNumber()
                + ")");
      }
    }
  }

  private Branch branch(BlockDraft draft) {
    DN dn;
    try {
      dn = new DN(draft.name);
    } catch (LDAPException e) {
      throw new TemplateException(
          draft.lineNumber, "branch DN '" + draft.name + "' is not valid: " + e.getMessage());
    }
    if (dn.isNullDN()) {
      throw new TemplateException(draft.lineNumber, "branch has no DN");
    }
    checkBase64Consistency(draft.lines);
    RDN rdn = dn.getRDN();
    List<String[]> rdnValues = new ArrayList<>();
    for (int i = 0; i < rdn.getAttributeNames().length; i++) {
      rdnValues.add(new String[] {rdn.getAttributeNames()[i], rdn.getAttributeValues()[i]});
    }
    boolean setsObjectClass =
        draft.lines.stream().anyMatch(line -> line.key().equals("objectclass"));
    List<String> objectClasses =
        setsObjectClass
            ? List.of()
            : List.of("top", structuralClassFor(rdn.getAttributeNames()[0]));
    String parentDn = dn.getParentString();
    return new Branch(
        rdn.toString(),
        parentDn == null ? "" : parentDn,
        rdnValues,
        objectClasses,
        List.copyOf(draft.lines),
        List.copyOf(draft.subordinates));
  }

  private static String structuralClassFor(String rdnAttribute) {
    switch (rdnAttribute.toLowerCase(Locale.ROOT)) {
      case "dc":
        return "domain";
      case "o":
        return "organization";
      case "ou":
        return "organizationalUnit";
      case "c":
        return "country";
      case "l":
        return "locality";
      default:
        return "extensibleObject";
    }
  }

  private static void checkSubordinates(
      List<Subordinate> subordinates, Map<String, Template> resolved) {
    for (Subordinate subordinate : subordinates) {
      if (!resolved.containsKey(subordinate.templateName().toLowerCase(Locale.ROOT))) {
        throw new TemplateException(
            subordinate.lineNumber(),
            "subordinateTemplate names unknown template '" + subordinate.templateName() + "'");
      }
    }
  }

  /** A template below itself would generate forever. */
  private static void checkNoCycle(
      Template template, Map<String, Template> resolved, List<String> path) {
    if (path.contains(template.name())) {
      throw new TemplateException(
          template.lineNumber(),
          "template '" + template.name() + "' is its own subordinateTemplate (directly or not)");
    }
    path.add(template.name());
    for (Subordinate subordinate : template.subordinates()) {
      if (subordinate.count() > 0) {
        checkNoCycle(
            resolved.get(subordinate.templateName().toLowerCase(Locale.ROOT)), resolved, path);
      }
    }
    path.remove(path.size() - 1);
  }
}

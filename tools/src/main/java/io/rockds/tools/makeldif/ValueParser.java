package io.rockds.tools.makeldif;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Splits an attribute value template into {@link Tag}s: {@code <name:args>} tags (which may
 * nest, as in {@code <base64:<random:alphanumeric:1500>>}), {@code {attr}} / {@code {attr:N}}
 * references and literal text. A backslash makes the next character literal, so
 * {@code \<}, {@code \{} and {@code \\} write {@code <}, <code>{</code> and {@code \}.
 */
final class ValueParser {
  private final TagFactory tags;

  ValueParser(TagFactory tags) {
    this.tags = tags;
  }

  /** Parses the value of a template line; at most one {@code <partition>} tag is allowed. */
  ValueTemplate parseLine(String text, int lineNumber) {
    List<Tag> before = new ArrayList<>();
    List<Tag> after = new ArrayList<>();
    PartitionTag partition = null;
    for (Tag tag : parse(text, lineNumber)) {
      if (tag instanceof PartitionTag found) {
        if (partition != null) {
          throw new TemplateException(lineNumber, "only one <partition> tag is allowed per line");
        }
        partition = found;
      } else {
        (partition == null ? before : after).add(tag);
      }
    }
    return new ValueTemplate(before, partition, after);
  }

  /** Parses text nested in another tag, where a multi-valued {@code <partition>} makes no sense. */
  ValueTemplate parseNested(String text, int lineNumber) {
    List<Tag> parsed = parse(text, lineNumber);
    if (parsed.stream().anyMatch(PartitionTag.class::isInstance)) {
      throw new TemplateException(lineNumber, "<partition> cannot be nested in another tag");
    }
    return ValueTemplate.of(parsed);
  }

  private List<Tag> parse(String text, int lineNumber) {
    List<Tag> result = new ArrayList<>();
    StringBuilder literal = new StringBuilder();
    int i = 0;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (c == '\\' && i + 1 < text.length()) {
        literal.append(text.charAt(i + 1));
        i += 2;
      } else if (c == '<') {
        int end = closingAngle(text, i, lineNumber);
        flush(literal, result);
        result.add(tags.create(text.substring(i + 1, end), lineNumber, this));
        i = end + 1;
      } else if (c == '{') {
        int end = text.indexOf('}', i);
        if (end < 0) {
          throw new TemplateException(
              lineNumber, "'{' at column " + (i + 1) + " has no closing '}': " + text);
        }
        flush(literal, result);
        result.add(attributeReference(text.substring(i + 1, end), lineNumber));
        i = end + 1;
      } else {
        literal.append(c);
        i++;
      }
    }
    flush(literal, result);
    return result;
  }

  /** Index of the '>' closing the '<' at {@code open}, skipping nested tags and escapes. */
  private static int closingAngle(String text, int open, int lineNumber) {
    int depth = 0;
    for (int i = open; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\\') {
        i++;
      } else if (c == '<') {
        depth++;
      } else if (c == '>' && --depth == 0) {
        return i;
      }
    }
    throw new TemplateException(
        lineNumber, "'<' at column " + (open + 1) + " has no closing '>': " + text);
  }

  private static Tag attributeReference(String reference, int lineNumber) {
    int colon = reference.indexOf(':');
    String name = colon < 0 ? reference : reference.substring(0, colon);
    if (!TemplateLine.isAttributeName(name)) {
      throw new TemplateException(lineNumber, "bad attribute reference {" + reference + "}");
    }
    int maxLength = AttributeValueTag.WHOLE_VALUE;
    if (colon >= 0) {
      maxLength =
          TagArguments.parseInt(reference.substring(colon + 1), "{" + reference + "}", lineNumber);
      if (maxLength <= 0) {
        throw new TemplateException(lineNumber, "{" + reference + "}: length must be > 0");
      }
    }
    return new AttributeValueTag(name.toLowerCase(Locale.ROOT), maxLength);
  }

  private static void flush(StringBuilder literal, List<Tag> result) {
    if (literal.length() > 0) {
      result.add(new LiteralText(literal.toString()));
      literal.setLength(0);
    }
  }
}

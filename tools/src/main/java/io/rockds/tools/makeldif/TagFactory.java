package io.rockds.tools.makeldif;

import java.util.Locale;

/**
 * Turns the body of a {@code <...>} tag into a {@link Tag}. Tag names are case-insensitive. The
 * tags are those of OpenDJ's MakeLDIF ({@code first}, {@code last}, {@code sequential}, {@code
 * random}, {@code presence}, {@code ifpresent}, {@code ifabsent}, {@code list}, {@code file},
 * {@code guid}, {@code DN}, {@code _DN}, {@code underscoreDN}, {@code ParentDN}, {@code _ParentDN},
 * {@code RDN}), SLAMD's {@code base64}, and RockDS's multi-valued {@code partition} (see {@link
 * PartitionTag}).
 */
final class TagFactory {
  private final TemplateResources resources;

  TagFactory(TemplateResources resources) {
    this.resources = resources;
  }

  Tag create(String body, int lineNumber, ValueParser parser) {
    int colon = body.indexOf(':');
    String name = (colon < 0 ? body : body.substring(0, colon)).trim();
    String rest = colon < 0 ? null : body.substring(colon + 1);
    TagArguments args = new TagArguments(name, rest, lineNumber);
    switch (name.toLowerCase(Locale.ROOT)) {
      case "first":
        args.expectCount(0, 0, "no arguments");
        return new WordListTag(resources.wordList("first.names", lineNumber), false);
      case "last":
        args.expectCount(0, 0, "no arguments");
        return new WordListTag(resources.wordList("last.names", lineNumber), false);
      case "file":
        return WordListTag.file(args, resources);
      case "list":
        return WordListTag.list(args);
      case "sequential":
        return SequentialTag.parse(args);
      case "random":
        return RandomTags.parse(args);
      case "presence":
        return PresenceTag.parse(args);
      case "ifpresent":
        return ConditionTag.parse(args, true);
      case "ifabsent":
        return ConditionTag.parse(args, false);
      case "guid":
        args.expectCount(0, 0, "no arguments");
        return new GuidTag();
      case "dn":
        return DnTag.parse(DnTag.Kind.DN, args);
      case "_dn":
      case "underscoredn":
        return DnTag.parse(DnTag.Kind.UNDERSCORE_DN, args);
      case "parentdn":
        return DnTag.parse(DnTag.Kind.PARENT_DN, args);
      case "_parentdn":
        return DnTag.parse(DnTag.Kind.UNDERSCORE_PARENT_DN, args);
      case "rdn":
        return DnTag.parse(DnTag.Kind.RDN, args);
      case "base64":
        if (rest == null) {
          throw args.error("expected <base64:text>");
        }
        return new Base64Tag(parser.parseNested(rest, lineNumber));
      case "partition":
        return PartitionTag.parse(args);
      default:
        throw new TemplateException(lineNumber, "unknown tag <" + body + ">");
    }
  }
}

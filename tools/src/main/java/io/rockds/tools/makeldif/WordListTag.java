package io.rockds.tools.makeldif;

import java.util.Arrays;
import java.util.Locale;

/**
 * A value taken from a list: {@code <first>}, {@code <last>} (the built-in name files), {@code
 * <file:path[:random|:sequential]>} (one value per line of a file) and {@code <list:a:b;3:c>}
 * (inline values, {@code ;weight} optional). Random picks honour weights; sequential ones walk the
 * list in order and start over at its end.
 */
final class WordListTag implements Tag {
  private final WordList list;
  private final boolean sequential;

  WordListTag(WordList list, boolean sequential) {
    this.list = list;
    this.sequential = sequential;
  }

  static WordListTag file(TagArguments args, TemplateResources resources) {
    args.expectCount(1, 2, "<file:path> or <file:path:random|sequential>");
    boolean sequential = false;
    if (args.size() == 2) {
      String mode = args.get(1).toLowerCase(Locale.ROOT);
      if (!mode.equals("random") && !mode.equals("sequential")) {
        throw args.error("'" + args.get(1) + "' is neither random nor sequential");
      }
      sequential = mode.equals("sequential");
    }
    return new WordListTag(resources.wordList(args.get(0).trim(), args.lineNumber()), sequential);
  }

  static WordListTag list(TagArguments args) {
    args.expectCount(1, Integer.MAX_VALUE, "<list:value[;weight]:...>");
    String[] values = new String[args.size()];
    Arrays.setAll(values, args::get);
    return new WordListTag(
        WordList.parse(Arrays.asList(values), "<list>", args.lineNumber()), false);
  }

  @Override
  public boolean append(EntryContext entry, StringBuilder value) {
    if (sequential) {
      int[] position = entry.state(this, () -> new int[1]);
      value.append(list.get(position[0]));
      position[0] = (position[0] + 1) % list.size();
    } else {
      value.append(list.pick(entry.random()));
    }
    return true;
  }
}

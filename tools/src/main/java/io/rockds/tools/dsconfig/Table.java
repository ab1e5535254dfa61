package io.rockds.tools.dsconfig;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * dsconfig's output: columns separated by {@code " : "} under a header and a rule, as OpenDJ prints
 * them, or with {@code --script-friendly} tab-separated rows without the header.
 */
final class Table {
  private final List<String> header;
  private final List<List<String>> rows = new ArrayList<>();

  Table(String... header) {
    this.header = List.of(header);
  }

  void row(String... cells) {
    rows.add(List.of(cells));
  }

  void print(PrintWriter out, boolean scriptFriendly) {
    if (scriptFriendly) {
      rows.forEach(r -> out.println(String.join("\t", r)));
      out.flush();
      return;
    }
    int[] widths = new int[header.size()];
    for (int i = 0; i < widths.length; i++) {
      widths[i] = header.get(i).length();
      for (List<String> r : rows) {
        widths[i] = Math.max(widths[i], r.get(i).length());
      }
    }
    out.println(line(header, widths));
    StringBuilder rule = new StringBuilder();
    for (int i = 0; i < widths.length; i++) {
      rule.append(i == 0 ? "" : ":")
          .append("-".repeat(widths[i] + (i == 0 || i == widths.length - 1 ? 1 : 2)));
    }
    out.println(rule);
    rows.forEach(r -> out.println(line(r, widths)));
    out.flush();
  }

  private static String line(List<String> cells, int[] widths) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < cells.size(); i++) {
      if (i > 0) {
        sb.append(" : ");
      }
      sb.append(
          i == cells.size() - 1
              ? cells.get(i)
              : String.format("%-" + widths[i] + "s", cells.get(i)));
    }
    return sb.toString();
  }
}

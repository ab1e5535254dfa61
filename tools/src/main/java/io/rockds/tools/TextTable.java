package io.rockds.tools;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * A table printed with aligned columns, as OpenDJ's {@code TableBuilder} prints backendstat's: a
 * heading row, then one row per record; numeric cells are right-aligned.
 */
public final class TextTable {
  private static final String GAP = "  ";

  private final List<String> headings;
  private final List<List<String>> rows = new ArrayList<>();

  public TextTable(String... headings) {
    this.headings = List.of(headings);
  }

  public TextTable row(Object... cells) {
    if (cells.length != headings.size()) {
      throw new IllegalArgumentException(
          "row of " + cells.length + " cells (expected: " + headings.size() + ")");
    }
    List<String> row = new ArrayList<>();
    for (Object cell : cells) {
      row.add(String.valueOf(cell));
    }
    rows.add(row);
    return this;
  }

  public int rowCount() {
    return rows.size();
  }

  /**
   * Prints tab-separated rows without the heading (for {@code --script-friendly}), or {@link
   * #print(PrintWriter)}.
   */
  public void print(PrintWriter out, boolean scriptFriendly) {
    if (!scriptFriendly) {
      print(out);
      return;
    }
    for (List<String> row : rows) {
      out.println(String.join("\t", row));
    }
    out.flush();
  }

  public void print(PrintWriter out) {
    int[] widths = new int[headings.size()];
    boolean[] numeric = new boolean[headings.size()];
    for (int c = 0; c < widths.length; c++) {
      widths[c] = headings.get(c).length();
      numeric[c] = !rows.isEmpty();
      for (List<String> row : rows) {
        widths[c] = Math.max(widths[c], row.get(c).length());
        numeric[c] &= isNumber(row.get(c));
      }
    }
    printRow(out, headings, widths, numeric);
    for (List<String> row : rows) {
      printRow(out, row, widths, numeric);
    }
    out.flush();
  }

  private static void printRow(
      PrintWriter out, List<String> cells, int[] widths, boolean[] rightAligned) {
    StringBuilder line = new StringBuilder();
    for (int c = 0; c < cells.size(); c++) {
      String cell = cells.get(c);
      String pad = " ".repeat(widths[c] - cell.length());
      line.append(c > 0 ? GAP : "").append(rightAligned[c] ? pad + cell : cell + pad);
    }
    out.println(line.toString().stripTrailing());
  }

  private static boolean isNumber(String s) {
    return s.matches("-?\\d+");
  }
}

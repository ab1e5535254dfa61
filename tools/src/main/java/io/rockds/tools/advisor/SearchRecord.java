package io.rockds.tools.advisor;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One search as the access log's combined format records it:
 *
 * <pre>
 * [12/Sep/2016:14:25:31 +0200] SEARCH conn=10 op=1 msgID=2 base="dc=example,dc=com" scope=sub
 *     filter="(objectclass=*)" attrs="+,*" result=0 nentries=10003 unindexed etime=6542
 * </pre>
 *
 * (one line in the file). {@code unindexed} is present only for unindexed searches; quoted values
 * escape {@code "} and {@code \} with a backslash ({@code AccessLogFormat.COMBINED}).
 */
public record SearchRecord(
    String base, String scope, String filter, boolean unindexed, long entries, long etimeMillis) {
  private static final Pattern SEARCH = Pattern.compile("^\\[[^\\]]*\\] SEARCH .*");
  private static final Pattern BASE = Pattern.compile(" base=\"((?:[^\"\\\\]|\\\\.)*)\"");
  private static final Pattern SCOPE = Pattern.compile(" scope=(\\S+)");
  private static final Pattern FILTER = Pattern.compile(" filter=\"((?:[^\"\\\\]|\\\\.)*)\"");
  private static final Pattern ENTRIES = Pattern.compile(" nentries=(\\d+)");
  private static final Pattern ETIME = Pattern.compile(" etime=(\\d+)");
  private static final Pattern UNINDEXED = Pattern.compile(" unindexed(?= etime=| *$)");
  private static final Pattern ESCAPED = Pattern.compile("\\\\(.)");

  /**
   * The search a log line records, or empty for any other line (other operations, requests only).
   */
  public static Optional<SearchRecord> parse(String line) {
    if (!SEARCH.matcher(line).matches()) {
      return Optional.empty();
    }
    Matcher filter = FILTER.matcher(line);
    Matcher etime = ETIME.matcher(line);
    if (!filter.find() || !etime.find()) {
      return Optional.empty();
    }
    Matcher base = BASE.matcher(line);
    Matcher scope = SCOPE.matcher(line);
    Matcher entries = ENTRIES.matcher(line);
    return Optional.of(
        new SearchRecord(
            base.find() ? unquote(base.group(1)) : "",
            scope.find() ? scope.group(1) : "sub",
            unquote(filter.group(1)),
            UNINDEXED.matcher(line).find(),
            entries.find() ? Long.parseLong(entries.group(1)) : 0,
            Long.parseLong(etime.group(1))));
  }

  /** The logger escapes {@code "} and {@code \} inside quoted values with a backslash. */
  private static String unquote(String quoted) {
    return ESCAPED.matcher(quoted).replaceAll("$1");
  }
}

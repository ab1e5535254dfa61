package io.rockds.server.logging;

import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * How an access record becomes one line: OpenDJ's {@code combined} format, request and result on
 * one line ({@code [12/Sep/2016:14:25:31 +0200] SEARCH conn=10 op=1 msgID=2
 * base="dc=example,dc=com" scope=sub filter="(objectclass=*)" attrs="+,*" result=0 nentries=10003
 * unindexed etime=6542}), or one JSON object per line for log pipelines.
 */
public enum AccessLogFormat {
  COMBINED {
    @Override
    public String format(AccessRecord r) {
      StringBuilder sb = new StringBuilder(160);
      sb.append('[')
          .append(Second.of(r.time()))
          .append("] ")
          .append(r.type())
          .append(" conn=")
          .append(r.connectionId());
      if (r.isOperation()) {
        sb.append(" op=").append(r.operationId());
      }
      if (r.messageId() >= 0) {
        sb.append(" msgID=").append(r.messageId());
      }
      for (Map.Entry<String, String> field : r.request().entrySet()) {
        sb.append(' ').append(field.getKey()).append('=');
        if (UNQUOTED.contains(field.getKey())) {
          sb.append(field.getValue());
        } else {
          quoted(sb, field.getValue());
        }
      }
      if (r.result() >= 0) {
        sb.append(" result=").append(r.result());
      }
      if (r.message() != null) {
        sb.append(" message=");
        quoted(sb, r.message());
      }
      if (r.nentries() >= 0) {
        sb.append(" nentries=").append(r.nentries());
      }
      if (r.unindexed()) {
        sb.append(" unindexed");
      }
      if (r.etimeMillis() >= 0) {
        sb.append(" etime=").append(r.etimeMillis());
      }
      return sb.toString();
    }

    private void quoted(StringBuilder sb, String value) {
      sb.append('"');
      if (plain(value)) {
        sb.append(value).append('"'); // the usual value: appended at once, not char by char
        return;
      }
      for (int i = 0; i < value.length(); i++) {
        char c = value.charAt(i);
        if (c == '"' || c == '\\') {
          sb.append('\\');
        }
        sb.append(c == '\n' || c == '\r' ? ' ' : c);
      }
      sb.append('"');
    }

    /** Whether {@code value} holds nothing {@link #quoted} escapes or replaces. */
    private boolean plain(String value) {
      for (int i = 0; i < value.length(); i++) {
        char c = value.charAt(i);
        if (c == '"' || c == '\\' || c == '\n' || c == '\r') {
          return false;
        }
      }
      return true;
    }
  },

  JSON {
    @Override
    public String format(AccessRecord r) {
      StringBuilder sb = new StringBuilder(200).append('{');
      Json.field(sb, "time", r.time().toOffsetDateTime().toString());
      Json.field(sb, "type", r.type());
      Json.number(sb, "conn", r.connectionId());
      if (r.isOperation()) {
        Json.number(sb, "op", r.operationId());
      }
      if (r.messageId() >= 0) {
        Json.number(sb, "msgID", r.messageId());
      }
      if (!r.request().isEmpty()) {
        sb.append("\"request\":{");
        r.request().forEach((k, v) -> Json.field(sb, k, v));
        sb.setLength(sb.length() - 1);
        sb.append("},");
      }
      if (r.result() >= 0) {
        Json.number(sb, "result", r.result());
      }
      if (r.message() != null) {
        Json.field(sb, "message", r.message());
      }
      if (r.nentries() >= 0) {
        Json.number(sb, "nentries", r.nentries());
      }
      if (r.isOperation()) {
        sb.append("\"unindexed\":").append(r.unindexed()).append(',');
      }
      if (r.etimeMillis() >= 0) {
        Json.number(sb, "etime", r.etimeMillis());
      }
      Json.field(sb, "client", r.clientAddress());
      Json.field(sb, "user", r.userDn().toString());
      sb.setLength(sb.length() - 1);
      return sb.append('}').toString();
    }
  };

  /** Fields OpenDJ writes bare because their values never hold spaces: scope=sub, version=3, ... */
  private static final Set<String> UNQUOTED =
      Set.of(
          "scope",
          "version",
          "type",
          "mechanism",
          "deleteOldRDN",
          "from",
          "to",
          "protocol",
          "idToAbandon");

  static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.US);

  /**
   * The combined format's timestamp, formatted once per second and offset: formatting it for every
   * line cost more than the rest of the line.
   */
  private record Second(long epochSecond, ZoneOffset offset, String text) {
    private static volatile Second last = new Second(Long.MIN_VALUE, ZoneOffset.UTC, "");

    static String of(ZonedDateTime time) {
      Second s = last;
      if (s.epochSecond != time.toEpochSecond() || !s.offset.equals(time.getOffset())) {
        s = new Second(time.toEpochSecond(), time.getOffset(), TIMESTAMP.format(time));
        last = s;
      }
      return s.text;
    }
  }

  public abstract String format(AccessRecord record);

  /** The format a {@code log-format} value names. */
  public static AccessLogFormat of(String configured) {
    return "json".equals(configured) ? JSON : COMBINED;
  }
}

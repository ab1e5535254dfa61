package io.rockds.storage.search;

import com.unboundid.util.json.JSONString;
import io.rockds.storage.IdSet;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One object of the {@code debugsearchindex} JSON trace, fields in insertion order. The code that
 * reads the indexes writes it as it goes, so the trace is what happened, never a reconstruction.
 * Values are strings, numbers, nested traces or lists of traces.
 */
public final class Trace {
  private final Map<String, Object> fields = new LinkedHashMap<>();

  /**
   * The trace of a search a VLV index answered: {@code {"vlv":"byName","candidates":size,
   * "final":window}}, the index's whole list and the entries of the window read from it.
   */
  public static Trace ofVlvIndex(String name, int candidates, int window) {
    return new Trace().put("vlv", name).put("candidates", candidates).put("final", window);
  }

  Trace put(String name, Object value) {
    fields.put(name, value);
    return this;
  }

  /**
   * Writes an ID set's size, or {@code [LIMIT-EXCEEDED]} / {@code [NOT-INDEXED]} when undefined.
   */
  Trace putCount(String name, IdSet ids) {
    return put(name, ids.isDefined() ? (Object) ids.size() : ids.undefinedReason().label());
  }

  /** The list under {@code name}, created empty on first use. */
  @SuppressWarnings("unchecked")
  List<Trace> list(String name) {
    return (List<Trace>) fields.computeIfAbsent(name, n -> new ArrayList<Trace>());
  }

  Object get(String name) {
    return fields.get(name);
  }

  /**
   * Compact JSON, e.g. {@code
   * {"filter":"(uid=a)","index":"uid.caseIgnoreMatch","exact":"a","candidates":1}}.
   */
  public String toJson() {
    StringBuilder sb = new StringBuilder();
    write(this, sb);
    return sb.toString();
  }

  @Override
  public String toString() {
    return toJson();
  }

  private static void write(Object value, StringBuilder sb) {
    if (value instanceof Trace trace) {
      sb.append('{');
      boolean first = true;
      for (Map.Entry<String, Object> field : trace.fields.entrySet()) {
        if (!first) {
          sb.append(',');
        }
        first = false;
        writeString(field.getKey(), sb);
        sb.append(':');
        write(field.getValue(), sb);
      }
      sb.append('}');
    } else if (value instanceof List<?> list) {
      sb.append('[');
      for (int i = 0; i < list.size(); i++) {
        if (i > 0) {
          sb.append(',');
        }
        write(list.get(i), sb);
      }
      sb.append(']');
    } else if (value instanceof Number) {
      sb.append(value);
    } else {
      writeString(String.valueOf(value), sb);
    }
  }

  private static void writeString(String s, StringBuilder sb) {
    new JSONString(s).toString(sb);
  }
}

package io.rockds.tools.makeldif;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The values one generated entry has for one attribute, in template order. {@code base64}
 * attributes come from {@code attr:: value} lines: their values are base64 text that stands for
 * binary data, written to LDIF as is and decoded for {@link GeneratedEntry#toEntry()}.
 */
final class GeneratedAttribute {
  private final String name;
  private final boolean base64;
  private final List<String> values = new ArrayList<>(1);
  private final List<NumberedValues> numbered = new ArrayList<>(0);

  GeneratedAttribute(String name, boolean base64) {
    this.name = name;
    this.base64 = base64;
  }

  String name() {
    return name;
  }

  boolean base64() {
    return base64;
  }

  String firstValue() {
    return values.isEmpty() ? null : values.get(0);
  }

  boolean contains(String value) {
    return values.contains(value);
  }

  void add(String value) {
    values.add(value);
  }

  void add(NumberedValues more) {
    numbered.add(more);
  }

  /** Every value, the plain ones first, then the numbered ones as they are produced. */
  void forEachValue(Consumer<String> sink) {
    values.forEach(sink);
    for (NumberedValues more : numbered) {
      more.forEach(sink);
    }
  }
}

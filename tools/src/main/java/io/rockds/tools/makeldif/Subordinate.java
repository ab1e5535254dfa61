package io.rockds.tools.makeldif;

/** {@code subordinateTemplate: name:count}: {@code count} entries of a template below an entry. */
record Subordinate(String templateName, long count, int lineNumber) {}

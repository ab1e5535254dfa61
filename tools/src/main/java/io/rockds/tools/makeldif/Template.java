package io.rockds.tools.makeldif;

import java.util.List;

/**
 * A {@code template:} after {@code extends:} is resolved: the parent's lines come first, then this
 * template's; {@code rdnAttr} is this template's or else the parent's; the subordinate templates
 * are the parent's plus this template's.
 *
 * @param rdnLines for each {@code rdnAttr}, the first line that sets it (names the RDN)
 */
record Template(
    String name,
    List<TemplateLine> rdnLines,
    List<TemplateLine> lines,
    List<Subordinate> subordinates,
    int lineNumber) {}

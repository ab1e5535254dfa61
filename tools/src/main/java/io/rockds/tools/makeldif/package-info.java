/**
 * makeldif: generates LDIF test data from the MakeLDIF template language of SLAMD and OpenDJ
 * ({@code define}, {@code branch:}, {@code template:}, {@code extends:}, {@code rdnAttr:}, {@code
 * subordinateTemplate:}, {@code [constant]}, {@code {attr}} and the {@code <tag>}s listed in {@link
 * io.rockds.tools.makeldif.TagFactory}), with built-in name, street, city and state lists and a
 * seed for reproducible output.
 *
 * <p>Design: a template is parsed once into immutable {@code Tag}s ({@link
 * io.rockds.tools.makeldif.TemplateParser}, {@link io.rockds.tools.makeldif.ValueParser}); a run
 * ({@link io.rockds.tools.makeldif.LdifGenerator}) keeps its mutable state (random source,
 * counters) in a {@code Generation} and hands entries one by one to the LDIF writer or to the
 * caller, so memory does not grow with the number of entries. The benchmark's groups of a million
 * members come from the multi-valued {@code <partition>} tag, whose values are written out as they
 * are produced.
 *
 * <p>Measured on the shared 2-core build machine (other builds running): the seed's OID template,
 * 100,000 entries (260 MB of LDIF, 2.6 kB per entry): about 50,000 entries/s to a file; the full
 * oid-bench template, 10,000,013 entries including ten groups of a million members, 82,000
 * entries/s with {@code -Xmx64m} (105 MB resident).
 */
package io.rockds.tools.makeldif;

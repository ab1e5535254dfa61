package io.rockds.tools.makeldif;

import com.unboundid.ldap.sdk.Entry;
import java.util.function.Consumer;

/**
 * Generates the entries of a {@link TemplateFile}, depth first: each branch, then the entries of
 * its subordinate templates, each followed by its own subordinates. Entries are handed over one at
 * a time as they are made, so a run of ten million entries needs no more memory than one entry. The
 * same template and seed always give the same entries.
 */
public final class LdifGenerator {
  private final TemplateFile templateFile;
  private final Generation generation;
  private final Consumer<GeneratedEntry> sink;
  private long count;

  private LdifGenerator(TemplateFile templateFile, long seed, Consumer<GeneratedEntry> sink) {
    this.templateFile = templateFile;
    this.generation = new Generation(seed);
    this.sink = sink;
  }

  /**
   * Generates every entry of the template as UnboundID entries, for callers that use them in
   * process (setup's sample data). Each entry holds all its values.
   *
   * @return the number of entries generated
   */
  public static long generate(TemplateFile templateFile, long seed, Consumer<Entry> entries) {
    return generateEntries(templateFile, seed, generated -> entries.accept(generated.toEntry()));
  }

  /** Generates every entry of the template, in order; returns how many. */
  public static long generateEntries(
      TemplateFile templateFile, long seed, Consumer<GeneratedEntry> entries) {
    LdifGenerator generator = new LdifGenerator(templateFile, seed, entries);
    for (Branch branch : templateFile.branches()) {
      generator.branch(branch);
    }
    return generator.count;
  }

  private void branch(Branch branch) {
    EntryContext entry = new EntryContext(generation, branch.rdn(), branch.parentDn());
    for (String objectClass : branch.objectClasses()) {
      entry.addText("objectClass", objectClass);
    }
    for (String[] nameAndValue : branch.rdnValues()) {
      entry.addText(nameAndValue[0], nameAndValue[1]);
    }
    for (TemplateLine line : branch.lines()) {
      line.generate(entry);
    }
    emit(entry.toGeneratedEntry());
    for (Subordinate subordinate : branch.subordinates()) {
      children(subordinate, branch.dn(), entry.serial());
    }
  }

  private void emit(GeneratedEntry entry) {
    count++;
    sink.accept(entry);
  }

  private void children(Subordinate subordinate, String parentDn, long parentSerial) {
    Template template = templateFile.template(subordinate.templateName());
    for (long i = 0; i < subordinate.count(); i++) {
      EntryContext entry =
          new EntryContext(generation, parentDn, parentSerial, template.rdnLines());
      for (TemplateLine line : template.lines()) {
        line.generate(entry);
      }
      GeneratedEntry generated = entry.toGeneratedEntry();
      emit(generated);
      for (Subordinate below : template.subordinates()) {
        children(below, generated.dn(), entry.serial());
      }
    }
  }
}

package io.rockds.tools.dsconfig;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.config.ConfigException;
import io.rockds.config.model.ConfigModel;
import io.rockds.config.model.ObjectDefinition;
import io.rockds.config.model.PropertyDefinition;
import io.rockds.config.model.TypeDefinition;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * One generated subcommand: a verb ({@code list}, {@code get}, {@code set}, {@code create}, {@code
 * delete}) applied to a kind of object from the {@link ConfigModel}, e.g. {@code
 * create-log-publisher} or {@code set-backend-prop}.
 */
final class Subcommand implements Callable<Integer> {
  /** What a subcommand does to its object. */
  enum Verb {
    LIST,
    GET,
    SET,
    CREATE,
    DELETE
  }

  private final Verb verb;
  private final ObjectDefinition definition;
  private final ConnectionOptions connection;
  private final CommandSpec spec;

  private Subcommand(Verb verb, ObjectDefinition definition, ConnectionOptions connection) {
    this.verb = verb;
    this.definition = definition;
    this.connection = connection;
    this.spec = CommandSpec.wrapWithoutInspection(this);
    spec.name(name(verb, definition));
    spec.usageMessage().description(summary(), definition.description() + details());
    if (definition.parent() != null) {
      spec.addOption(
          stringOption(
              definition.parent().nameOption(),
              true,
              "Name of the "
                  + definition.parent().name()
                  + " holding the "
                  + definition.name()
                  + "."));
    }
    if (verb != Verb.LIST && !definition.isSingleton()) {
      spec.addOption(
          stringOption(definition.nameOption(), true, "Name of the " + definition.name() + "."));
    }
    switch (verb) {
      case GET -> spec.addOption(listOption("--property", "Show only this property (repeatable)."));
      case CREATE -> {
        spec.addOption(
            stringOption(
                "--type",
                definition.types().size() > 1,
                "Type of " + definition.name() + ": " + typeNames() + "."));
        spec.addOption(listOption("--set", "PROPERTY:VALUE to set (repeatable)."));
      }
      case SET -> {
        spec.addOption(
            listOption("--set", "PROPERTY:VALUE replacing the property's values (repeatable)."));
        spec.addOption(
            listOption("--add", "PROPERTY:VALUE to add to a multi-valued property (repeatable)."));
        spec.addOption(listOption("--remove", "PROPERTY:VALUE to remove (repeatable)."));
        spec.addOption(listOption("--reset", "PROPERTY to set back to its default (repeatable)."));
      }
      default -> {}
    }
  }

  /** Every subcommand of every kind of object. */
  static List<CommandSpec> all(ConnectionOptions connection) {
    List<CommandSpec> out = new ArrayList<>();
    for (ObjectDefinition d : ConfigModel.ALL) {
      for (Verb verb : Verb.values()) {
        if (!d.isSingleton() || verb == Verb.GET || verb == Verb.SET) {
          out.add(new Subcommand(verb, d, connection).spec);
        }
      }
    }
    return out;
  }

  static String name(Verb verb, ObjectDefinition d) {
    return switch (verb) {
      case LIST -> "list-" + plural(d.name());
      case GET -> "get-" + d.name() + "-prop";
      case SET -> "set-" + d.name() + "-prop";
      case CREATE -> "create-" + d.name();
      case DELETE -> "delete-" + d.name();
    };
  }

  private static String plural(String noun) {
    if (noun.endsWith("criteria")) {
      return noun;
    }
    if (noun.endsWith("y")) {
      return noun.substring(0, noun.length() - 1) + "ies";
    }
    return noun.endsWith("x") ? noun + "es" : noun + "s";
  }

  /** The first line, shown in dsconfig's list of subcommands. */
  private String summary() {
    String noun = definition.name();
    String article = "aeiou".indexOf(noun.charAt(0)) >= 0 ? "an " : "a ";
    return switch (verb) {
      case LIST -> "Lists the " + plural(noun) + ".";
      case GET ->
          definition.isSingleton()
              ? "Shows the " + noun + "."
              : "Shows the properties of " + article + noun + ".";
      case SET ->
          definition.isSingleton()
              ? "Changes the " + noun + "."
              : "Changes properties of " + article + noun + ".";
      case CREATE -> "Creates " + article + noun + ".";
      case DELETE -> "Deletes " + article + noun + " and everything below it.";
    };
  }

  private String details() {
    return verb == Verb.CREATE || verb == Verb.SET || verb == Verb.GET
        ? " Properties: " + propertySummary()
        : "";
  }

  private String propertySummary() {
    Set<String> names = new LinkedHashSet<>();
    for (TypeDefinition t : definition.types()) {
      names.addAll(definition.propertyNames(t));
    }
    return String.join(", ", names) + ".";
  }

  private String typeNames() {
    return String.join(", ", definition.types().stream().map(TypeDefinition::name).toList());
  }

  private static OptionSpec stringOption(String name, boolean required, String description) {
    return OptionSpec.builder(name)
        .type(String.class)
        .paramLabel("NAME")
        .required(required)
        .description(description)
        .build();
  }

  private static OptionSpec listOption(String name, String description) {
    return OptionSpec.builder(name)
        .type(List.class)
        .auxiliaryTypes(String.class)
        .paramLabel("VALUE")
        .description(description)
        .build();
  }

  private String string(String option) {
    return spec.findOption(option) == null ? null : spec.findOption(option).getValue();
  }

  private List<String> list(String option) {
    List<String> values = spec.findOption(option).getValue();
    return values == null ? List.of() : values;
  }

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    String parentName =
        definition.parent() == null ? null : string(definition.parent().nameOption());
    try (ConfigConnection config = connection.open()) {
      switch (verb) {
        case LIST -> list(config, parentName, out);
        case GET -> get(config, dn(parentName), out);
        case SET -> set(config, dn(parentName), out);
        case CREATE -> create(config, parentName, out);
        case DELETE -> notice(config.delete(existing(config, dn(parentName)).getParsedDN()), out);
      }
    } catch (LDAPException e) {
      throw new ConfigException(
          e.getDiagnosticMessage() != null
              ? e.getDiagnosticMessage()
              : e.getResultCode() + ": " + e.getMessage(),
          e);
    }
    return 0;
  }

  private DN dn(String parentName) {
    return definition.dnOf(
        parentName, definition.isSingleton() ? null : string(definition.nameOption()));
  }

  private Entry existing(ConfigConnection config, DN dn) throws LDAPException, ConfigException {
    Entry entry = config.get(dn);
    if (entry == null || !entry.hasObjectClass(definition.objectClass())) {
      throw new ConfigException(
          "the "
              + definition.name()
              + " "
              + dn.getRDN().getAttributeValues()[0]
              + " does not exist");
    }
    return entry;
  }

  private void list(ConfigConnection config, String parentName, PrintWriter out)
      throws LDAPException {
    Table table = new Table(title(), "Type");
    for (Entry e : config.children(definition.container().apply(parentName))) {
      if (e.hasObjectClass(definition.objectClass())) {
        table.row(
            e.getParsedDN().getRDN().getAttributeValues()[0],
            definition.typeOf(e).map(TypeDefinition::name).orElse("-"));
      }
    }
    table.print(out, connection.scriptFriendly);
  }

  private String title() {
    StringBuilder sb = new StringBuilder();
    for (String word : definition.name().split("-")) {
      sb.append(sb.length() == 0 ? "" : " ")
          .append(Character.toUpperCase(word.charAt(0)))
          .append(word.substring(1));
    }
    return sb.toString();
  }

  private void get(ConfigConnection config, DN dn, PrintWriter out)
      throws LDAPException, ConfigException {
    Entry entry = existing(config, dn);
    TypeDefinition type = definition.typeOf(entry).orElse(null);
    List<String> wanted = list("--property");
    PropertyArguments arguments = new PropertyArguments(definition, type);
    for (String name : wanted) {
      arguments.property(name);
    }
    Table table = new Table("Property", "Value(s)");
    for (PropertyDefinition p : definition.properties(type)) {
      if (!wanted.isEmpty() && wanted.stream().noneMatch(w -> w.equalsIgnoreCase(p.name()))) {
        continue;
      }
      String[] values = entry.getAttributeValues(p.attribute());
      String shown =
          values != null
              ? String.join(", ", values)
              : p.defaultValue() != null ? p.defaultValue() : "-";
      table.row(p.name(), shown);
    }
    table.print(out, connection.scriptFriendly);
  }

  private void set(ConfigConnection config, DN dn, PrintWriter out)
      throws LDAPException, ConfigException {
    Entry entry = existing(config, dn);
    PropertyArguments arguments =
        new PropertyArguments(definition, definition.typeOf(entry).orElse(null));
    var modifications =
        arguments.modifications(
            entry, list("--set"), list("--add"), list("--remove"), list("--reset"));
    if (!modifications.isEmpty()) {
      notice(config.modify(dn, modifications), out);
    }
  }

  private void create(ConfigConnection config, String parentName, PrintWriter out)
      throws LDAPException, ConfigException {
    String typeName = string("--type");
    TypeDefinition type =
        typeName == null
            ? definition.types().get(0)
            : definition
                .type(typeName)
                .orElseThrow(
                    () ->
                        new ConfigException(
                            "--type "
                                + typeName
                                + ": not a type of "
                                + definition.name()
                                + " (expected: "
                                + typeNames()
                                + ")"));
    if (definition.parent() != null
        && config.get(definition.parent().dnOf(null, parentName)) == null) {
      throw new ConfigException(
          "the " + definition.parent().name() + " " + parentName + " does not exist");
    }
    String name = string(definition.nameOption());
    Set<String> objectClasses =
        new LinkedHashSet<>(List.of("top", definition.objectClass(), type.objectClass()));
    Entry entry = new Entry(definition.dnOf(parentName, name));
    entry.addAttribute("objectClass", objectClasses.toArray(String[]::new));
    entry.addAttribute(definition.namingAttribute(), name);
    for (Attribute a : new PropertyArguments(definition, type).attributes(list("--set"))) {
      if (a.getBaseName().equalsIgnoreCase(definition.namingAttribute())) {
        continue;
      }
      entry.addAttribute(a);
    }
    notice(config.add(entry), out);
  }

  private void notice(String notice, PrintWriter out) {
    if (notice != null && !notice.isBlank() && !connection.scriptFriendly) {
      out.println("Note: " + notice);
      out.flush();
    }
  }
}

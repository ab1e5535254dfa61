package io.rockds.tools.dsconfig;

import io.rockds.config.model.ApplyMode;
import io.rockds.config.model.ConfigModel;
import io.rockds.config.model.ObjectDefinition;
import io.rockds.config.model.PropertyDefinition;
import io.rockds.config.model.TypeDefinition;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code dsconfig list-properties}, as OpenDJ's: every property of every kind of object, with its
 * syntax, default and when a change takes effect. Reads the configuration model, not a server.
 */
@Command(
    name = "list-properties",
    sortOptions = false,
    description =
        "Lists the properties of each kind of object: syntax, default, whether multi-valued or"
            + " read-only, and when a change applies (at once, after a restart, after rebuild-index).")
final class ListProperties implements Callable<Integer> {
  private final ConnectionOptions options;

  @Option(
      names = {"-t", "--type"},
      paramLabel = "<object>",
      description = "Only this kind of object, e.g. backend-index (default: all).")
  String object;

  @Option(names = "--property", paramLabel = "<name>", description = "Only this property.")
  String property;

  @Spec CommandSpec spec;

  ListProperties(ConnectionOptions options) {
    this.options = options;
  }

  @Override
  public Integer call() {
    List<ObjectDefinition> objects =
        ConfigModel.ALL.stream()
            .filter(d -> object == null || d.name().equalsIgnoreCase(object))
            .toList();
    if (objects.isEmpty()) {
      throw new ParameterException(
          spec.commandLine(),
          "--type "
              + object
              + ": not a kind of object (expected one of: "
              + String.join(", ", ConfigModel.ALL.stream().map(ObjectDefinition::name).toList())
              + ")");
    }
    Table table =
        new Table(
            "Component",
            "Type",
            "Property",
            "Syntax",
            "Default",
            "Multi-valued",
            "Read-only",
            "Change applies");
    for (ObjectDefinition d : objects) {
      // An object without types (the global configuration) has its own properties only.
      List<TypeDefinition> types =
          d.types().isEmpty() ? java.util.Collections.singletonList(null) : d.types();
      for (TypeDefinition t : types) {
        for (PropertyDefinition p : d.properties(t)) {
          if (property == null || p.name().equalsIgnoreCase(property)) {
            table.row(
                d.name(),
                t == null ? "-" : t.name(),
                p.name(),
                p.syntax().expected(),
                p.defaultValue() == null ? "-" : p.defaultValue(),
                yesNo(p.multiValued()),
                yesNo(p.readOnly()),
                applies(p.apply()));
          }
        }
      }
    }
    table.print(spec.commandLine().getOut(), options.scriptFriendly);
    return 0;
  }

  private static String yesNo(boolean b) {
    return b ? "yes" : "no";
  }

  private static String applies(ApplyMode mode) {
    return switch (mode) {
      case LIVE -> "immediately";
      case RESTART -> "after restart";
      case REBUILD_INDEX -> "after rebuild-index";
      case LIVE_REBUILD_TIGHTENS -> "immediately (rebuild-index tightens)";
    };
  }
}

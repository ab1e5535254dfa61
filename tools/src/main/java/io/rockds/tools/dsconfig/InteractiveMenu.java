package io.rockds.tools.dsconfig;

import io.rockds.config.model.ConfigModel;
import io.rockds.config.model.ObjectDefinition;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * dsconfig without a subcommand in a terminal: menus to pick a kind of object and what to do with
 * it, prompts for the names and properties, then the equivalent non-interactive command is printed
 * (to reuse in scripts) and run.
 */
final class InteractiveMenu {
  private final CommandLine root;
  private final BufferedReader in;
  private final PrintWriter out;

  InteractiveMenu(CommandLine root, BufferedReader in, PrintWriter out) {
    this.root = root;
    this.in = in;
    this.out = out;
  }

  int run() {
    try {
      ObjectDefinition kind =
          ConfigModel.ALL.get(
              choose(
                  "What do you want to configure?",
                  ConfigModel.ALL.stream().map(ObjectDefinition::name).toList()));
      List<String> names = new ArrayList<>();
      for (Subcommand.Verb verb : Subcommand.Verb.values()) {
        if (!kind.isSingleton() || verb == Subcommand.Verb.GET || verb == Subcommand.Verb.SET) {
          names.add(Subcommand.name(verb, kind));
        }
      }
      String name = names.get(choose("What do you want to do?", names));
      List<String> arguments = new ArrayList<>(List.of("-n", name));
      CommandSpec sub = root.getSubcommands().get(name).getCommandSpec();
      for (OptionSpec option : sub.options()) {
        if (option.inherited() || option.usageHelp() || option.versionHelp()) {
          continue;
        }
        if (option.isMultiValue()) {
          for (String value =
                  ask(
                      option.longestName()
                          + " ("
                          + option.paramLabel()
                          + ", empty line to finish)");
              !value.isEmpty();
              value = ask(option.longestName())) {
            arguments.add(option.longestName());
            arguments.add(value);
          }
        } else {
          String value = ask(option.longestName() + (option.required() ? "" : " (optional)"));
          if (!value.isEmpty()) {
            arguments.add(option.longestName());
            arguments.add(value);
          }
        }
      }
      List<String> command = new ArrayList<>(root.getParseResult().originalArgs());
      command.addAll(arguments);
      out.println("Equivalent non-interactive command:");
      out.println("  dsconfig " + display(command));
      out.flush();
      return root.execute(command.toArray(String[]::new));
    } catch (IOException e) {
      throw new IllegalStateException("cannot read the terminal: " + e.getMessage(), e);
    }
  }

  private int choose(String question, List<String> choices) throws IOException {
    out.println(question);
    for (int i = 0; i < choices.size(); i++) {
      out.printf("  %2d) %s%n", i + 1, choices.get(i));
    }
    for (int attempt = 0; attempt < 5; attempt++) {
      String answer = ask("Enter a number");
      try {
        int n = Integer.parseInt(answer);
        if (n >= 1 && n <= choices.size()) {
          return n - 1;
        }
      } catch (NumberFormatException ignored) {
        // Asked again below.
      }
      out.println("Please enter a number from 1 to " + choices.size());
    }
    throw new CommandLine.ParameterException(root, "no valid choice after 5 attempts");
  }

  private String ask(String prompt) throws IOException {
    out.print(prompt + ": ");
    out.flush();
    String line = in.readLine();
    if (line == null) {
      throw new CommandLine.ParameterException(root, "input ended before the command was complete");
    }
    return line.trim();
  }

  /** The command as a shell would take it, with the password hidden. */
  private static String display(List<String> command) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < command.size(); i++) {
      String arg = command.get(i);
      boolean secret =
          i > 0 && (command.get(i - 1).equals("-w") || command.get(i - 1).equals("--bindPassword"));
      String shown = secret ? "********" : arg;
      sb.append(i == 0 ? "" : " ")
          .append(
              shown.matches("[\\w.:/=,@+-]+") ? shown : "'" + shown.replace("'", "'\\''") + "'");
    }
    return sb.toString();
  }
}

package io.rockds.config;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ResultCode;
import io.rockds.config.model.ApplyMode;
import io.rockds.config.model.ConfigModel;
import io.rockds.config.model.ObjectDefinition;
import io.rockds.config.model.PropertyDefinition;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Changes to a {@link ConfigStore}, all or nothing: each change is tried on a copy, the whole copy
 * is validated ({@link ServerConfig#read}), saved atomically, and only then becomes the store's
 * content. Used by the server for writes under {@code cn=config} and by {@code dsconfig --offline}.
 * Failures are {@link LDAPException}s with the result code the server answers and a message naming
 * the property.
 */
public final class ConfigEditor {
  /**
   * An accepted change.
   *
   * @param notice what the operator must still do (restart, rebuild an index), or null
   */
  public record Outcome(ServerConfig config, String notice) {}

  /**
   * A check the configuration must also pass before it is saved, e.g. that the server can build
   * what it names; {@code candidate} holds the entries as they would be saved.
   */
  @FunctionalInterface
  public interface Check {
    void check(ConfigStore candidate, ServerConfig config) throws LDAPException;
  }

  private final ConfigStore store;
  private final Check check;

  /** False for a {@link #trial} editor, which saves nothing. */
  private final boolean saves;

  public ConfigEditor(ConfigStore store, Check check) {
    this(store, check, true);
  }

  private ConfigEditor(ConfigStore store, Check check, boolean saves) {
    this.store = store;
    this.check = check;
    this.saves = saves;
  }

  /**
   * An editor of a copy of this one's configuration that validates changes as this one does and
   * saves nothing: what this editor would refuse, it refuses alike.
   */
  public ConfigEditor trial() {
    return new ConfigEditor(store.copy(), check, false);
  }

  public ConfigStore store() {
    return store;
  }

  /**
   * Adds a configuration object. The container of an index or a filtering criteria ({@code
   * cn=Index}, {@code cn=Filtering Criteria}) is created with its first child.
   */
  public synchronized Outcome add(Entry entry) throws LDAPException {
    DN dn = entry.getParsedDN();
    if (store.get(dn) != null) {
      throw new LDAPException(
          ResultCode.ENTRY_ALREADY_EXISTS, "The configuration entry " + dn + " already exists");
    }
    ConfigStore candidate = store.copy();
    DN parent = dn.getParent();
    if (parent != null && candidate.get(parent) == null) {
      boolean relation = ConfigModel.definitionOf(entry).map(d -> d.parent() != null).orElse(false);
      if (!relation || parent.getParent() == null || candidate.get(parent.getParent()) == null) {
        throw new LDAPException(
            ResultCode.NO_SUCH_OBJECT, "The parent entry " + parent + " does not exist");
      }
      put(
          candidate,
          new Entry(
              parent,
              new Attribute("objectClass", "top", "ds-cfg-branch"),
              new Attribute("cn", parent.getRDN().getAttributeValues()[0])));
    }
    put(candidate, entry);
    return commit(
        candidate,
        notice(entry, entry.getAttributes().stream().map(Attribute::getBaseName).toList()));
  }

  /**
   * Applies modifications to one entry; its naming attribute and read-only properties cannot
   * change.
   */
  public synchronized Outcome modify(DN dn, List<Modification> modifications) throws LDAPException {
    Entry current = existing(dn);
    Optional<ObjectDefinition> definition = ConfigModel.definitionOf(current);
    for (Modification m : modifications) {
      String attribute = m.getAttribute().getBaseName();
      String property = PropertyDefinition.propertyOf(attribute);
      boolean readOnly =
          property != null
              && definition
                  .flatMap(d -> d.property(d.typeOf(current).orElse(null), property))
                  .map(PropertyDefinition::readOnly)
                  .orElse(false);
      if (attribute.equalsIgnoreCase("objectClass")
          || dn.getRDN().hasAttribute(attribute)
          || readOnly) {
        throw new LDAPException(
            ResultCode.CONSTRAINT_VIOLATION,
            attribute + " is read-only: it is set when the object is created");
      }
    }
    Entry updated = Entry.applyModifications(current, false, modifications);
    ConfigStore candidate = store.copy();
    put(candidate, updated);
    return commit(
        candidate,
        notice(updated, modifications.stream().map(m -> m.getAttribute().getBaseName()).toList()));
  }

  /** Deletes a configuration object with everything below it (its indexes, its criteria). */
  public synchronized Outcome delete(DN dn) throws LDAPException {
    Entry entry = existing(dn);
    Optional<ObjectDefinition> definition = ConfigModel.definitionOf(entry);
    if (definition.isEmpty() || definition.get().isSingleton()) {
      throw new LDAPException(
          ResultCode.UNWILLING_TO_PERFORM,
          "The configuration entry "
              + dn
              + " is part of the configuration's structure and cannot be deleted");
    }
    ConfigStore candidate = store.copy();
    for (Entry e : candidate.all()) {
      if (e.getParsedDN().isDescendantOf(dn, true)) {
        candidate.remove(e.getParsedDN());
      }
    }
    return commit(
        candidate,
        definition.get() == ConfigModel.BACKEND
            ? "The deletion of a backend " + ApplyMode.RESTART.notice()
            : null);
  }

  private Entry existing(DN dn) throws LDAPException {
    Entry entry = store.get(dn);
    if (entry == null) {
      throw new LDAPException(
          ResultCode.NO_SUCH_OBJECT, "The configuration entry " + dn + " does not exist");
    }
    return entry;
  }

  private static void put(ConfigStore candidate, Entry entry) throws LDAPException {
    try {
      candidate.put(entry);
    } catch (ConfigException e) {
      throw new LDAPException(ResultCode.INVALID_DN_SYNTAX, e.getMessage());
    }
  }

  private Outcome commit(ConfigStore candidate, String notice) throws LDAPException {
    ServerConfig next;
    try {
      next = ServerConfig.read(candidate);
    } catch (ConfigException e) {
      // Drop the file name that starts the message: the operator wants the reason.
      throw new LDAPException(
          ResultCode.UNWILLING_TO_PERFORM,
          "Invalid configuration: " + e.getMessage().replace(candidate.file() + ": ", ""));
    }
    check.check(candidate, next);
    if (!saves) {
      return new Outcome(next, notice);
    }
    try {
      candidate.save();
    } catch (ConfigException e) {
      throw new LDAPException(ResultCode.OTHER, e.getMessage());
    }
    store.replaceWith(candidate);
    return new Outcome(next, notice);
  }

  /**
   * What the operator must do for changed attributes to take full effect; null when they apply
   * live.
   */
  private static String notice(Entry entry, List<String> changedAttributes) {
    Optional<ObjectDefinition> found = ConfigModel.definitionOf(entry);
    if (found.isEmpty()) {
      return null;
    }
    ObjectDefinition definition = found.get();
    Map<ApplyMode, Set<String>> byMode = new EnumMap<>(ApplyMode.class);
    for (String attribute : changedAttributes) {
      String property = PropertyDefinition.propertyOf(attribute.toLowerCase(Locale.ROOT));
      if (property == null) {
        continue;
      }
      definition
          .property(definition.typeOf(entry).orElse(null), property)
          .ifPresent(
              p -> {
                if (p.apply() != ApplyMode.LIVE) {
                  byMode.computeIfAbsent(p.apply(), m -> new LinkedHashSet<>()).add(p.name());
                }
              });
    }
    List<String> notices = new ArrayList<>();
    byMode.forEach(
        (mode, names) ->
            notices.add("The change to " + String.join(", ", names) + " " + mode.notice()));
    return notices.isEmpty() ? null : String.join("; ", notices);
  }
}

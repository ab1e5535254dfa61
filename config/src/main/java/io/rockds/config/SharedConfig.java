package io.rockds.config;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.RDN;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Which configuration every server of a replication group must share, because it defines what the
 * data means or who may read and change it: the password policies with their storage schemes and
 * validators, the backends' index and VLV index definitions, the plugins (referential integrity
 * runs on every server as it applies a change), the global ACIs, and of the global settings the
 * default password policy and anonymous read access. Everything else is the server's own: its
 * listeners, TLS key material, replication settings, backends' storage (directory, caches), memory,
 * threads, limits and log files. The shared part travels through the replication log; the rest is
 * changed on each server.
 */
public final class SharedConfig {
  /** Whether a change touches the shared configuration, the server's own, or both. */
  public enum Scope {
    SHARED,
    LOCAL,
    MIXED
  }

  /** The subtrees shared as a whole. */
  private static final List<DN> SHARED_SUBTREES =
      List.of(
          ConfigDns.PASSWORD_POLICIES,
          ConfigDns.PASSWORD_STORAGE_SCHEMES,
          ConfigDns.PASSWORD_VALIDATORS,
          ConfigDns.PLUGINS,
          InitialConfig.ACCESS_CONTROL_HANDLER);

  /** Below a backend, the containers of its index definitions. */
  private static final List<RDN> INDEX_CONTAINERS =
      List.of(new RDN("cn", "Index"), new RDN("cn", "VLV Index"));

  /** The attributes of the global configuration entry ({@code cn=config}) that are shared. */
  private static final Set<String> SHARED_GLOBAL_ATTRIBUTES =
      Set.of("ds-cfg-allow-anonymous-read", "ds-cfg-default-password-policy");

  private SharedConfig() {}

  /** Whether the entry {@code dn}, with all it holds, is shared ({@code cn=config} is not). */
  public static boolean isShared(DN dn) {
    for (DN subtree : SHARED_SUBTREES) {
      if (dn.isDescendantOf(subtree, true)) {
        return true;
      }
    }
    for (DN d = dn; d != null && d.getParent() != null; d = d.getParent()) {
      DN backend = d.getParent();
      if (ConfigDns.BACKENDS.equals(backend.getParent()) && INDEX_CONTAINERS.contains(d.getRDN())) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code attribute} of the global configuration entry is shared. */
  public static boolean isSharedGlobal(String attribute) {
    return SHARED_GLOBAL_ATTRIBUTES.contains(attribute.toLowerCase(Locale.ROOT));
  }

  /** The shared attributes of the global configuration entry, for messages. */
  public static List<String> sharedGlobalAttributes() {
    return SHARED_GLOBAL_ATTRIBUTES.stream().sorted().toList();
  }

  /** What an add or delete of {@code dn} touches. */
  public static Scope ofEntry(DN dn) {
    return isShared(dn) ? Scope.SHARED : Scope.LOCAL;
  }

  /** What a modify of {@code attributes} of {@code dn} touches. */
  public static Scope ofModify(DN dn, Collection<String> attributes) {
    if (!dn.equals(ConfigDns.CONFIG)) {
      return ofEntry(dn);
    }
    long shared = attributes.stream().filter(SharedConfig::isSharedGlobal).count();
    if (shared == 0) {
      return Scope.LOCAL;
    }
    return shared == attributes.size() ? Scope.SHARED : Scope.MIXED;
  }

  /**
   * The shared part of {@code store}: its shared entries, and {@code cn=config} with its shared
   * attributes alone. A replication snapshot carries it.
   */
  public static List<Entry> sharedPart(ConfigStore store) throws LDAPException {
    List<Entry> shared = new ArrayList<>();
    for (Entry entry : store.all()) {
      DN dn = entry.getParsedDN();
      if (dn.equals(ConfigDns.CONFIG)) {
        Entry global = new Entry(dn);
        for (Attribute attribute : entry.getAttributes()) {
          if (isSharedGlobal(attribute.getBaseName())) {
            global.addAttribute(attribute);
          }
        }
        shared.add(global);
      } else if (isShared(dn)) {
        shared.add(entry);
      }
    }
    return shared;
  }

  /**
   * Replaces the shared part of {@code store} (in memory; validate and save it after) with {@code
   * shared}, as {@link #sharedPart} returned it on another server; the server's own entries and
   * global settings stay.
   */
  public static void replaceSharedPart(ConfigStore store, List<Entry> shared)
      throws LDAPException, ConfigException {
    for (Entry entry : store.all()) {
      DN dn = entry.getParsedDN();
      if (dn.equals(ConfigDns.CONFIG)) {
        Entry own = entry.duplicate();
        for (Attribute attribute : entry.getAttributes()) {
          if (isSharedGlobal(attribute.getBaseName())) {
            own.removeAttribute(attribute.getName());
          }
        }
        store.put(own);
      } else if (isShared(dn)) {
        store.remove(dn);
      }
    }
    for (Entry entry : shared) {
      DN dn = entry.getParsedDN();
      if (dn.equals(ConfigDns.CONFIG)) {
        Entry global = store.get(dn);
        for (Attribute attribute : entry.getAttributes()) {
          global.addAttribute(attribute);
        }
        store.put(global);
      } else if (isShared(dn)) {
        store.put(entry);
      }
    }
  }
}

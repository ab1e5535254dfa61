package io.rockds.config;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldif.LDIFException;
import com.unboundid.ldif.LDIFReader;
import com.unboundid.ldif.LDIFWriter;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The configuration entries of an instance, loaded from and saved to {@code config/config.ldif}.
 *
 * <p>Every save writes a temporary file, forces it to disk and renames it over the old one, so a
 * crash leaves either the old or the new configuration, never half of one; the previous version
 * is first copied to {@code config/archived-configs/config-<UTC timestamp>.ldif}. A file with an
 * error is refused at load with its line number and the reason.
 */
public final class ConfigStore {
  private static final DateTimeFormatter ARCHIVE_STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS'Z'");

  private final Path file;
  /** Keyed by normalized DN; the order sorts parents before children when written. */
  private final Map<String, Entry> entries = new TreeMap<>(ConfigStore::compareDns);

  private ConfigStore(Path file) {
    this.file = file;
  }

  /** Parses {@code file}; a syntax error names the line and the reason. */
  public static ConfigStore load(Path file) throws ConfigException {
    ConfigStore store = new ConfigStore(file);
    if (!Files.isRegularFile(file)) {
      throw new ConfigException("configuration file " + file + " does not exist (run bin/setup first)");
    }
    try (LDIFReader reader = new LDIFReader(file.toFile())) {
      while (true) {
        Entry entry;
        try {
          entry = reader.readEntry();
        } catch (LDIFException e) {
          throw new ConfigException(file + ": line " + e.getLineNumber() + ": " + e.getExceptionMessage(), e);
        }
        if (entry == null) {
          break;
        }
        store.put(entry);
      }
    } catch (IOException e) {
      throw new ConfigException("cannot read " + file + ": " + e.getMessage(), e);
    }
    return store;
  }

  /** A store for a new instance; nothing is written until {@link #save}. */
  public static ConfigStore create(Path file, List<Entry> initial) throws ConfigException {
    ConfigStore store = new ConfigStore(file);
    for (Entry e : initial) {
      store.put(e);
    }
    return store;
  }

  public Path file() {
    return file;
  }

  private static String normalize(DN dn) {
    return dn.toNormalizedString();
  }

  private static int compareDns(String a, String b) {
    try {
      return new DN(a).compareTo(new DN(b));
    } catch (LDAPException e) {
      return a.compareTo(b);
    }
  }

  public synchronized Entry get(DN dn) {
    Entry e = entries.get(normalize(dn));
    return e == null ? null : e.duplicate();
  }

  /** The entries directly below {@code parent}. */
  public synchronized List<Entry> children(DN parent) {
    List<Entry> out = new ArrayList<>();
    for (Entry e : entries.values()) {
      try {
        DN dn = e.getParsedDN();
        if (parent.equals(dn.getParent())) {
          out.add(e.duplicate());
        }
      } catch (LDAPException ignored) {
        // Every stored DN was parsed on the way in.
      }
    }
    return out;
  }

  public synchronized List<Entry> all() {
    List<Entry> out = new ArrayList<>();
    for (Entry e : entries.values()) {
      out.add(e.duplicate());
    }
    return Collections.unmodifiableList(out);
  }

  /** Adds or replaces an entry (in memory; call {@link #save}). */
  public synchronized void put(Entry entry) throws ConfigException {
    try {
      entries.put(normalize(entry.getParsedDN()), entry.duplicate());
    } catch (LDAPException e) {
      throw new ConfigException("invalid DN \"" + entry.getDN() + "\": " + e.getExceptionMessage(), e);
    }
  }

  public synchronized boolean remove(DN dn) {
    return entries.remove(normalize(dn)) != null;
  }

  /** Writes the configuration atomically, archiving the previous version. */
  public synchronized void save() throws ConfigException {
    try {
      Files.createDirectories(file.getParent());
      if (Files.exists(file)) {
        Path archive = file.getParent().resolve("archived-configs");
        Files.createDirectories(archive);
        String stamp = ZonedDateTime.now(ZoneOffset.UTC).format(ARCHIVE_STAMP);
        Files.copy(file, archive.resolve("config-" + stamp + ".ldif"), StandardCopyOption.REPLACE_EXISTING);
      }
      Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
      try (LDIFWriter writer = new LDIFWriter(tmp.toFile())) {
        writer.writeComment("RockDS configuration. Edit with bin/dsconfig, or by hand while the server is stopped.",
            false, true);
        for (Entry e : entries.values()) {
          writer.writeEntry(e);
        }
        writer.flush();
      }
      try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(tmp,
          java.nio.file.StandardOpenOption.WRITE)) {
        channel.force(true);
      }
      try {
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      throw new ConfigException("cannot write " + file + ": " + e.getMessage(), e);
    }
  }
}

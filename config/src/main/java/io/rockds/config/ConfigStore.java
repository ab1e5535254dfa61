package io.rockds.config;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldif.LDIFException;
import com.unboundid.ldif.LDIFReader;
import com.unboundid.ldif.LDIFWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The configuration entries of an instance, loaded from and saved to {@code config/config.ldif}.
 *
 * <p>Every save writes a temporary file, forces it to disk and renames it over the old one, so a
 * crash leaves either the old or the new configuration, never half of one; the previous version is
 * first copied to {@code config/archived-configs/config-<UTC timestamp>.ldif}. A file with an error
 * is refused at load with its line number and the reason.
 */
public final class ConfigStore {
  private static final DateTimeFormatter ARCHIVE_STAMP =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS'Z'");

  private static final Pattern ATTRIBUTE_LINE = Pattern.compile("[A-Za-z][A-Za-z0-9;.-]*::?<?");

  private final Path file;

  /** Keyed by normalized DN; the order sorts parents before children when written. */
  private final Map<String, Entry> entries = new TreeMap<>(ConfigStore::compareDns);

  /**
   * The file's lines as loaded, and the line (1-based) of each entry's "dn:"; for error messages.
   */
  private List<String> loadedLines = List.of();

  private final Map<String, Integer> entryLines = new HashMap<>();

  private ConfigStore(Path file) {
    this.file = file;
  }

  /** Parses {@code file}; a syntax error names the line and the reason. */
  public static ConfigStore load(Path file) throws ConfigException {
    ConfigStore store = new ConfigStore(file);
    if (!Files.isRegularFile(file)) {
      throw new ConfigException(
          "configuration file " + file + " does not exist (run bin/setup first)");
    }
    List<Integer> dnLines = new ArrayList<>();
    try {
      store.loadedLines = Files.readAllLines(file, StandardCharsets.UTF_8);
      for (int i = 0; i < store.loadedLines.size(); i++) {
        if (store.loadedLines.get(i).regionMatches(true, 0, "dn:", 0, 3)) {
          dnLines.add(i + 1);
        }
      }
    } catch (IOException e) {
      throw new ConfigException("cannot read " + file + ": " + e.getMessage(), e);
    }
    try (LDIFReader reader = new LDIFReader(file.toFile())) {
      for (int index = 0; ; index++) {
        Entry entry;
        try {
          entry = reader.readEntry();
        } catch (LDIFException e) {
          int line = store.badLine((int) e.getLineNumber());
          throw new ConfigException(
              file
                  + ": line "
                  + line
                  + ": "
                  + e.getMessage()
                  + " (\""
                  + store.loadedLines.get(line - 1).strip()
                  + "\")",
              e);
        }
        if (entry == null) {
          break;
        }
        if (store.get(entry.getParsedDN()) != null) {
          throw new ConfigException(
              file
                  + ": line "
                  + lineOr(dnLines, index)
                  + ": the entry "
                  + entry.getDN()
                  + " appears twice");
        }
        store.put(entry);
        store.entryLines.put(normalize(entry.getParsedDN()), lineOr(dnLines, index));
      }
      ConfigUpgrade.apply(store);
    } catch (LDAPException e) {
      throw new ConfigException(file + ": invalid DN: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new ConfigException("cannot read " + file + ": " + e.getMessage(), e);
    }
    return store;
  }

  /**
   * The line at fault in the record the LDIF reader reports starting at {@code recordLine}: the
   * first line that is neither a comment, a continuation nor {@code attribute: value}; the record's
   * line when none stands out.
   */
  private int badLine(int recordLine) {
    for (int i = Math.max(recordLine - 1, 0);
        i < loadedLines.size() && !loadedLines.get(i).isBlank();
        i++) {
      String text = loadedLines.get(i);
      if (!text.startsWith("#")
          && !text.startsWith(" ")
          && !ATTRIBUTE_LINE.matcher(text).lookingAt()) {
        return i + 1;
      }
    }
    return Math.max(recordLine, 1);
  }

  private static int lineOr(List<Integer> dnLines, int index) {
    return index < dnLines.size() ? dnLines.get(index) : 0;
  }

  /**
   * Where an error is, for messages: {@code <file>: line <n>: } pointing at {@code attribute} of
   * the entry {@code dn} as it was loaded (or at its "dn:" line); just {@code <file>: } for an
   * entry added since.
   */
  public synchronized String location(DN dn, String attribute) {
    Integer start = entryLines.get(normalize(dn));
    if (start == null) {
      return file + ": ";
    }
    int line = start;
    if (attribute != null) {
      String prefix = attribute.toLowerCase(Locale.ROOT);
      for (int i = start; i < loadedLines.size() && !loadedLines.get(i).isBlank(); i++) {
        String text = loadedLines.get(i).toLowerCase(Locale.ROOT);
        if (text.startsWith(prefix + ":") || text.startsWith(prefix + ";")) {
          line = i + 1;
          break;
        }
      }
    }
    return file + ": line " + line + ": ";
  }

  /** An in-memory copy to try a change on before it is accepted; saving it writes the same file. */
  public synchronized ConfigStore copy() {
    ConfigStore copy = new ConfigStore(file);
    entries.forEach((dn, e) -> copy.entries.put(dn, e.duplicate()));
    copy.loadedLines = loadedLines;
    copy.entryLines.putAll(entryLines);
    return copy;
  }

  /** Replaces this store's entries with those of {@code other} (an accepted {@link #copy}). */
  public synchronized void replaceWith(ConfigStore other) {
    synchronized (other) {
      entries.clear();
      other.entries.forEach((dn, e) -> entries.put(dn, e.duplicate()));
    }
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
      entryLines.remove(normalize(entry.getParsedDN()));
    } catch (LDAPException e) {
      throw new ConfigException(
          "invalid DN \"" + entry.getDN() + "\": " + e.getExceptionMessage(), e);
    }
  }

  public synchronized boolean remove(DN dn) {
    entryLines.remove(normalize(dn));
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
        Files.copy(
            file,
            archive.resolve("config-" + stamp + ".ldif"),
            StandardCopyOption.REPLACE_EXISTING,
            StandardCopyOption.COPY_ATTRIBUTES);
      }
      Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
      // Owner only: the file holds the root password hash.
      Files.deleteIfExists(tmp);
      if (Files.getFileStore(file.getParent())
          .supportsFileAttributeView(PosixFileAttributeView.class)) {
        Files.createFile(
            tmp,
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      }
      try (LDIFWriter writer = new LDIFWriter(tmp.toFile())) {
        writer.writeComment(
            "RockDS configuration. Edit with bin/dsconfig, or by hand while the server is stopped.",
            false,
            true);
        for (Entry e : entries.values()) {
          writer.writeEntry(e);
        }
        writer.flush();
      }
      try (java.nio.channels.FileChannel channel =
          java.nio.channels.FileChannel.open(tmp, java.nio.file.StandardOpenOption.WRITE)) {
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

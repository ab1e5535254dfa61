package io.rockds.server.schema;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.schema.AttributeTypeDefinition;
import com.unboundid.ldap.sdk.schema.ObjectClassDefinition;
import com.unboundid.ldap.sdk.schema.Schema;
import com.unboundid.ldif.LDIFException;
import com.unboundid.ldif.LDIFReader;
import io.rockds.config.ConfigException;
import io.rockds.storage.matching.FilterEvaluator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Date;
import java.util.List;
import java.util.Locale;

/**
 * The server's current schema. Reads are lock-free (a volatile reference to an immutable {@link
 * Schema}); online changes through a modify of {@code cn=schema} are serialized, checked against
 * the whole schema, written to {@code 99-user.ldif} first and only then published, so a restart
 * always sees what clients were told succeeded.
 */
public final class ServerSchema {
  /** The file holding definitions added over LDAP, as OpenDJ names it. */
  public static final String USER_FILE = "99-user.ldif";

  private static final List<String> CHANGEABLE =
      List.of(Schema.ATTR_ATTRIBUTE_TYPE, Schema.ATTR_OBJECT_CLASS);

  private final Path directory;
  private final Date created = new Date();
  private volatile Schema schema;
  private volatile Entry subschemaEntry;
  private volatile SchemaChecker checker;
  private volatile FilterEvaluator evaluator;

  private ServerSchema(Path directory, Schema schema) {
    this.directory = directory;
    publish(schema, created);
  }

  /** Loads the standard schema and the files of {@code directory}. */
  public static ServerSchema load(Path directory) throws ConfigException {
    return new ServerSchema(directory, SchemaLoader.load(directory));
  }

  public Schema current() {
    return schema;
  }

  /** The subschema entry; shared, never modify it. */
  public Entry subschemaEntry() {
    return subschemaEntry;
  }

  /** The checker of the current schema. */
  public SchemaChecker checker() {
    return checker;
  }

  /**
   * The filter evaluator of the current schema, shared so that its resolved attribute descriptions
   * are reused.
   */
  public FilterEvaluator evaluator() {
    return evaluator;
  }

  private void publish(Schema next, Date modified) {
    subschemaEntry = SubschemaEntry.build(next, created, modified);
    checker = new SchemaChecker(next);
    evaluator = new FilterEvaluator(next);
    schema = next;
  }

  /**
   * Applies a modify of {@code cn=schema}: adding or deleting attributeTypes and objectClasses
   * values. Deleting is limited to definitions of {@code 99-user.ldif}: the standard schema is not
   * the client's to remove.
   */
  public synchronized void modify(List<Modification> modifications) throws LDAPException {
    Changed changed = change(modifications);
    writeUserFile(changed.user());
    publish(changed.schema(), new Date());
  }

  /**
   * Checks a modify of {@code cn=schema} against the current schema, changing nothing: what {@link
   * #modify} would refuse, this refuses alike.
   */
  public synchronized void check(List<Modification> modifications) throws LDAPException {
    change(modifications);
  }

  /** A schema change worked out: the definitions added over LDAP, and the whole schema. */
  private record Changed(Entry user, Schema schema) {}

  private Changed change(List<Modification> modifications) throws LDAPException {
    Entry user = readUserFile();
    Schema working = schema;
    for (Modification m : modifications) {
      String name =
          CHANGEABLE.stream()
              .filter(n -> n.equalsIgnoreCase(m.getAttributeName()))
              .findFirst()
              .orElseThrow(
                  () ->
                      new LDAPException(
                          ResultCode.UNWILLING_TO_PERFORM,
                          "The schema attribute "
                              + m.getAttributeName()
                              + " cannot be changed over LDAP; only "
                              + String.join(" and ", CHANGEABLE)
                              + " can"));
      if (m.getModificationType() == ModificationType.ADD) {
        for (String value : m.getValues()) {
          checkNew(working, name, value);
          user.addAttribute(name, value);
          // Later values of the same request may refer to this one.
          working =
              Schema.mergeSchemas(
                  working,
                  new Schema(new Entry(SubschemaEntry.DN_STRING, new Attribute(name, value))));
        }
      } else if (m.getModificationType() == ModificationType.DELETE && m.hasValue()) {
        for (String value : m.getValues()) {
          if (!user.removeAttributeValue(name, value)) {
            throw new LDAPException(
                ResultCode.UNWILLING_TO_PERFORM,
                "The definition "
                    + value
                    + " is not in "
                    + USER_FILE
                    + "; only definitions added over LDAP can be removed");
          }
        }
      } else {
        throw new LDAPException(
            ResultCode.UNWILLING_TO_PERFORM,
            "Only add and delete of values are allowed on cn=schema, not "
                + m.getModificationType().getName());
      }
    }
    try {
      return new Changed(user, SchemaLoader.load(directory, user));
    } catch (ConfigException e) {
      throw new LDAPException(ResultCode.OTHER, e.getMessage(), e);
    }
  }

  /** A new definition must parse and must not reuse a name or OID the schema already has. */
  private static void checkNew(Schema current, String attribute, String value)
      throws LDAPException {
    try {
      if (attribute.equals(Schema.ATTR_ATTRIBUTE_TYPE)) {
        AttributeTypeDefinition d = new AttributeTypeDefinition(value);
        String sup = d.getSuperiorType();
        if (sup != null && current.getAttributeType(sup) == null) {
          throw undefined("superior attribute type", sup, value);
        }
        if (d.getSyntaxOID() == null && sup == null) {
          throw new LDAPException(
              ResultCode.INVALID_ATTRIBUTE_SYNTAX,
              "The attribute type " + d.getNameOrOID() + " needs a SYNTAX or a SUP");
        }
        for (String id : ids(d.getOID(), d.getNames())) {
          if (current.getAttributeType(id) != null) {
            throw exists("attribute type", id);
          }
        }
      } else {
        ObjectClassDefinition d = new ObjectClassDefinition(value);
        for (String sup : d.getSuperiorClasses()) {
          if (current.getObjectClass(sup) == null) {
            throw undefined("superior object class", sup, value);
          }
        }
        for (String a : concat(d.getRequiredAttributes(), d.getOptionalAttributes())) {
          if (current.getAttributeType(a) == null) {
            throw undefined("attribute type", a, value);
          }
        }
        for (String id : ids(d.getOID(), d.getNames())) {
          if (current.getObjectClass(id) != null) {
            throw exists("object class", id);
          }
        }
      }
    } catch (LDAPException e) {
      if (e.getResultCode() == ResultCode.DECODING_ERROR
          || e.getResultCode() == ResultCode.LOCAL_ERROR) {
        throw new LDAPException(
            ResultCode.INVALID_ATTRIBUTE_SYNTAX,
            "The " + attribute + " value cannot be parsed: " + e.getExceptionMessage());
      }
      throw e;
    }
  }

  private static String[] ids(String oid, String[] names) {
    return concat(new String[] {oid}, names);
  }

  private static String[] concat(String[] a, String[] b) {
    String[] r = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, r, a.length, b.length);
    return r;
  }

  private static LDAPException undefined(String what, String name, String value) {
    return new LDAPException(
        ResultCode.INVALID_ATTRIBUTE_SYNTAX,
        "The definition " + value + " refers to the undefined " + what + " " + name);
  }

  private static LDAPException exists(String what, String id) {
    return new LDAPException(
        ResultCode.ATTRIBUTE_OR_VALUE_EXISTS,
        "The schema already defines the " + what + " " + id.toLowerCase(Locale.ROOT));
  }

  private Entry readUserFile() throws LDAPException {
    Path file = directory.resolve(USER_FILE);
    if (Files.exists(file)) {
      try (LDIFReader reader = new LDIFReader(file.toFile())) {
        Entry entry = reader.readEntry();
        if (entry != null) {
          return entry;
        }
      } catch (IOException | LDIFException e) {
        throw new LDAPException(ResultCode.OTHER, "cannot read " + file + ": " + e.getMessage(), e);
      }
    }
    return new Entry(
        SubschemaEntry.DN_STRING,
        new Attribute("objectClass", "top", "subschema"),
        new Attribute("cn", "schema"));
  }

  private void writeUserFile(Entry user) throws LDAPException {
    Path file = directory.resolve(USER_FILE);
    try {
      Files.createDirectories(directory);
      Path temp = Files.createTempFile(directory, USER_FILE, ".tmp");
      Files.writeString(
          temp,
          "# Schema added over LDAP (modify of cn=schema); read at start after the other files.\n"
              + user.toLDIFString(0)
              + "\n",
          StandardCharsets.UTF_8);
      Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new LDAPException(ResultCode.OTHER, "cannot write " + file + ": " + e.getMessage(), e);
    }
  }
}

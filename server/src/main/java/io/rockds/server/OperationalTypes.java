package io.rockds.server;

import com.unboundid.ldap.sdk.schema.AttributeTypeDefinition;
import com.unboundid.ldap.sdk.schema.Schema;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Whether an attribute description names an operational type, remembered per description of the
 * schema's types: a search returning all user attributes asks it of every attribute of every entry
 * it sends, and resolving the type lower-cased the name twice.
 */
final class OperationalTypes {
  /** Descriptions come from stored entries, not clients, but the memory stays bounded anyway. */
  private static final int MAX_REMEMBERED = 10_000;

  /** The instance of the schema last asked for: a schema change publishes a new schema object. */
  private static volatile OperationalTypes latest;

  private final Schema schema;
  private final Map<String, Boolean> operational = new ConcurrentHashMap<>();

  private OperationalTypes(Schema schema) {
    this.schema = schema;
  }

  static OperationalTypes of(Schema schema) {
    OperationalTypes current = latest;
    if (current == null || current.schema != schema) {
      current = new OperationalTypes(schema);
      latest = current;
    }
    return current;
  }

  /** True if {@code description} (options allowed) names an operational type of the schema. */
  boolean isOperational(String description) {
    Boolean known = operational.get(description);
    if (known != null) {
      return known;
    }
    int semicolon = description.indexOf(';');
    String base = semicolon < 0 ? description : description.substring(0, semicolon);
    AttributeTypeDefinition type = schema.getAttributeType(base.toLowerCase(Locale.ROOT));
    boolean result = type != null && type.isOperational();
    if (type != null && operational.size() < MAX_REMEMBERED) {
      operational.put(description, result);
    }
    return result;
  }
}

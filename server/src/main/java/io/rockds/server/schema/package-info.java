/**
 * The schema: what is loaded at start (the SDK's standard schema, the definitions it lacks shipped
 * as LDIF resources, then the instance's {@code config/schema/*.ldif}), the subschema entry served
 * at {@code cn=schema}, online additions by modify of that entry (persisted to {@code
 * 99-user.ldif}; in a replication group, a settings record every server applies), and the checks
 * every write passes (object classes, attribute types, syntaxes, single values, naming) with the
 * result codes OpenLDAP returns.
 */
package io.rockds.server.schema;

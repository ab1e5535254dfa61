package io.rockds.server;

import com.unboundid.ldap.sdk.schema.Schema;
import io.netty.handler.ssl.SslContext;
import io.rockds.config.GlobalConfig;
import io.rockds.server.group.Groups;
import io.rockds.server.schema.ServerSchema;
import io.rockds.server.security.RootUsers;
import io.rockds.server.security.password.PasswordSchemes;

/**
 * The services every operation uses, built once by {@link DirectoryServer}: an explicit
 * composition root instead of static singletons.
 *
 * @param serverSchema the schema, which a modify of cn=schema may replace while the server runs
 * @param sslContext for StartTLS; null when TLS is not configured
 * @param groups group membership and referential integrity
 */
public record ServerContext(
    Backends backends,
    ServerSchema serverSchema,
    RootUsers rootUsers,
    PasswordSchemes passwords,
    GlobalConfig global,
    SslContext sslContext,
    Groups groups) {

  /** The current schema: read it once per operation, it may change between operations. */
  public Schema schema() {
    return serverSchema.current();
  }
}

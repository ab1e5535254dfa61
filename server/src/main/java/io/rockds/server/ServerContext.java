package io.rockds.server;

import com.unboundid.ldap.sdk.schema.Schema;
import io.netty.handler.ssl.SslContext;
import io.rockds.config.GlobalConfig;
import io.rockds.server.backend.BackendRouter;
import io.rockds.server.changelog.ChangelogStore;
import io.rockds.server.config.LiveConfiguration;
import io.rockds.server.group.Groups;
import io.rockds.server.schema.ServerSchema;
import io.rockds.server.security.AccessControl;
import io.rockds.server.security.RootUsers;
import io.rockds.server.security.password.PasswordSchemes;
import io.rockds.server.security.policy.PasswordPolicyService;

/**
 * The services every operation uses, built once by {@link DirectoryServer}: an explicit composition
 * root instead of static singletons.
 *
 * @param serverSchema the schema, which a modify of cn=schema may replace while the server runs
 * @param configuration the live configuration; {@link #global} reads its current global settings
 * @param sslContext for StartTLS; null when TLS is not configured
 * @param router the naming contexts: which backend (root DSE, cn=schema, cn=config, cn=monitor,
 *     cn=tasks, a RocksDB backend) holds a DN
 * @param access access control: ACIs and privileges
 * @param passwordPolicy password binds, changes and Password Modify under the password policies
 * @param groups group membership and referential integrity
 * @param writes where prepared writes go: applied at once, or through the replication log
 * @param applier the deterministic application of prepared writes
 * @param changelog the changes applied to the RocksDB backends, recorded by the batches applying
 *     them ({@code cn=changelog})
 */
public record ServerContext(
    Backends backends,
    ServerSchema serverSchema,
    RootUsers rootUsers,
    LiveConfiguration configuration,
    SslContext sslContext,
    BackendRouter router,
    AccessControl access,
    PasswordPolicyService passwordPolicy,
    Groups groups,
    WritePath writes,
    WriteApplier applier,
    ChangelogStore changelog) {

  /** The current schema: read it once per operation, it may change between operations. */
  public Schema schema() {
    return serverSchema.current();
  }

  /** The global settings in force now (they change live). */
  public GlobalConfig global() {
    return configuration.global();
  }

  /** The password schemes of the policy governing {@code entry}, as import-ldif hashes with. */
  public PasswordSchemes passwordsFor(com.unboundid.ldap.sdk.Entry entry) {
    return configuration.passwordsFor(entry);
  }

  /** The password schemes of the default password policy in force now (they change live). */
  public PasswordSchemes passwords() {
    return configuration.passwords();
  }
}

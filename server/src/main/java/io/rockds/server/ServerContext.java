package io.rockds.server;

import com.unboundid.ldap.sdk.schema.Schema;
import io.netty.handler.ssl.SslContext;
import io.rockds.config.GlobalConfig;
import io.rockds.server.security.AccessControl;
import io.rockds.server.security.RootUsers;
import io.rockds.server.security.policy.PasswordPolicyService;
import io.rockds.server.security.password.PasswordSchemes;

/**
 * The services every operation uses, built once by {@link DirectoryServer}: an explicit
 * composition root instead of static singletons.
 *
 * @param sslContext for StartTLS; null when TLS is not configured
 * @param access access control: ACIs and privileges
 * @param passwordPolicy password binds, changes and Password Modify under the password policies
 */
public record ServerContext(
    Backends backends,
    Schema schema,
    RootUsers rootUsers,
    PasswordSchemes passwords,
    GlobalConfig global,
    SslContext sslContext,
    AccessControl access,
    PasswordPolicyService passwordPolicy) {}

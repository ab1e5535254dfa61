package io.rockds.server.security.aci;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.schema.Schema;
import java.time.LocalDateTime;

/**
 * What one bind rule evaluation sees.
 *
 * @param subject who asks
 * @param target the entry acted on (an entry with only a DN when it does not exist yet)
 * @param now the server's local time, for {@code dayofweek} and {@code timeofday}
 */
record BindContext(
    Subject subject,
    Entry target,
    DN targetDn,
    LocalDateTime now,
    DirectoryReader directory,
    HostNames hostNames,
    Schema schema) {}

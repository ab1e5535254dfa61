package io.rockds.server.security.aci;

import com.unboundid.ldap.sdk.DN;

/** Answers {@code groupdn} bind rules: is a user a member of a group. */
@FunctionalInterface
public interface GroupMembership {
  boolean isMember(DN user, DN group);
}

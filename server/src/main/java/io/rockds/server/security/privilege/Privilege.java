package io.rockds.server.security.privilege;

import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import io.rockds.server.Identity;

/**
 * OpenDJ's privileges: rights that ACIs cannot grant, held by root DNs (their {@code
 * ds-privilege-name} in {@code cn=Root DNs,cn=config}) and by entries through their own {@code
 * ds-privilege-name} values.
 */
public enum Privilege {
  /** Access control is not evaluated (privileges still are). */
  BYPASS_ACL("bypass-acl"),
  UNINDEXED_SEARCH("unindexed-search"),
  /** Read and search {@code cn=config}. */
  CONFIG_READ("config-read"),
  /** Add, delete, modify and rename entries of {@code cn=config}. */
  CONFIG_WRITE("config-write"),
  /** Change another user's password (Password Modify or a modify of userPassword). */
  PASSWORD_RESET("password-reset"),
  /** Use the proxied authorization control. */
  PROXIED_AUTH("proxied-auth"),
  BACKEND_BACKUP("backend-backup"),
  BACKEND_RESTORE("backend-restore"),
  /** Change {@code ds-privilege-name} values. */
  PRIVILEGE_CHANGE("privilege-change"),
  MONITOR_READ("monitor-read"),
  /** Read and search {@code cn=changelog}. */
  CHANGELOG_READ("changelog-read");

  /** The attribute holding an entry's privileges. */
  public static final String ATTRIBUTE = "ds-privilege-name";

  /** The name in {@code ds-privilege-name}, e.g. {@code bypass-acl}. */
  private final String configName;

  Privilege(String configName) {
    this.configName = configName;
  }

  public boolean heldBy(Identity identity) {
    return identity.has(configName);
  }

  /** Refuses with insufficientAccessRights (50) unless {@code identity} holds this privilege. */
  public void require(Identity identity, String action) throws LDAPException {
    if (!heldBy(identity)) {
      throw new LDAPException(
          ResultCode.INSUFFICIENT_ACCESS_RIGHTS,
          "You do not have the " + configName + " privilege required to " + action);
    }
  }
}

package io.rockds.server.security.aci;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.schema.Schema;
import java.time.Clock;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;

/** Computes what a subject may do on an entry from the ACIs that apply to it. */
public final class AciEvaluator {
  private final Schema schema;
  private final OperationalTypes operational;
  private final DirectoryReader directory;
  private final HostNames hostNames;
  private final Clock clock;

  /**
   * @param clock the server's clock in its time zone: {@code dayofweek} and {@code timeofday} read
   *     local time, as OpenDJ does
   */
  public AciEvaluator(Schema schema, DirectoryReader directory, HostNames hostNames, Clock clock) {
    this.schema = schema;
    this.operational = new OperationalTypes(schema);
    this.directory = directory;
    this.hostNames = hostNames;
    this.clock = clock;
  }

  /**
   * The rights of {@code subject} on {@code entry}, given the candidate ACIs (global and
   * inherited).
   */
  public EntryAccess evaluate(Subject subject, Entry entry, List<Aci> candidates)
      throws LDAPException {
    DN dn = entry.getParsedDN();
    BindContext context =
        new BindContext(subject, entry, dn, LocalDateTime.now(clock), directory, hostNames, schema);
    List<EntryAccess.Grant> grants = new ArrayList<>();
    for (Aci aci : candidates) {
      if (!aci.targets().appliesTo(aci.holder(), entry, dn, schema)) {
        continue;
      }
      for (Aci.Permission p : aci.permissions()) {
        if (p.bindRule().matches(context)) {
          grants.add(new EntryAccess.Grant(aci.targets(), p));
        }
      }
    }
    return new EntryAccess(grants, operational);
  }
}

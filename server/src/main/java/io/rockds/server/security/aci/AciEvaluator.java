package io.rockds.server.security.aci;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.schema.Schema;
import java.util.ArrayList;
import java.util.List;

/** Computes what a subject may do on an entry from the ACIs that apply to it. */
public final class AciEvaluator {
  private final Schema schema;
  private final OperationalTypes operational;
  private final GroupMembership groups;

  public AciEvaluator(Schema schema, GroupMembership groups) {
    this.schema = schema;
    this.operational = new OperationalTypes(schema);
    this.groups = groups;
  }

  /** The rights of {@code subject} on {@code entry}, given the candidate ACIs (global and inherited). */
  public EntryAccess evaluate(Subject subject, Entry entry, List<Aci> candidates) throws LDAPException {
    DN dn = entry.getParsedDN();
    List<EntryAccess.Grant> grants = new ArrayList<>();
    for (Aci aci : candidates) {
      if (!aci.targets().appliesTo(aci.holder(), entry, dn, schema)) {
        continue;
      }
      for (Aci.Permission p : aci.permissions()) {
        if (p.bindRule().matches(subject, dn, groups)) {
          grants.add(new EntryAccess.Grant(aci.targets(), p));
        }
      }
    }
    return new EntryAccess(grants, operational);
  }
}

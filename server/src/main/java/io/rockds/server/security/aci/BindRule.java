package io.rockds.server.security.aci;

import com.unboundid.ldap.sdk.DN;
import java.util.List;

/**
 * The bind rule of an ACI permission: who the permission is for. Keywords {@code userdn},
 * {@code groupdn}, {@code authmethod} and {@code ip}, each with {@code =} or {@code !=}, combined
 * with {@code and}, {@code or}, {@code not} and parentheses.
 */
sealed interface BindRule {
  /** True if the rule holds for {@code subject} acting on the entry {@code target}. */
  boolean matches(Subject subject, DN target, GroupMembership groups);

  record And(List<BindRule> rules) implements BindRule {
    @Override
    public boolean matches(Subject subject, DN target, GroupMembership groups) {
      return rules.stream().allMatch(r -> r.matches(subject, target, groups));
    }
  }

  record Or(List<BindRule> rules) implements BindRule {
    @Override
    public boolean matches(Subject subject, DN target, GroupMembership groups) {
      return rules.stream().anyMatch(r -> r.matches(subject, target, groups));
    }
  }

  record Not(BindRule rule) implements BindRule {
    @Override
    public boolean matches(Subject subject, DN target, GroupMembership groups) {
      return !rule.matches(subject, target, groups);
    }
  }

  /** {@code userdn="ldap:///anyone || ldap:///self || ldap:///uid=*,ou=People,..."}. */
  record UserDn(List<UserUrl> urls, boolean negated) implements BindRule {
    @Override
    public boolean matches(Subject subject, DN target, GroupMembership groups) {
      boolean any = urls.stream().anyMatch(u -> u.matches(subject, target));
      return any != negated;
    }
  }

  /** One URL of a {@code userdn} rule. */
  record UserUrl(Kind kind, DnPattern dn) {
    enum Kind { ANYONE, ALL, SELF, PARENT, DN }

    boolean matches(Subject subject, DN target) {
      return switch (kind) {
        case ANYONE -> true;
        case ALL -> !subject.isAnonymous();
        case SELF -> !subject.isAnonymous() && subject.dn().equals(target);
        case PARENT -> !subject.isAnonymous() && subject.dn().equals(target.getParent());
        case DN -> !subject.isAnonymous() && dn.matches(subject.dn());
      };
    }
  }

  /** {@code groupdn="ldap:///cn=Admins,ou=Groups,dc=example,dc=com || ..."}. */
  record GroupDn(List<DN> groupDns, boolean negated) implements BindRule {
    @Override
    public boolean matches(Subject subject, DN target, GroupMembership groups) {
      boolean any = !subject.isAnonymous() && groupDns.stream().anyMatch(g -> groups.isMember(subject.dn(), g));
      return any != negated;
    }
  }

  /** {@code authmethod="none|simple|ssl|sasl <mechanism>"}. */
  record AuthMethod(String method, boolean negated) implements BindRule {
    @Override
    public boolean matches(Subject subject, DN target, GroupMembership groups) {
      boolean same = method.equalsIgnoreCase(subject.authMethod())
          || (method.equals("sasl") && subject.authMethod().startsWith("sasl "));
      return same != negated;
    }
  }

  /** {@code ip="127.0.0.1, 10.0.0.0/8, 192.168.1.*"}. */
  record Ip(List<IpPattern> patterns, boolean negated) implements BindRule {
    @Override
    public boolean matches(Subject subject, DN target, GroupMembership groups) {
      boolean any = subject.address() != null && patterns.stream().anyMatch(p -> p.matches(subject.address()));
      return any != negated;
    }
  }
}

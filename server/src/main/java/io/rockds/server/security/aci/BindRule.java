package io.rockds.server.security.aci;

import com.unboundid.ldap.matchingrules.MatchingRule;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPURL;
import io.rockds.storage.StoredEntry;
import io.rockds.storage.matching.FilterEvaluator;
import java.net.InetAddress;
import java.time.DayOfWeek;
import java.util.List;
import java.util.Set;

/**
 * The bind rule of an ACI permission: who the permission is for, and when. Keywords {@code userdn},
 * {@code groupdn}, {@code roledn}, {@code userattr}, {@code authmethod}, {@code ip}, {@code dns}
 * and {@code dayofweek} take {@code =} or {@code !=}; {@code timeofday} and {@code ssf} also take
 * {@code <}, {@code <=}, {@code >} and {@code >=}. Rules combine with {@code and}, {@code or},
 * {@code not} and parentheses.
 */
sealed interface BindRule {
  /** True if the rule holds for the subject acting on the target entry of {@code context}. */
  boolean matches(BindContext context);

  record And(List<BindRule> rules) implements BindRule {
    @Override
    public boolean matches(BindContext context) {
      return rules.stream().allMatch(r -> r.matches(context));
    }
  }

  record Or(List<BindRule> rules) implements BindRule {
    @Override
    public boolean matches(BindContext context) {
      return rules.stream().anyMatch(r -> r.matches(context));
    }
  }

  record Not(BindRule rule) implements BindRule {
    @Override
    public boolean matches(BindContext context) {
      return !rule.matches(context);
    }
  }

  /** A keyword rule with {@code =} (the condition holds) or {@code !=} (it does not). */
  sealed interface Equality extends BindRule {
    boolean negated();

    boolean holds(BindContext context);

    @Override
    default boolean matches(BindContext context) {
      return holds(context) != negated();
    }
  }

  /** {@code userdn="ldap:///anyone || ldap:///self || ldap:///uid=*,ou=People,..."}. */
  record UserDn(List<UserUrl> urls, boolean negated) implements Equality {
    @Override
    public boolean holds(BindContext context) {
      return urls.stream().anyMatch(u -> u.matches(context.subject(), context.targetDn()));
    }
  }

  /** One URL of a {@code userdn} rule. */
  record UserUrl(Kind kind, DnPattern dn) {
    enum Kind {
      ANYONE,
      ALL,
      SELF,
      PARENT,
      DN
    }

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

  /**
   * {@code groupdn="ldap:///cn=Admins,ou=Groups,dc=example,dc=com || ..."}; also {@code roledn},
   * which OpenDJ evaluates the same way (roles are groups there).
   */
  record GroupDn(List<DN> groupDns, boolean negated) implements Equality {
    @Override
    public boolean holds(BindContext context) {
      DN user = context.subject().dn();
      return !context.subject().isAnonymous()
          && groupDns.stream().anyMatch(g -> context.directory().isMember(user, g));
    }
  }

  /**
   * {@code userattr="manager#USERDN"}: the subject is named by an attribute of the target entry
   * ({@code USERDN}), is a member of a group it names ({@code GROUPDN}, {@code ROLEDN}), matches an
   * LDAP URL it holds ({@code LDAPURL}), or shares a value with it ({@code attr#value}: both the
   * subject's and the target's entry hold it). With {@code parent[0,1].}, the attribute is read
   * from the target and the entries the given number of levels above it.
   */
  record UserAttr(String attribute, Kind kind, String value, List<Integer> levels, boolean negated)
      implements Equality {
    enum Kind {
      USERDN,
      GROUPDN,
      LDAPURL,
      VALUE
    }

    @Override
    public boolean holds(BindContext context) {
      Subject subject = context.subject();
      if (subject.isAnonymous()) {
        return false;
      }
      try {
        return switch (kind) {
          case USERDN, GROUPDN -> namesSubject(context);
          case LDAPURL -> subjectInUrl(context);
          case VALUE ->
              hasValue(context.directory().get(subject.dn()), context)
                  && hasValue(target(context), context);
        };
      } catch (LDAPException e) {
        // An unreadable entry, DN or URL grants nothing.
        return false;
      }
    }

    private boolean namesSubject(BindContext context) throws LDAPException {
      DN user = context.subject().dn();
      for (int level : levels) {
        DN dn = context.targetDn();
        for (int i = 0; i < level && dn != null; i++) {
          dn = dn.getParent();
        }
        Entry holder =
            level == 0 ? target(context) : dn == null ? null : context.directory().get(dn);
        String[] values = holder == null ? null : holder.getAttributeValues(attribute);
        for (String v : values == null ? new String[0] : values) {
          DN named = new DN(v);
          if (kind == Kind.USERDN
              ? named.equals(user)
              : context.directory().isMember(user, named)) {
            return true;
          }
        }
      }
      return false;
    }

    private boolean subjectInUrl(BindContext context) throws LDAPException {
      String[] urls = target(context).getAttributeValues(attribute);
      if (urls == null) {
        return false;
      }
      Entry client = context.directory().get(context.subject().dn());
      for (String text : urls) {
        LDAPURL url = new LDAPURL(text);
        if (client != null
            && client.getParsedDN().matchesBaseAndScope(url.getBaseDN(), url.getScope())
            && FilterEvaluator.forSchema(context.schema()).matches(url.getFilter(), client)) {
          return true;
        }
      }
      return false;
    }

    /**
     * The target with every value: a compare hands access control an entry that may lack the values
     * of member and uniqueMember ({@link StoredEntry#lacksValues}), and userattr reads them.
     */
    private static Entry target(BindContext context) {
      return context.target() instanceof StoredEntry stored
          ? stored.withValuesApart()
          : context.target();
    }

    private boolean hasValue(Entry entry, BindContext context) {
      return entry != null
          && entry.hasAttributeValue(
              attribute,
              value,
              MatchingRule.selectEqualityMatchingRule(attribute, context.schema()));
    }
  }

  /**
   * {@code authmethod="none|simple|ssl|sasl [mechanism]"}; {@code ssl} is a SASL EXTERNAL bind (a
   * client certificate), as in OpenDJ.
   */
  record AuthMethod(String method, boolean negated) implements Equality {
    @Override
    public boolean holds(BindContext context) {
      String actual = context.subject().authMethod();
      return switch (method) {
        case "ssl" -> actual.equalsIgnoreCase("sasl EXTERNAL");
        case "sasl" -> actual.startsWith("sasl ");
        default -> method.equalsIgnoreCase(actual);
      };
    }
  }

  /** {@code ip="127.0.0.1, 10.0.0.0/8, 192.168.1.*"}. */
  record Ip(List<IpPattern> patterns, boolean negated) implements Equality {
    @Override
    public boolean holds(BindContext context) {
      InetAddress address = context.subject().address();
      return address != null && patterns.stream().anyMatch(p -> p.matches(address));
    }
  }

  /**
   * {@code dns="localhost, *.example.com"}: the client's host name, from a reverse lookup that
   * never blocks ({@link HostNames}); an address without a known name matches no pattern.
   */
  record Dns(List<String> patterns, boolean negated) implements Equality {
    @Override
    public boolean holds(BindContext context) {
      if (context.subject().address() == null) {
        return false;
      }
      String host = context.hostNames().nameOf(context.subject().address());
      return host != null
          && patterns.stream()
              .anyMatch(
                  p ->
                      p.equals("*")
                          || p.equals(host)
                          || (p.startsWith("*.") && host.endsWith(p.substring(1))));
    }
  }

  /** {@code dayofweek="mon,tue,wed,thu,fri"}, in the server's time zone. */
  record DayOfWeekRule(Set<DayOfWeek> days, boolean negated) implements Equality {
    @Override
    public boolean holds(BindContext context) {
      return days.contains(context.now().getDayOfWeek());
    }
  }

  /**
   * {@code timeofday>="0800"} (server local time, hhmm) and {@code ssf>="128"}: a number compared.
   */
  record Ordered(Quantity quantity, Comparison comparison, int value) implements BindRule {
    enum Quantity {
      TIME_OF_DAY,
      SSF
    }

    @Override
    public boolean matches(BindContext context) {
      int actual =
          switch (quantity) {
            case TIME_OF_DAY -> context.now().getHour() * 100 + context.now().getMinute();
            case SSF -> context.subject().ssf();
          };
      return comparison.holds(actual, value);
    }
  }
}

package io.rockds.server.search;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import io.rockds.server.Identity;
import io.rockds.storage.search.Trace;
import java.util.List;

/**
 * The {@code debugsearchindex} pseudo-attribute: a search asking for it returns, instead of its
 * entries, one entry {@code cn=debugsearch} whose value is the JSON trace phase 1 wrote while
 * building the candidates. It is for operators tuning indexes: only root users and holders of
 * {@value #PRIVILEGE} (the privilege that already lets them run the unindexed searches the trace
 * explains) get it; for anyone else, anonymous clients included, the name is an ordinary attribute
 * no entry holds.
 */
public final class DebugSearchIndex {
  public static final String ATTRIBUTE = "debugsearchindex";
  public static final String PRIVILEGE = "unindexed-search";
  public static final String ENTRY_DN = "cn=debugsearch";

  private DebugSearchIndex() {}

  /** True when the search asks for the trace and its requester may see it. */
  public static boolean requested(List<String> attributes, Identity identity) {
    if (!identity.root() && !identity.has(PRIVILEGE)) {
      return false;
    }
    return attributes.stream().anyMatch(a -> a.trim().equalsIgnoreCase(ATTRIBUTE));
  }

  public static Entry entry(Trace trace) {
    return new Entry(ENTRY_DN, new Attribute(ATTRIBUTE, trace.toJson()));
  }
}

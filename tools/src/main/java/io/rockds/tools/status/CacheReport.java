package io.rockds.tools.status;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchScope;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One line per backend: its entry and block caches from {@code cn=<id> Backend,cn=monitor}, with
 * hit ratios.
 */
final class CacheReport {
  private CacheReport() {}

  static List<String> read(LDAPConnection connection) throws LDAPException {
    SearchResult result =
        connection.search(
            MonitorSample.MONITOR,
            SearchScope.ONE,
            Filter.createPresenceFilter("ds-backend-id"),
            "ds-backend-id",
            "entryCacheBytes",
            "entryCacheMaxBytes",
            "entryCacheEntries",
            "entryCacheHitRatio",
            "ds-backend-block-cache-usage",
            "ds-backend-block-cache-size",
            "ds-backend-block-cache-data-hit-ratio",
            "ds-backend-block-cache-index-hit-ratio",
            "ds-backend-block-cache-filter-hit-ratio");
    List<String> lines = new ArrayList<>();
    for (Entry e : result.getSearchEntries()) {
      lines.add(
          String.format(
              Locale.ROOT,
              "Caches of %s: entries %s of %s (%s entries, hit ratio %s);"
                  + " blocks %s of %s (hit ratio data %s, index %s, filter %s).",
              e.getAttributeValue("ds-backend-id"),
              mib(e, "entryCacheBytes"),
              mib(e, "entryCacheMaxBytes"),
              text(e, "entryCacheEntries"),
              text(e, "entryCacheHitRatio"),
              mib(e, "ds-backend-block-cache-usage"),
              mib(e, "ds-backend-block-cache-size"),
              text(e, "ds-backend-block-cache-data-hit-ratio"),
              text(e, "ds-backend-block-cache-index-hit-ratio"),
              text(e, "ds-backend-block-cache-filter-hit-ratio")));
    }
    return lines;
  }

  private static String text(Entry e, String attribute) {
    String value = e.getAttributeValue(attribute);
    return value == null ? "-" : value;
  }

  private static String mib(Entry e, String attribute) {
    Long bytes = e.getAttributeValueAsLong(attribute);
    return bytes == null ? "-" : String.format(Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
  }
}

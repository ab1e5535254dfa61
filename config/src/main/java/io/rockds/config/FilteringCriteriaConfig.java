package io.rockds.config;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import io.rockds.config.model.ConfigModel;
import io.rockds.config.model.PropertyReader;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * An access log filtering criteria: a record matches when it satisfies every condition set (unset
 * conditions match everything), as in OpenDJ.
 *
 * @param recordTypes empty = every type
 * @param etimeGreaterThan milliseconds, or null
 * @param searchIndexed null = indexed and unindexed searches alike; a non-search never matches a
 *     set value
 */
public record FilteringCriteriaConfig(
    String name,
    Set<String> recordTypes,
    List<String> clientAddressEqualTo,
    List<String> clientAddressNotEqualTo,
    List<DN> userDnEqualTo,
    List<DN> userDnNotEqualTo,
    Set<Integer> resultCodeEqualTo,
    Set<Integer> resultCodeNotEqualTo,
    Long etimeGreaterThan,
    Long etimeLessThan,
    Boolean searchIndexed,
    Long nentriesGreaterThan,
    Long nentriesLessThan) {

  static FilteringCriteriaConfig from(Entry entry) {
    PropertyReader r = new PropertyReader(entry, ConfigModel.ACCESS_LOG_FILTERING_CRITERIA);
    Set<String> types = new LinkedHashSet<>();
    r.strings("log-record-type").forEach(t -> types.add(t.trim().toLowerCase(Locale.ROOT)));
    String indexed = r.string("search-response-is-indexed");
    return new FilteringCriteriaConfig(
        new ConfigEntry(entry).name(),
        Set.copyOf(types),
        r.strings("client-address-equal-to"),
        r.strings("client-address-not-equal-to"),
        dns(r.strings("user-dn-equal-to")),
        dns(r.strings("user-dn-not-equal-to")),
        codes(r.strings("result-code-equal-to")),
        codes(r.strings("result-code-not-equal-to")),
        r.integer("response-etime-greater-than"),
        r.integer("response-etime-less-than"),
        indexed == null ? null : r.bool("search-response-is-indexed"),
        r.integer("search-response-nentries-greater-than"),
        r.integer("search-response-nentries-less-than"));
  }

  private static List<DN> dns(List<String> values) {
    List<DN> out = new ArrayList<>();
    values.forEach(v -> out.add(ConfigDns.parse(v)));
    return List.copyOf(out);
  }

  private static Set<Integer> codes(List<String> values) {
    Set<Integer> out = new LinkedHashSet<>();
    values.forEach(v -> out.add(Integer.valueOf(v.trim())));
    return Set.copyOf(out);
  }
}

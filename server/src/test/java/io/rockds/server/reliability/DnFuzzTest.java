package io.rockds.server.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.storage.DnKeys;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * DN strings, parsed as the server does (no schema): {@link DN} either parses or throws {@link
 * LDAPException}; a parsed DN round-trips through its string and normalized forms; and our storage
 * key ({@link DnKeys}) is a function of the normalized DN, with a parent's key a prefix of its
 * child's (subtree = key range). Regression inputs: {@code
 * src/test/resources/io/rockds/server/reliability/DnFuzzTestInputs/}; fuzz for real with {@code
 * JAZZER_FUZZ=1}.
 */
class DnFuzzTest {
  @FuzzTest(maxDuration = "60s")
  void dnStringsParseRoundTripAndKeyConsistently(byte[] input) throws LDAPException {
    DN dn;
    try {
      dn = new DN(new String(input, StandardCharsets.UTF_8));
    } catch (LDAPException refused) {
      return;
    }
    DN reparsed = new DN(dn.toString());
    assertThat(reparsed).isEqualTo(dn);
    assertThat(new DN(dn.toNormalizedString())).isEqualTo(dn);
    assertThat(DnKeys.key(reparsed)).isEqualTo(DnKeys.key(dn));
    DN parent = dn.getParent();
    if (parent != null && !parent.isNullDN()) {
      byte[] child = DnKeys.key(dn);
      byte[] prefix = DnKeys.key(parent);
      assertThat(child.length).isGreaterThan(prefix.length);
      assertThat(Arrays.copyOf(child, prefix.length)).isEqualTo(prefix);
      assertThat(child[prefix.length]).as("separator after the parent's key").isZero();
    }
  }
}

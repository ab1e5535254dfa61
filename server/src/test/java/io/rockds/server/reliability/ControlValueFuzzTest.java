package io.rockds.server.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.controls.ServerSideSortRequestControl;
import com.unboundid.ldap.sdk.controls.SimplePagedResultsControl;

/**
 * Request control values from the wire: the paged-results value (size and an opaque, possibly
 * tampered cookie) and the server-side sort value decode or throw {@link LDAPException}, never
 * anything else, and a decoded value re-encodes to an equal control. The last byte picks the
 * control (paged or sort), the next its criticality, the rest is the value (Jazzer's data provider
 * takes those from the end of the input). Regression inputs: {@code
 * src/test/resources/io/rockds/server/reliability/ControlValueFuzzTestInputs/}; fuzz for real with
 * {@code JAZZER_FUZZ=1}.
 */
class ControlValueFuzzTest {
  @FuzzTest(maxDuration = "60s")
  void pagedResultsAndSortValuesDecodeOrThrowLdapException(FuzzedDataProvider data) {
    boolean paged = data.consumeBoolean();
    boolean critical = data.consumeBoolean();
    ASN1OctetString value = new ASN1OctetString(data.consumeRemainingAsBytes());
    try {
      if (paged) {
        SimplePagedResultsControl control =
            new SimplePagedResultsControl(
                SimplePagedResultsControl.PAGED_RESULTS_OID, critical, value);
        SimplePagedResultsControl again =
            new SimplePagedResultsControl(control.getSize(), control.getCookie(), critical);
        assertThat(
                new SimplePagedResultsControl(
                        SimplePagedResultsControl.PAGED_RESULTS_OID, critical, again.getValue())
                    .getCookie())
            .isEqualTo(control.getCookie());
      } else {
        ServerSideSortRequestControl control =
            new ServerSideSortRequestControl(
                new Control(
                    ServerSideSortRequestControl.SERVER_SIDE_SORT_REQUEST_OID, critical, value));
        // The SDK decodes an empty key list that RFC 2891 forbids (SIZE (1..MAX)) and that it then
        // refuses to encode: whoever serves sorting must refuse it with protocolError itself.
        if (control.getSortKeys().length > 0) {
          assertThat(
                  new ServerSideSortRequestControl(critical, control.getSortKeys()).getSortKeys())
              .hasSameSizeAs(control.getSortKeys());
        }
      }
    } catch (LDAPException refused) {
      // A garbage value: the server answers protocolError or unavailableCriticalExtension.
    }
  }
}

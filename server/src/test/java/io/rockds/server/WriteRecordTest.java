package io.rockds.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.protocol.ModifyRequestProtocolOp;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A record that does not stamp keeps saying so through its encoding; every other record keeps
 * format version 1, which servers that know no flags read.
 */
class WriteRecordTest {
  private static final LDAPMessage MODIFY =
      new LDAPMessage(
          0,
          new ModifyRequestProtocolOp(
              "uid=u,dc=example,dc=com",
              List.of(
                  new Modification(
                      ModificationType.ADD, "pwdFailureTime", "20261127170000.000Z"))));

  @Test
  void whetherItStampsSurvivesTheEncoding() throws Exception {
    DN user = new DN("uid=u,dc=example,dc=com");
    WriteRecord state = new WriteRecord(user, "20261127170000Z", MODIFY, false);
    WriteRecord decoded = WriteRecord.decode(state.encode());
    assertThat(decoded.stamps()).isFalse();
    assertThat(decoded.modifier()).isEqualTo(user);
    assertThat(decoded.request().getModifyRequestProtocolOp().getModifications())
        .isEqualTo(MODIFY.getModifyRequestProtocolOp().getModifications());

    WriteRecord stamped = new WriteRecord(user, "20261127170000Z", MODIFY);
    assertThat(stamped.encode()[0]).isEqualTo((byte) 1);
    assertThat(WriteRecord.decode(stamped.encode()).stamps()).isTrue();
  }
}

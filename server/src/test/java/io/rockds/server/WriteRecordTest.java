package io.rockds.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.protocol.ModifyRequestProtocolOp;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A record that does not stamp keeps saying so through its encoding; every other record of an entry
 * keeps format version 1, which servers that know no flags read. A settings change is version 3; a
 * version this server does not know is an error of its own kind, so that the replication applier
 * stops rather than skips it.
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
    assertThat(WriteRecord.decode(stamped.encode()).settings()).isFalse();
    assertThat(WriteRecord.decode(state.encode()).settings()).isFalse();
  }

  @Test
  void aSettingsChangeIsFormatVersionThreeWhichAnUnknownVersionCannotBeTakenFor() throws Exception {
    LDAPMessage schema =
        new LDAPMessage(
            0,
            new ModifyRequestProtocolOp(
                "cn=schema",
                List.of(
                    new Modification(
                        ModificationType.ADD,
                        "attributeTypes",
                        "( 1.3.6.1.4.1.99999.1 NAME 'rockdsTest' SYNTAX"
                            + " 1.3.6.1.4.1.1466.115.121.1.15 )"))));
    DN admin = new DN("cn=Directory Manager");
    byte[] encoded = WriteRecord.ofSettings(admin, "20261127170000Z", schema).encode();
    assertThat(encoded[0]).isEqualTo((byte) 3);
    WriteRecord decoded = WriteRecord.decode(encoded);
    assertThat(decoded.settings()).isTrue();
    assertThat(decoded.targetDn()).isEqualTo(new DN("cn=schema"));
    assertThat(decoded.modifier()).isEqualTo(admin);

    encoded[0] = 4;
    assertThatThrownBy(() -> WriteRecord.decode(encoded))
        .isInstanceOf(WriteRecord.UnknownFormatException.class)
        .hasMessageContaining("format version 4");
  }
}

package io.rockds.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.AddRequest;
import com.unboundid.ldap.sdk.DeleteRequest;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPResult;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ModifyRequest;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.controls.AssertionRequestControl;
import com.unboundid.ldap.sdk.controls.PostReadRequestControl;
import com.unboundid.ldap.sdk.controls.PostReadResponseControl;
import com.unboundid.ldap.sdk.controls.PreReadRequestControl;
import com.unboundid.ldap.sdk.controls.PreReadResponseControl;
import com.unboundid.ldap.sdk.experimental.DraftZeilengaLDAPNoOp12RequestControl;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The write controls on the operations {@link ConformanceIT} does not cover with slapd: no-op
 * (slapd's back-mdb lacks it), post-read on add (entryUUID differs per server), pre-read and
 * assertion on delete.
 */
class WriteControlsIT {
  private static final String DN = "cn=k,ou=People," + TestServer.BASE;

  @TempDir Path dir;

  @Test
  void noOp_changesNothingAndSaysSo() throws Exception {
    try (TestServer server = TestServer.start(dir, TestServer.baseEntries());
        LDAPConnection root = server.rootConnection()) {
      AddRequest add = new AddRequest(person());
      add.addControl(new DraftZeilengaLDAPNoOp12RequestControl());
      assertCode(() -> root.add(add), ResultCode.NO_OPERATION);
      assertThat(root.getEntry(DN)).isNull();
      root.add(person());
      ModifyRequest modify =
          new ModifyRequest(DN, new Modification(ModificationType.REPLACE, "sn", "changed"));
      modify.addControl(new DraftZeilengaLDAPNoOp12RequestControl());
      assertCode(() -> root.modify(modify), ResultCode.NO_OPERATION);
      DeleteRequest delete = new DeleteRequest(DN);
      delete.addControl(new DraftZeilengaLDAPNoOp12RequestControl());
      assertCode(() -> root.delete(delete), ResultCode.NO_OPERATION);
      assertThat(root.getEntry(DN).getAttributeValue("sn")).isEqualTo("k");
      AddRequest existing = new AddRequest(person());
      existing.addControl(new DraftZeilengaLDAPNoOp12RequestControl());
      assertCode(() -> root.add(existing), ResultCode.ENTRY_ALREADY_EXISTS);
    }
  }

  @Test
  void postReadOnAdd_preReadAndAssertionOnDelete() throws Exception {
    try (TestServer server = TestServer.start(dir, TestServer.baseEntries());
        LDAPConnection root = server.rootConnection()) {
      AddRequest add = new AddRequest(person());
      add.addControl(new PostReadRequestControl("entryUUID", "sn"));
      Entry created = PostReadResponseControl.get(root.add(add)).getEntry();
      assertThat(created.getAttributeValue("sn")).isEqualTo("k");
      assertThat(created.getAttributeValue("entryUUID")).hasSize(36);

      DeleteRequest guarded = new DeleteRequest(DN);
      guarded.addControl(new AssertionRequestControl("(sn=other)"));
      assertCode(() -> root.delete(guarded), ResultCode.ASSERTION_FAILED);

      DeleteRequest delete = new DeleteRequest(DN);
      delete.addControl(new AssertionRequestControl("(sn=k)"));
      delete.addControl(new PreReadRequestControl("*"));
      LDAPResult result = root.delete(delete);
      assertThat(PreReadResponseControl.get(result).getEntry().getAttributeValue("cn"))
          .isEqualTo("k");
      assertThat(root.getEntry(DN)).isNull();
    }
  }

  private static Entry person() throws Exception {
    return new Entry("dn: " + DN, "objectClass: person", "cn: k", "sn: k");
  }

  private interface Operation {
    LDAPResult run() throws LDAPException;
  }

  /** The SDK returns noOperation as a result rather than throwing it; both are accepted here. */
  private static void assertCode(Operation operation, ResultCode code) {
    ResultCode actual;
    try {
      actual = operation.run().getResultCode();
    } catch (LDAPException e) {
      actual = e.getResultCode();
    }
    assertThat(actual).isEqualTo(code);
  }
}

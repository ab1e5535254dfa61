package io.rockds.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.ExtendedResult;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPConnectionOptions;
import com.unboundid.ldap.sdk.ResultCode;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Stopping the server tells connected clients with a Notice of Disconnection. */
class GracefulShutdownIT {
  @TempDir Path dir;

  @Test
  void connectedClientsGetANoticeOfDisconnection() throws Exception {
    TestServer server = TestServer.start(dir, TestServer.baseEntries());
    CompletableFuture<ExtendedResult> notice = new CompletableFuture<>();
    LDAPConnectionOptions options = new LDAPConnectionOptions();
    options.setUnsolicitedNotificationHandler(
        (connection, notification) -> notice.complete(notification));
    try (LDAPConnection connection =
        new LDAPConnection(
            options,
            "127.0.0.1",
            server.ldapPort(),
            TestServer.ROOT_DN,
            TestServer.ROOT_PASSWORD)) {
      assertThat(connection.getEntry(TestServer.BASE)).isNotNull();
      server.close();
      ExtendedResult received = notice.get(10, TimeUnit.SECONDS);
      assertThat(received.getOID()).isEqualTo("1.3.6.1.4.1.1466.20036");
      assertThat(received.getResultCode()).isEqualTo(ResultCode.UNAVAILABLE);
      assertThat(received.getDiagnosticMessage()).contains("shutting down");
    } finally {
      server.close();
    }
  }
}

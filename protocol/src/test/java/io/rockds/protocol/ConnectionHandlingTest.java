package io.rockds.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.ResultCode;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Idle timeout and the server-wide connection limit. */
class ConnectionHandlingTest {

  @Test
  void anIdleConnectionIsClosedWithANotice() throws Exception {
    try (RunningServer running =
        new RunningServer(RunningServer.withTimeouts(Duration.ofMillis(300), Duration.ZERO))) {
      try (RawClient client = new RawClient(running.port())) {
        client.write(Pdus.bind(1));
        assertThat(client.read().getBindResponseProtocolOp().getResultCode()).isZero();
        assertThat(client.expectNoticeAndClose(ResultCode.UNAVAILABLE_INT_VALUE)).contains("idle");
      }
      running.assertServesNormalClient();
    }
  }

  @Test
  void theConnectionLimitIsSharedByListeners() throws Exception {
    ConnectionLimit limit = new ConnectionLimit(1);
    try (RunningServer first = new RunningServer(RunningServer.defaults(), limit);
        RunningServer second = new RunningServer(RunningServer.defaults(), limit)) {
      try (RawClient held = new RawClient(first.port())) {
        held.write(Pdus.bind(1));
        held.read();
        try (RawClient refused = new RawClient(second.port())) {
          assertThat(refused.expectNoticeAndClose(ResultCode.UNAVAILABLE_INT_VALUE))
              .contains("too many");
        }
      }
      for (int i = 0; i < 500 && limit.open() > 0; i++) {
        Thread.sleep(10); // the server learns of the close asynchronously
      }
      second.assertServesNormalClient();
    }
  }
}

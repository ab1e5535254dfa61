package io.rockds.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Each transport on real loopback sockets: a port already taken is recognised whatever the form of
 * the failure (NIO's BindException, epoll's native I/O error with EADDRINUSE), and {@code
 * -Drockds.transport} names a transport.
 */
class TransportTest {

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aTakenPortIsRecognisedAsSuch(Transport transport) throws Exception {
    assumeTrue(transport != Transport.EPOLL || Epoll.isAvailable(), "no native epoll here");
    EventLoopGroup group = transport.newGroup(1);
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      ChannelFuture bound =
          new ServerBootstrap()
              .group(group)
              .channel(transport.serverChannel())
              .childHandler(new ChannelInboundHandlerAdapter())
              .bind(new InetSocketAddress("127.0.0.1", taken.getLocalPort()));
      Throwable failure = catchThrowable(bound::sync);
      assertThat(failure).isNotNull();
      assertThat(Transport.isAddressInUse(failure)).as(failure.toString()).isTrue();
      assertThat(Transport.isAddressInUse(new IllegalStateException("other"))).isFalse();
    } finally {
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void theSystemPropertyNamesATransport(Transport transport) {
    assumeTrue(transport != Transport.EPOLL || Epoll.isAvailable(), "no native epoll here");
    assertThat(Transport.select(transport.label())).isEqualTo(transport);
    assertThat(Transport.select(null)).isEqualTo(Transport.DEFAULT);
    assertThat(Transport.select("io_uring")).isEqualTo(Transport.DEFAULT);
  }
}

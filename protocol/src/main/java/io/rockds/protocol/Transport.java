package io.rockds.protocol;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;

/**
 * The sockets' transport, one for the whole process because an event loop only serves channels of
 * its own kind: Linux's native epoll where its library loads (fewer system calls and no selector
 * garbage per wake-up: less CPU per request), Java NIO elsewhere or when {@code
 * -Drockds.transport=nio} asks for it.
 */
public enum Transport {
  EPOLL {
    @Override
    IoHandlerFactory ioHandlerFactory() {
      return EpollIoHandler.newFactory();
    }

    @Override
    public Class<? extends ServerChannel> serverChannel() {
      return EpollServerSocketChannel.class;
    }
  },
  NIO {
    @Override
    IoHandlerFactory ioHandlerFactory() {
      return NioIoHandler.newFactory();
    }

    @Override
    public Class<? extends ServerChannel> serverChannel() {
      return NioServerSocketChannel.class;
    }
  };

  /** The transport of this process. */
  public static final Transport SELECTED =
      !"nio".equals(System.getProperty("rockds.transport")) && Epoll.isAvailable() ? EPOLL : NIO;

  abstract IoHandlerFactory ioHandlerFactory();

  /**
   * The listening socket's channel class, for a {@code ServerBootstrap} on this transport's loops.
   */
  public abstract Class<? extends ServerChannel> serverChannel();

  /** {@code threads} event loops of this transport. */
  public EventLoopGroup newGroup(int threads) {
    return new MultiThreadIoEventLoopGroup(threads, ioHandlerFactory());
  }
}

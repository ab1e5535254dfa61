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
import io.netty.channel.unix.Errors;
import java.net.BindException;
import java.util.Locale;

/**
 * The sockets' transport, one for the whole process because an event loop only serves channels of
 * its own kind: Java NIO, or Linux's native epoll (fewer system calls and no selector garbage per
 * wake-up).
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

  /**
   * The transport of a process that names none: switching the default is this one line (the lead
   * decides from measurements).
   */
  static final Transport DEFAULT = NIO;

  /**
   * The transport of this process: {@code -Drockds.transport=epoll} or {@code nio}, else {@link
   * #DEFAULT}; NIO wherever the native epoll library does not load (not Linux, another CPU).
   */
  public static final Transport SELECTED = select(System.getProperty("rockds.transport"));

  static Transport select(String asked) {
    Transport wanted = DEFAULT;
    for (Transport t : values()) {
      if (t.label().equals(asked)) {
        wanted = t;
      }
    }
    return wanted == EPOLL && !Epoll.isAvailable() ? NIO : wanted;
  }

  abstract IoHandlerFactory ioHandlerFactory();

  /** The name {@code -Drockds.transport} takes and messages use: {@code nio} or {@code epoll}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The listening socket's channel class, for a {@code ServerBootstrap} on this transport's loops.
   */
  public abstract Class<? extends ServerChannel> serverChannel();

  /** Linux's EADDRINUSE, the error epoll's native bind reports as a plain I/O error. */
  private static final int LINUX_EADDRINUSE = 98;

  /**
   * Whether {@code failure} (or a cause) says the address is taken: NIO throws a {@link
   * BindException}, the native epoll transport an I/O error with EADDRINUSE.
   */
  public static boolean isAddressInUse(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof BindException
          || t instanceof Errors.NativeIoException nativeError
              && nativeError.expectedErr() == -LINUX_EADDRINUSE) {
        return true;
      }
    }
    return false;
  }

  /** {@code threads} event loops of this transport. */
  public EventLoopGroup newGroup(int threads) {
    return new MultiThreadIoEventLoopGroup(threads, ioHandlerFactory());
  }
}

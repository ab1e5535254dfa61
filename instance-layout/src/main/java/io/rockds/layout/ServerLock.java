package io.rockds.layout;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The lock that says a server (or an offline tool that must have the instance to itself, such as
 * restore) owns an instance: an exclusive lock on {@code locks/server.lock}, as OpenDJ's. The
 * operating system releases it when the process dies, kill -9 included, so unlike a pid file it
 * cannot go stale, name a reused pid, or be pid 1 in a restarted container.
 */
public final class ServerLock implements AutoCloseable {
  private final FileChannel channel;
  private final FileLock lock;

  private ServerLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Takes the lock of {@code instance}; fails saying the server runs when another process (or this
   * one) holds it.
   */
  public static ServerLock acquire(Instance instance) throws IOException {
    Path file = instance.lockFile();
    Files.createDirectories(file.getParent());
    FileChannel channel =
        FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (OverlappingFileLockException e) {
      lock = null; // held by this very process
    } catch (IOException e) {
      channel.close();
      throw e;
    }
    if (lock == null) {
      channel.close();
      throw new IOException(
          "the server of "
              + instance.root()
              + " is already running"
              + pidNote(instance)
              + ": "
              + file
              + " is locked");
    }
    return new ServerLock(channel, lock);
  }

  /**
   * True while some process holds the lock of {@code instance}; probes with a shared lock, creating
   * nothing.
   */
  public static boolean isHeld(Instance instance) {
    try (FileChannel channel = FileChannel.open(instance.lockFile(), StandardOpenOption.READ)) {
      FileLock probe = channel.tryLock(0, Long.MAX_VALUE, true);
      if (probe == null) {
        return true;
      }
      probe.release();
      return false;
    } catch (OverlappingFileLockException e) {
      return true; // held by this process (a server embedded in a test)
    } catch (NoSuchFileException e) {
      return false;
    } catch (IOException e) {
      return false;
    }
  }

  /** " (pid 123)" from the pid file, when there is one: for messages only, never to decide. */
  public static String pidNote(Instance instance) {
    try {
      return " (pid " + Files.readString(instance.pidFile()).strip() + ")";
    } catch (IOException e) {
      return "";
    }
  }

  @Override
  public void close() {
    try {
      lock.release();
      channel.close();
    } catch (IOException ignored) {
      // Closing the channel releases the lock in any case.
    }
  }
}

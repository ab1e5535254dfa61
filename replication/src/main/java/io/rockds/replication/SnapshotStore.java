package io.rockds.replication;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.storage.FileInfo;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.SnapshotRetentionPolicy;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.statemachine.impl.FileListSnapshotInfo;
import org.apache.ratis.util.FileUtils;

/**
 * The snapshots of a member, in the state machine directory ({@code sm/}) of its Raft storage: one
 * directory {@code snapshot.<term>_<index>} per snapshot, holding the applier's checkpoint under
 * {@code state/}. A snapshot is written as {@code snapshot.<term>_<index>.tmp} and renamed once
 * complete; one received from the leader replaces the whole directory (Ratis renames it in once
 * every file arrived), so a directory without the suffix is always whole.
 */
final class SnapshotStore implements StateMachineStorage {
  private static final Pattern NAME = Pattern.compile("snapshot\\.(\\d+)_(\\d+)");
  private static final String STATE = "state";
  private static final String MD5 = ".md5";

  /** The newest snapshot and the one before: a follower may still be receiving the older one. */
  private static final int KEPT = 2;

  private volatile Path directory;
  private volatile FileListSnapshotInfo latest;

  @Override
  public void init(RaftStorage storage) throws IOException {
    directory = storage.getStorageDir().getStateMachineDir().toPath();
    Files.createDirectories(directory);
    reload();
  }

  /** Reads the newest complete snapshot from disk (after one was received) and returns it. */
  FileListSnapshotInfo reload() throws IOException {
    Path newest = newest(directory);
    latest = newest == null ? null : describe(newest);
    return latest;
  }

  @Override
  public FileListSnapshotInfo getLatestSnapshot() {
    return latest;
  }

  @Override
  public void format() {
    // Nothing to prepare: the directory is created by init.
  }

  @Override
  public File getSnapshotDir() {
    return directory == null ? null : directory.toFile();
  }

  /** Where a snapshot at {@code at} is written before {@link #publish}; empty. */
  Path begin(TermIndex at) throws IOException {
    Path tmp = directory.resolve(name(at) + ".tmp");
    FileUtils.deleteFully(tmp);
    Files.createDirectories(tmp);
    return tmp.resolve(STATE);
  }

  /** Makes the snapshot written under {@link #begin} the latest. */
  FileListSnapshotInfo publish(TermIndex at) throws IOException {
    Path tmp = directory.resolve(name(at) + ".tmp");
    Path done = directory.resolve(name(at));
    FileUtils.deleteFully(done);
    Files.move(tmp, done, StandardCopyOption.ATOMIC_MOVE);
    latest = describe(done);
    return latest;
  }

  /** The applier's checkpoint inside a snapshot. */
  Path stateOf(FileListSnapshotInfo snapshot) {
    return stateDirectory(directory, snapshot.getTermIndex());
  }

  /** Where the applier's checkpoint of a snapshot at {@code at} is in a state machine directory. */
  static Path stateDirectory(Path stateMachineDirectory, TermIndex at) {
    return stateMachineDirectory.resolve(name(at)).resolve(STATE);
  }

  /** The applier's checkpoint of the newest complete snapshot in a state machine directory. */
  static Path newestState(Path stateMachineDirectory) throws IOException {
    Path newest = newest(stateMachineDirectory);
    return newest == null ? null : newest.resolve(STATE);
  }

  @Override
  public void cleanupOldSnapshots(SnapshotRetentionPolicy policy) throws IOException {
    List<Path> snapshots = snapshots(directory);
    for (int i = 0; i < snapshots.size() - KEPT; i++) {
      FileUtils.deleteFully(snapshots.get(i));
    }
  }

  private static String name(TermIndex at) {
    return "snapshot." + at.getTerm() + "_" + at.getIndex();
  }

  private static Path newest(Path directory) throws IOException {
    List<Path> snapshots = snapshots(directory);
    return snapshots.isEmpty() ? null : snapshots.get(snapshots.size() - 1);
  }

  /** The complete snapshots, oldest first. */
  private static List<Path> snapshots(Path directory) throws IOException {
    if (!Files.isDirectory(directory)) {
      return List.of();
    }
    try (Stream<Path> children = Files.list(directory)) {
      return children
          .filter(p -> NAME.matcher(p.getFileName().toString()).matches())
          .filter(p -> Files.isDirectory(p.resolve(STATE)))
          .sorted(Comparator.comparingLong(p -> termIndex(p).getIndex()))
          .toList();
    }
  }

  private static TermIndex termIndex(Path snapshot) {
    Matcher m = NAME.matcher(snapshot.getFileName().toString());
    if (!m.matches()) {
      throw new IllegalArgumentException("not a snapshot: " + snapshot);
    }
    return TermIndex.valueOf(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)));
  }

  /** Every file of a snapshot, for Ratis to send to a follower (digests computed as it reads). */
  private static FileListSnapshotInfo describe(Path snapshot) throws IOException {
    List<FileInfo> files = new ArrayList<>();
    try (Stream<Path> paths = Files.walk(snapshot)) {
      // Ratis writes a .md5 beside each file it receives; it computes digests itself when sending.
      for (Path p :
          paths
              .filter(Files::isRegularFile)
              .filter(f -> !f.getFileName().toString().endsWith(MD5))
              .sorted()
              .toList()) {
        files.add(new FileInfo(p.toAbsolutePath(), null));
      }
    }
    if (files.isEmpty()) {
      throw new IOException("the snapshot " + snapshot + " holds no files");
    }
    return new FileListSnapshotInfo(files, termIndex(snapshot));
  }
}

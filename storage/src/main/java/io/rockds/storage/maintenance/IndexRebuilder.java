package io.rockds.storage.maintenance;

import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import io.rockds.storage.AttributeIndex;
import io.rockds.storage.EntryContainer;
import io.rockds.storage.VlvIndex;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * Rebuilds indexes of one container from {@code id2entry}: named ones, all, or the degraded ones
 * (untrusted, or holding over-limit keys whose count is back within the limit, which the rebuild
 * recovers). The same code serves offline (tool with exclusive access) and online (inside the
 * running server): writes continue during the rebuild and are neither lost nor counted twice; the
 * indexes being rebuilt are untrusted, so searches ignore them, until it completes.
 */
public final class IndexRebuilder {
  private final EntryContainer container;
  private final IndexStatistics statistics;

  public IndexRebuilder(EntryContainer container) {
    this.container = container;
    this.statistics = new IndexStatistics(container);
  }

  /**
   * Rebuilds the named indexes (tree names such as {@code sn.caseIgnoreMatch}, or attribute names
   * meaning all of that attribute's indexes) in one pass over the entries.
   *
   * @param progress receives the number of entries processed so far
   * @return the indexes rebuilt
   */
  public List<AttributeIndex> rebuild(Collection<String> names, LongConsumer progress)
      throws LDAPException {
    List<String> attributeIndexes = names.stream().filter(n -> !isVlv(n)).toList();
    return attributeIndexes.isEmpty()
        ? List.of()
        : rebuildIndexes(resolve(attributeIndexes), progress);
  }

  /**
   * Rebuilds the VLV indexes among {@code names} ({@code vlv.<name>}), all of them for {@code all},
   * or the untrusted ones for {@code degraded}; returns the tree names rebuilt. Writes wait while
   * each one is rebuilt (see {@link EntryContainer#rebuildVlvIndex}).
   */
  public List<String> rebuildVlv(Collection<String> names, boolean all, boolean degraded)
      throws LDAPException {
    List<VlvIndex> chosen = new ArrayList<>();
    for (VlvIndex index : container.vlvIndexes()) {
      if (all || (degraded && !index.isTrusted()) || names.contains(index.name())) {
        chosen.add(index);
      }
    }
    for (String name : names) {
      if (isVlv(name) && container.vlvIndexNamed(name.substring(4)) == null) {
        throw new LDAPException(
            ResultCode.NO_SUCH_OBJECT, "no VLV index " + name + " in " + container.baseDn());
      }
    }
    for (VlvIndex index : chosen) {
      container.rebuildVlvIndex(index);
    }
    return chosen.stream().map(VlvIndex::name).toList();
  }

  private static boolean isVlv(String name) {
    return name.regionMatches(true, 0, "vlv.", 0, 4);
  }

  public List<AttributeIndex> rebuildAll(LongConsumer progress) throws LDAPException {
    return rebuildIndexes(List.copyOf(container.indexes()), progress);
  }

  /** Rebuilds the {@link #degradedIndexes()}; returns them (empty when nothing needed it). */
  public List<AttributeIndex> rebuildDegraded(LongConsumer progress) throws LDAPException {
    return rebuildIndexes(degradedIndexes(), progress);
  }

  /**
   * Untrusted indexes, those built with another limit than now, and those holding recoverable
   * over-limit keys.
   */
  public List<AttributeIndex> degradedIndexes() {
    List<AttributeIndex> degraded = new ArrayList<>();
    for (AttributeIndex index : container.indexes()) {
      if (!index.isTrusted()
          || index.rebuildWouldTighten()
          || !statistics.recoverableKeys(index).isEmpty()) {
        degraded.add(index);
      }
    }
    return degraded;
  }

  private List<AttributeIndex> rebuildIndexes(List<AttributeIndex> indexes, LongConsumer progress)
      throws LDAPException {
    container.rebuildIndexes(indexes, progress);
    return indexes;
  }

  private List<AttributeIndex> resolve(Collection<String> names) throws LDAPException {
    List<AttributeIndex> indexes = new ArrayList<>();
    for (String name : names) {
      AttributeIndex byTree = container.indexNamed(name);
      if (byTree != null) {
        indexes.add(byTree);
        continue;
      }
      List<AttributeIndex> byAttribute =
          container.indexes().stream().filter(i -> i.attribute().equalsIgnoreCase(name)).toList();
      if (byAttribute.isEmpty()) {
        throw new LDAPException(
            ResultCode.NO_SUCH_OBJECT,
            "no index named "
                + name
                + " in "
                + container.baseDn()
                + " (expected an attribute or one of: "
                + String.join(", ", container.indexes().stream().map(AttributeIndex::name).toList())
                + ")");
      }
      indexes.addAll(byAttribute);
    }
    return indexes.stream().distinct().toList();
  }
}

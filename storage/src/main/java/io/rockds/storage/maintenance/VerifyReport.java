package io.rockds.storage.maintenance;

import java.util.List;

/**
 * What {@link IndexVerifier} checked and found.
 *
 * @param entriesChecked id2entry records read
 * @param recordsChecked index (or dn2id / id2childrencount) records compared
 * @param mismatches every inconsistency, in tree then key order
 * @param recoverableKeys keys consistent with the entries that a rebuild would store differently
 *     (tree and key as {@code tree key}): over-limit keys whose exact count is back within the
 *     limit (a rebuild lists their IDs again), and lists longer than a lowered limit (a rebuild
 *     stores them over the limit; reads already treat them so)
 */
public record VerifyReport(
    long entriesChecked,
    long recordsChecked,
    List<Mismatch> mismatches,
    List<String> recoverableKeys) {

  public VerifyReport {
    mismatches = List.copyOf(mismatches);
    recoverableKeys = List.copyOf(recoverableKeys);
  }

  public boolean isClean() {
    return mismatches.isEmpty();
  }
}

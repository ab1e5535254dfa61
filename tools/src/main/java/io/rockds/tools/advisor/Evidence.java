package io.rockds.tools.advisor;

/**
 * The searches behind one suggestion, accumulated as the log is read.
 *
 * @param shape the filter with its values replaced by {@code ?}, e.g. {@code (employeeNumber=?)}
 * @param example the first filter seen as logged
 */
public record Evidence(
    long searches,
    long unindexed,
    long totalEtimeMillis,
    long maxEtimeMillis,
    String shape,
    String example) {

  static Evidence first(SearchRecord search, String shape) {
    return new Evidence(
        1,
        search.unindexed() ? 1 : 0,
        search.etimeMillis(),
        search.etimeMillis(),
        shape,
        search.filter());
  }

  Evidence plus(SearchRecord search) {
    return new Evidence(
        searches + 1,
        unindexed + (search.unindexed() ? 1 : 0),
        totalEtimeMillis + search.etimeMillis(),
        Math.max(maxEtimeMillis, search.etimeMillis()),
        shape,
        example);
  }

  public long averageEtimeMillis() {
    return searches == 0 ? 0 : totalEtimeMillis / searches;
  }

  String describe() {
    return searches
        + " searches ("
        + unindexed
        + " unindexed), e.g. "
        + example
        + "; etime avg "
        + averageEtimeMillis()
        + " ms, max "
        + maxEtimeMillis
        + " ms, total "
        + totalEtimeMillis
        + " ms";
  }
}

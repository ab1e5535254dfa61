package io.rockds.storage;

import java.util.Arrays;
import java.util.PrimitiveIterator;

/**
 * A set of entry IDs, or "undefined": every entry, because an index key was over its entry limit or
 * nothing indexed the filter. Undefined is a first-class state so that candidate building can
 * intersect and unite without special cases: {@code undefined ∩ S = S}, {@code undefined ∪ S =
 * undefined}.
 *
 * <p>Defined sets are sorted, duplicate-free {@code long[]}: one index record decodes straight into
 * one, intersection is a linear merge (galloping when sizes differ a lot) and a 4000-ID set costs
 * 32 KB. Instances are immutable.
 */
public final class IdSet implements Iterable<Long> {
  /** Why a set is undefined; prints as OpenDJ does in backendstat and debugsearchindex. */
  public enum Undefined {
    LIMIT_EXCEEDED("[LIMIT-EXCEEDED]"),
    NOT_INDEXED("[NOT-INDEXED]");

    private final String label;

    Undefined(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }

  private static final IdSet EMPTY = new IdSet(new long[0], 0, null);
  private static final IdSet LIMIT_EXCEEDED = new IdSet(null, 0, Undefined.LIMIT_EXCEEDED);
  private static final IdSet NOT_INDEXED = new IdSet(null, 0, Undefined.NOT_INDEXED);

  private final long[] ids;
  private final int size;
  private final Undefined undefined;

  private IdSet(long[] ids, int size, Undefined undefined) {
    this.ids = ids;
    this.size = size;
    this.undefined = undefined;
  }

  public static IdSet empty() {
    return EMPTY;
  }

  public static IdSet undefined(Undefined why) {
    return why == Undefined.LIMIT_EXCEEDED ? LIMIT_EXCEEDED : NOT_INDEXED;
  }

  public static IdSet of(long... ids) {
    long[] copy = ids.clone();
    Arrays.sort(copy);
    return new IdSet(copy, dedupe(copy, copy.length), null);
  }

  /** Wraps an array that is already sorted and duplicate-free, without copying. */
  static IdSet ofSorted(long[] sorted, int size) {
    return size == 0 ? EMPTY : new IdSet(sorted, size, null);
  }

  private static int dedupe(long[] a, int n) {
    if (n == 0) {
      return 0;
    }
    int w = 1;
    for (int i = 1; i < n; i++) {
      if (a[i] != a[w - 1]) {
        a[w++] = a[i];
      }
    }
    return w;
  }

  public boolean isDefined() {
    return undefined == null;
  }

  /** Why the set is undefined, or null when it is defined. */
  public Undefined undefinedReason() {
    return undefined;
  }

  /** The number of IDs; only meaningful when defined. */
  public int size() {
    return size;
  }

  public boolean isEmpty() {
    return isDefined() && size == 0;
  }

  public boolean contains(long id) {
    return !isDefined() || Arrays.binarySearch(ids, 0, size, id) >= 0;
  }

  public long get(int index) {
    return ids[index];
  }

  public long[] toArray() {
    return Arrays.copyOf(ids, size);
  }

  public IdSet intersect(IdSet other) {
    if (!isDefined()) {
      return other;
    }
    if (!other.isDefined()) {
      return this;
    }
    IdSet small = size <= other.size ? this : other;
    IdSet large = small == this ? other : this;
    long[] out = new long[small.size];
    int n = 0;
    if ((long) small.size * 16 < large.size) {
      int from = 0;
      for (int i = 0; i < small.size && from < large.size; i++) {
        int at = Arrays.binarySearch(large.ids, from, large.size, small.ids[i]);
        if (at >= 0) {
          out[n++] = small.ids[i];
          from = at + 1;
        } else {
          from = -at - 1;
        }
      }
    } else {
      int i = 0;
      int j = 0;
      while (i < small.size && j < large.size) {
        long a = small.ids[i];
        long b = large.ids[j];
        if (a == b) {
          out[n++] = a;
          i++;
          j++;
        } else if (a < b) {
          i++;
        } else {
          j++;
        }
      }
    }
    return ofSorted(out, n);
  }

  public IdSet union(IdSet other) {
    if (!isDefined()) {
      return this;
    }
    if (!other.isDefined()) {
      return other;
    }
    if (size == 0) {
      return other;
    }
    if (other.size == 0) {
      return this;
    }
    long[] out = new long[size + other.size];
    int i = 0;
    int j = 0;
    int n = 0;
    while (i < size && j < other.size) {
      long a = ids[i];
      long b = other.ids[j];
      if (a == b) {
        out[n++] = a;
        i++;
        j++;
      } else if (a < b) {
        out[n++] = a;
        i++;
      } else {
        out[n++] = b;
        j++;
      }
    }
    while (i < size) {
      out[n++] = ids[i++];
    }
    while (j < other.size) {
      out[n++] = other.ids[j++];
    }
    return ofSorted(out, n);
  }

  /** IDs of this set that are not in {@code other}; both must be defined. */
  public IdSet minus(IdSet other) {
    if (!isDefined() || !other.isDefined()) {
      throw new IllegalStateException("minus needs two defined sets");
    }
    long[] out = new long[size];
    int n = 0;
    for (int i = 0; i < size; i++) {
      if (Arrays.binarySearch(other.ids, 0, other.size, ids[i]) < 0) {
        out[n++] = ids[i];
      }
    }
    return ofSorted(out, n);
  }

  @Override
  public PrimitiveIterator.OfLong iterator() {
    if (!isDefined()) {
      throw new IllegalStateException("an undefined ID set cannot be iterated");
    }
    return new PrimitiveIterator.OfLong() {
      private int next;

      @Override
      public boolean hasNext() {
        return next < size;
      }

      @Override
      public long nextLong() {
        return ids[next++];
      }
    };
  }

  /** {@code [COUNT:n]}, {@code [LIMIT-EXCEEDED]} or {@code [NOT-INDEXED]}. */
  @Override
  public String toString() {
    return isDefined() ? "[COUNT:" + size + "]" : undefined.label();
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof IdSet other)) {
      return false;
    }
    if (undefined != other.undefined || size != other.size) {
      return false;
    }
    return !isDefined() || Arrays.equals(ids, 0, size, other.ids, 0, other.size);
  }

  @Override
  public int hashCode() {
    int h = undefined == null ? 0 : undefined.hashCode();
    for (int i = 0; i < size; i++) {
      h = 31 * h + Long.hashCode(ids[i]);
    }
    return h;
  }

  /** Builds a defined set from IDs arriving in any order. */
  public static final class Builder {
    private long[] ids = new long[16];
    private int n;
    private boolean sorted = true;

    public Builder add(long id) {
      if (n == ids.length) {
        ids = Arrays.copyOf(ids, n * 2);
      }
      if (n > 0 && id <= ids[n - 1]) {
        sorted = false;
      }
      ids[n++] = id;
      return this;
    }

    public int size() {
      return n;
    }

    public IdSet build() {
      if (!sorted) {
        Arrays.sort(ids, 0, n);
        n = dedupe(ids, n);
      }
      return ofSorted(ids, n);
    }
  }
}

package io.rockds.tools.makeldif;

import java.util.SplittableRandom;
import java.util.UUID;

/** {@code <guid>}: a version 4 UUID drawn from the seeded random source, so reproducible. */
final class GuidTag implements Tag {
  @Override
  public boolean append(EntryContext entry, StringBuilder value) {
    SplittableRandom random = entry.random();
    long high = (random.nextLong() & ~0xF000L) | 0x4000L;
    long low = (random.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
    value.append(new UUID(high, low));
    return true;
  }
}

package io.rockds.storage.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.Filter;
import io.rockds.storage.Backend;
import io.rockds.storage.BackendSettings;
import io.rockds.storage.EntryContainer;
import io.rockds.storage.IdSet;
import io.rockds.storage.IndexSpec;
import io.rockds.storage.IndexType;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An index added to a backend that already holds entries is not trusted, and searches never read
 * it.
 */
class UntrustedIndexTest {
  @TempDir Path dir;

  private Backend open(List<IndexSpec> indexes) throws Exception {
    return Backend.open(
        BackendSettings.defaults("userRoot", dir, SearchData.dn(SearchData.BASE))
            .withSyncWrites(false)
            .withIndexes(indexes),
        SearchData.schema());
  }

  @Test
  void anUntrustedIndexIsTreatedAsAbsent() throws Exception {
    try (Backend backend = open(List.of(IndexSpec.of("uid", IndexType.EQUALITY)))) {
      EntryContainer c = backend.containerFor(SearchData.dn(SearchData.BASE));
      SearchData.addSuffix(c);
      for (int i = 0; i < 5; i++) {
        c.add(SearchData.person(i));
      }
    }
    try (Backend backend =
        open(
            List.of(
                IndexSpec.of("uid", IndexType.EQUALITY), IndexSpec.of("sn", IndexType.EQUALITY)))) {
      EntryContainer c = backend.containerFor(SearchData.dn(SearchData.BASE));
      assertThat(c.index("sn", IndexType.EQUALITY).isTrusted()).isFalse();
      Evaluated sn =
          new IndexFilter(c, SearchData.schema(), VirtualIndexes.NONE)
              .evaluate(Filter.create("(sn=Smith)"));
      assertThat(sn.ids().undefinedReason()).isEqualTo(IdSet.Undefined.NOT_INDEXED);
      assertThat(sn.trace().toJson())
          .isEqualTo(
              "{\"filter\":\"(sn=Smith)\",\"untrusted\":\"sn.caseIgnoreMatch\","
                  + "\"candidates\":\"[NOT-INDEXED]\"}");
      assertThat(
              new IndexFilter(c, SearchData.schema(), VirtualIndexes.NONE)
                  .evaluate(Filter.create("(uid=user.3)"))
                  .ids()
                  .size())
          .isEqualTo(1);
    }
  }
}

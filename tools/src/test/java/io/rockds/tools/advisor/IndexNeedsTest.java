package io.rockds.tools.advisor;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Filter;
import io.rockds.config.BackendConfig;
import io.rockds.config.IndexConfig;
import io.rockds.storage.IndexType;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class IndexNeedsTest {
  private final IndexNeeds needs =
      new IndexNeeds(
          new BackendConfig(
              "userRoot",
              true,
              List.of(new DN("dc=example,dc=com")),
              "db/userRoot",
              4000,
              true,
              0,
              1 << 20,
              "none",
              0,
              List.of(
                  new IndexConfig("objectClass", Set.of("equality"), null, 6),
                  new IndexConfig("cn", Set.of("equality"), null, 6)),
              List.of()));

  IndexNeedsTest() throws Exception {}

  private Set<IndexNeeds.Need> missing(String filter) throws Exception {
    return needs.missing(Filter.create(filter));
  }

  @Test
  void and_needsOneComponent_preferringEquality() throws Exception {
    assertThat(missing("(&(objectClass=person)(description=*x*)(employeeNumber=5))"))
        .containsExactly(new IndexNeeds.Need("employeeNumber", IndexType.EQUALITY));
  }

  @Test
  void or_needsEveryComponent() throws Exception {
    assertThat(missing("(|(cn=*smith*)(SN=lee))"))
        .containsExactly(
            new IndexNeeds.Need("cn", IndexType.SUBSTRING),
            new IndexNeeds.Need("sn", IndexType.EQUALITY));
  }

  @Test
  void indexedAttributes_notAndObjectClass_needNothing() throws Exception {
    assertThat(missing("(cn=Babs Jensen)")).isEmpty();
    assertThat(missing("(!(employeeNumber=5))")).isEmpty();
    assertThat(missing("(objectClass=*)")).isEmpty();
  }
}

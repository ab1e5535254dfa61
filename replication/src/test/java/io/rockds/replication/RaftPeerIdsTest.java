package io.rockds.replication;

import static org.assertj.core.api.Assertions.assertThat;

import javax.management.ObjectName;
import org.apache.ratis.protocol.RaftPeerId;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RaftPeerIdsTest {
  @ParameterizedTest
  @ValueSource(
      strings = {
        "127.0.0.1:8989",
        "[::1]:8989",
        "ds1.example.com:8990",
        "rockds_ds1:1",
        "a%3Ab",
        "é:1"
      })
  void anIdIsAValidJmxNameAndMapsBack(String id) throws Exception {
    RaftPeerId raft = RaftPeerIds.of(id);
    // Ratis registers its bean under this name; a ':' in it made it log an ERROR at every start.
    new ObjectName("Ratis:service=RaftServer,group=g,id=" + raft);
    assertThat(raft.toString()).doesNotContain(":");
    assertThat(RaftPeerIds.name(raft)).isEqualTo(id);
  }

  @ParameterizedTest
  @ValueSource(strings = {"ds0", "127.0.0.1"})
  void aPlainIdIsKeptAsItIs(String id) {
    assertThat(RaftPeerIds.of(id).toString()).isEqualTo(id);
  }
}

package io.rockds.protocol;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.protocol.BindResponseProtocolOp;
import com.unboundid.ldap.protocol.ExtendedResponseProtocolOp;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.protocol.SearchResultDoneProtocolOp;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.ResultCode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A tiny directory behind the protocol front end for its tests: bind always succeeds, a search
 * returns one entry named after its base and a done, a search of base {@code cn=entries-N} returns
 * N entries {@code cn=0,cn=entries-N} ... of about {@value #LARGE_VALUE_BYTES} bytes each and a
 * done, and a search of base {@code cn=wait} runs until it is abandoned or its connection closes
 * (then it answers nothing, as RFC 4511 wants). Entries leave through an {@link EntryBatch}, as in
 * the server.
 */
final class SampleDirectory implements LdapRequestHandler {
  static final String WAIT_BASE = "cn=wait";
  static final String ENTRIES_BASE_PREFIX = "cn=entries-";
  static final int LARGE_VALUE_BYTES = 1000;
  private static final String LARGE_VALUE = "v".repeat(LARGE_VALUE_BYTES);

  private final Map<Long, Map<Integer, AtomicBoolean>> running = new ConcurrentHashMap<>();
  final CountDownLatch waitingSearchStarted = new CountDownLatch(1);
  final CountDownLatch waitingSearchStopped = new CountDownLatch(1);

  /** How long a search waits for a client that does not read before it stops. */
  volatile long slowClientWaitMillis = 10_000;

  /** For each search stopped because its client stopped reading: the entries its batch accepted. */
  final BlockingQueue<Integer> stoppedSearchesAcceptedEntries = new LinkedBlockingQueue<>();

  @Override
  public void connected(LdapConnection connection) {
    running.put(connection.id(), new ConcurrentHashMap<>());
  }

  @Override
  public void handle(LdapConnection connection, LDAPMessage request) {
    int id = request.getMessageID();
    switch (request.getProtocolOpType()) {
      case LDAPMessage.PROTOCOL_OP_TYPE_BIND_REQUEST -> {
        connection.setAuthenticated(!request.getBindRequestProtocolOp().getBindDN().isEmpty());
        connection.send(new LDAPMessage(id, new BindResponseProtocolOp(0, null, null, null, null)));
      }
      case LDAPMessage.PROTOCOL_OP_TYPE_SEARCH_REQUEST -> search(connection, request);
      case LDAPMessage.PROTOCOL_OP_TYPE_EXTENDED_REQUEST ->
          connection.send(
              new LDAPMessage(
                  id,
                  new ExtendedResponseProtocolOp(
                      0, null, null, null, null, new ASN1OctetString("ok"))));
      default -> connection.disconnect(ResultCode.PROTOCOL_ERROR, "unsupported operation");
    }
  }

  private void search(LdapConnection connection, LDAPMessage request) {
    String base = request.getSearchRequestProtocolOp().getBaseDN();
    int id = request.getMessageID();
    if (base.equals(WAIT_BASE)) {
      AtomicBoolean abandoned = new AtomicBoolean();
      Map<Integer, AtomicBoolean> ofConnection = running.get(connection.id());
      ofConnection.put(id, abandoned);
      waitingSearchStarted.countDown();
      // Bounded: a test that forgets to abandon fails on its own timeouts, not by hanging here.
      for (int i = 0; i < 30_000 && !abandoned.get() && connection.isOpen(); i++) {
        sleep();
      }
      ofConnection.remove(id);
      waitingSearchStopped.countDown();
      return;
    }
    List<String> dns = new ArrayList<>();
    List<Attribute> attributes;
    if (base.startsWith(ENTRIES_BASE_PREFIX)) {
      int count = Integer.parseInt(base.substring(ENTRIES_BASE_PREFIX.length()));
      for (int i = 0; i < count; i++) {
        dns.add("cn=" + i + "," + base);
      }
      attributes = List.of(new Attribute("description", LARGE_VALUE));
    } else {
      dns.add(base);
      attributes = List.of(new Attribute("cn", "sample"));
    }
    EntryBatch batch = connection.entryBatch();
    try {
      for (int accepted = 0; accepted < dns.size(); accepted++) {
        if (!batch.addEntry(id, dns.get(accepted), attributes, slowClientWaitMillis)) {
          stoppedSearchesAcceptedEntries.add(accepted);
          return;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    connection.send(
        batch, new LDAPMessage(id, new SearchResultDoneProtocolOp(0, null, null, null)));
  }

  private static void sleep() {
    try {
      Thread.sleep(1);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void abandon(LdapConnection connection, int messageId) {
    AtomicBoolean flag = running.getOrDefault(connection.id(), Map.of()).get(messageId);
    if (flag != null) {
      flag.set(true);
    }
  }

  @Override
  public void disconnected(LdapConnection connection) {
    Map<Integer, AtomicBoolean> ops = running.remove(connection.id());
    if (ops != null) {
      ops.values().forEach(flag -> flag.set(true));
    }
  }
}

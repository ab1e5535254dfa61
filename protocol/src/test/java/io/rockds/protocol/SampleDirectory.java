package io.rockds.protocol;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.protocol.BindResponseProtocolOp;
import com.unboundid.ldap.protocol.ExtendedResponseProtocolOp;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.protocol.SearchResultDoneProtocolOp;
import com.unboundid.ldap.protocol.SearchResultEntryProtocolOp;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.ResultCode;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A tiny directory behind the protocol front end for its tests: bind always succeeds, a search
 * returns one entry named after its base and a done, and a search of base {@code cn=wait} runs
 * until it is abandoned or its connection closes (then it answers nothing, as RFC 4511 wants).
 */
final class SampleDirectory implements LdapRequestHandler {
  static final String WAIT_BASE = "cn=wait";

  private final Map<Long, Map<Integer, AtomicBoolean>> running = new ConcurrentHashMap<>();
  final CountDownLatch waitingSearchStarted = new CountDownLatch(1);
  final CountDownLatch waitingSearchStopped = new CountDownLatch(1);

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
      case LDAPMessage.PROTOCOL_OP_TYPE_EXTENDED_REQUEST -> connection.send(new LDAPMessage(id,
          new ExtendedResponseProtocolOp(0, null, null, null, null, new ASN1OctetString("ok"))));
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
    try {
      connection.sendEntry(new LDAPMessage(id,
          new SearchResultEntryProtocolOp(base, List.of(new Attribute("cn", "sample")))), 10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    connection.send(new LDAPMessage(id, new SearchResultDoneProtocolOp(0, null, null, null)));
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

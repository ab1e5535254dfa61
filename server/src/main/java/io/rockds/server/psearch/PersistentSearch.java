package io.rockds.server.psearch;

import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.protocol.SearchResultDoneProtocolOp;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import io.rockds.protocol.LdapConnection;
import io.rockds.server.backend.Change;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One open persistent search. Writers only {@link #offer} it the changes in its scope and of the
 * types it asked for: a queue append, never a wait. A delivery thread then turns each change into a
 * notification (filter, access control, attributes: {@link Notifications}) and writes it while the
 * client keeps reading; a client that leaves more than the queue's capacity of changes unread ends
 * the search with adminLimitExceeded (11) rather than make the server buffer without limit.
 */
public final class PersistentSearch {
  /** Turns a change into the notification this search sends, or null when it sends none. */
  @FunctionalInterface
  public interface Notifications {
    LDAPMessage of(Change change) throws LDAPException;
  }

  /**
   * What a client asked to follow, and where the notifications go.
   *
   * @param connection the client's connection
   * @param messageId the search request's message ID, which every notification carries
   * @param anonymous whether the client is anonymous (its searches have a limit of their own)
   * @param base the search base
   * @param scope the scope below it
   * @param changeTypes the change types asked for, as the control's bits
   */
  public record Request(
      LdapConnection connection,
      int messageId,
      boolean anonymous,
      DN base,
      SearchScope scope,
      int changeTypes) {}

  /** How a persistent search answers and is answered. */
  interface Owner {
    /** The search ended with {@code result} (null: unanswered): drop it from the registry. */
    void ended(PersistentSearch search, ResultCode result, String reason);

    /** A change could not become a notification: it is skipped, the operator is told. */
    void failed(PersistentSearch search, Change change, Exception e);
  }

  private final Request request;
  private final LdapConnection connection;
  private final int messageId;
  private final Notifications notifications;
  private final BlockingQueue<Change> queue;
  private final Executor delivery;
  private final Owner owner;
  private final AtomicBoolean draining = new AtomicBoolean();
  private final AtomicBoolean waitingForClient = new AtomicBoolean();
  private final AtomicBoolean ended = new AtomicBoolean();

  /** Set once the initial search results have left: notifications follow them, never overtake. */
  private volatile boolean started;

  PersistentSearch(
      Request request, int queueSize, Notifications notifications, Executor delivery, Owner owner) {
    this.request = request;
    this.connection = request.connection();
    this.messageId = request.messageId();
    this.queue = new ArrayBlockingQueue<>(queueSize);
    this.notifications = notifications;
    this.delivery = delivery;
    this.owner = owner;
  }

  LdapConnection connection() {
    return connection;
  }

  int messageId() {
    return messageId;
  }

  boolean anonymous() {
    return request.anonymous();
  }

  /**
   * Called on the writer's thread: queues a change of the asked-for types whose entry is (or, for a
   * modify DN, was) in scope. The filter and access control are left to delivery.
   */
  void offer(Change change) {
    if (ended.get() || (request.changeTypes() & change.type().bit()) == 0 || !inScope(change)) {
      return;
    }
    if (!queue.offer(change)) {
      end(
          ResultCode.ADMIN_LIMIT_EXCEEDED,
          "The persistent search ended: the client left more than "
              + (queue.size() + queue.remainingCapacity())
              + " changes unread (psearch-queue-size)");
      return;
    }
    deliver();
  }

  private boolean inScope(Change change) {
    return inScope(change.dn()) || (change.previousDn() != null && inScope(change.previousDn()));
  }

  private boolean inScope(DN dn) {
    try {
      return dn.matchesBaseAndScope(request.base(), request.scope());
    } catch (LDAPException e) {
      return false; // Only a scope the SDK does not know throws; the search refused it already.
    }
  }

  /** The initial results have been sent: changes queued meanwhile, and later ones, follow. */
  public void start() {
    started = true;
    deliver();
  }

  /** Ends the search and answers it (a limit, a failed initial phase is answered by its caller). */
  public void end(ResultCode result, String message) {
    if (ended.compareAndSet(false, true)) {
      queue.clear();
      connection.send(
          new LDAPMessage(
              messageId, new SearchResultDoneProtocolOp(result.intValue(), null, message, null)));
      owner.ended(this, result, message);
    }
  }

  /**
   * Ends the search without an answer: abandoned, its connection gone, or its initial phase failed.
   */
  public void abandon(String reason) {
    if (ended.compareAndSet(false, true)) {
      queue.clear();
      owner.ended(this, null, reason);
    }
  }

  boolean isEnded() {
    return ended.get();
  }

  /** Schedules a drain unless one runs or the client has yet to read what it was sent. */
  private void deliver() {
    if (started
        && !ended.get()
        && !waitingForClient.get()
        && !queue.isEmpty()
        && draining.compareAndSet(false, true)) {
      try {
        delivery.execute(this::drain);
      } catch (RejectedExecutionException e) {
        // The server is stopping: its connections close, which abandons this search.
        draining.set(false);
      }
    }
  }

  private void drain() {
    try {
      while (!ended.get()) {
        if (!connection.isWritable()) {
          waitingForClient.set(true);
          connection.whenWritable(
              () -> {
                waitingForClient.set(false);
                deliver();
              });
          return;
        }
        Change change = queue.poll();
        if (change == null) {
          return;
        }
        send(change);
      }
    } finally {
      draining.set(false);
      // A change offered while this drain was finishing found it still running.
      deliver();
    }
  }

  private void send(Change change) {
    try {
      LDAPMessage notification = notifications.of(change);
      if (notification != null) {
        connection.send(notification);
      }
    } catch (LDAPException | RuntimeException e) {
      owner.failed(this, change, e);
    }
  }

  @Override
  public String toString() {
    return connection + " msgID=" + messageId;
  }
}

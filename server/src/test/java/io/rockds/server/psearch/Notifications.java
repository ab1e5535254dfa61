package io.rockds.server.psearch;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.AsyncRequestID;
import com.unboundid.ldap.sdk.AsyncSearchResultListener;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchResultReference;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** What one persistent search received, for the tests that follow changes. */
public final class Notifications implements AsyncSearchResultListener {
  private static final long serialVersionUID = 1L;
  static final long WAIT_SECONDS = 30;

  final transient BlockingQueue<SearchResultEntry> entries = new LinkedBlockingQueue<>();
  final transient CompletableFuture<SearchResult> done = new CompletableFuture<>();
  transient AsyncRequestID id;

  @Override
  public void searchEntryReturned(SearchResultEntry entry) {
    entries.add(entry);
  }

  @Override
  public void searchReferenceReturned(SearchResultReference reference) {}

  @Override
  public void searchResultReceived(AsyncRequestID requestId, SearchResult result) {
    done.complete(result);
  }

  /** The next notification, which must come within 30 s. */
  public SearchResultEntry next() throws InterruptedException {
    SearchResultEntry entry = entries.poll(WAIT_SECONDS, TimeUnit.SECONDS);
    assertThat(entry).as("a notification within %d s", WAIT_SECONDS).isNotNull();
    return entry;
  }
}

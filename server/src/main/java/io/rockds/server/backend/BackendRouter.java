package io.rockds.server.backend;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import java.util.List;

/**
 * Routes a DN to the one backend holding it: the one with the deepest base DN above it. A DN no
 * backend holds goes to {@link #NONE}, which holds no entry, so that operations need no null case.
 */
public final class BackendRouter {
  /**
   * Where DNs outside every naming context go: ACIs apply, nothing exists, every update is refused.
   */
  static final DirectoryBackend NONE =
      new DirectoryBackend() {
        @Override
        public List<DN> baseDns() {
          return List.of();
        }

        @Override
        public Entry get(DN dn) {
          return null;
        }

        @Override
        public void search(DN base, SearchScope scope, SearchResults results) throws LDAPException {
          throw new LDAPException(
              ResultCode.NO_SUCH_OBJECT, "The search base entry " + base + " does not exist");
        }
      };

  private final List<DirectoryBackend> backends;

  public BackendRouter(List<DirectoryBackend> backends) {
    this.backends = List.copyOf(backends);
  }

  /** The backend holding {@code dn}, or {@link #NONE}. */
  public DirectoryBackend route(DN dn) {
    DirectoryBackend best = NONE;
    int bestDepth = -1;
    for (DirectoryBackend backend : backends) {
      for (DN base : backend.baseDns()) {
        boolean holds = base.isNullDN() ? dn.isNullDN() : dn.isDescendantOf(base, true);
        if (holds && base.getRDNs().length > bestDepth) {
          best = backend;
          bestDepth = base.getRDNs().length;
        }
      }
    }
    return best;
  }
}

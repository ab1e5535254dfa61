package io.rockds.storage.search;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.storage.EntryContainer;
import io.rockds.storage.IdSet;

/**
 * Candidates for equality filters on attributes the server computes instead of storing, such as
 * {@code memberOf}: an application's {@code (memberOf=cn=admins,…)} is answered from the group's
 * member list rather than being an unindexed search. Storage knows no such attribute itself.
 */
public interface VirtualIndexes {
  /** No virtual attribute: every attribute is answered by the stored indexes. */
  VirtualIndexes NONE =
      new VirtualIndexes() {
        @Override
        public boolean answers(String attribute) {
          return false;
        }

        @Override
        public IdSet equality(EntryContainer container, String attribute, ASN1OctetString value) {
          throw new IllegalStateException(attribute + " is not virtual");
        }
      };

  /** True if equality filters on {@code attribute} are answered here. */
  boolean answers(String attribute);

  /**
   * The IDs, in {@code container}, of the entries whose virtual {@code attribute} holds {@code
   * value}.
   */
  IdSet equality(EntryContainer container, String attribute, ASN1OctetString value)
      throws LDAPException;
}

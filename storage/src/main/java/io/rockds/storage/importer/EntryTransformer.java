package io.rockds.storage.importer;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;

/**
 * What the caller does to each entry before it is stored, e.g. the server's operational attributes
 * and password hashing (storage does not depend on the server). Called from parsing threads
 * concurrently; an exception rejects the entry with its message.
 */
@FunctionalInterface
public interface EntryTransformer {
  EntryTransformer NONE = entry -> entry;

  Entry transform(Entry entry) throws LDAPException;
}

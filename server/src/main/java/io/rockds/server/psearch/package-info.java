/**
 * Persistent search (draft-ietf-ldapext-psearch-03): searches that stay open and return each
 * committed change of a matching entry, with the Entry Change Notification control. {@link
 * io.rockds.server.psearch.PersistentSearches} hears every committed change ({@link
 * io.rockds.server.backend.ChangeListener}) and holds the limits; each {@link
 * io.rockds.server.psearch.PersistentSearch} queues the changes it may concern and delivers them to
 * its client off the writer's thread.
 */
package io.rockds.server.psearch;

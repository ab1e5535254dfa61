/**
 * Phase one of a search: turning a filter and a scope into a candidate {@link io.rockds.storage.IdSet}
 * from index reads, as OpenDJ does. Phase two (reading each candidate and checking the whole
 * filter, access control and attributes) belongs to the server's search operation.
 */
package io.rockds.storage.search;

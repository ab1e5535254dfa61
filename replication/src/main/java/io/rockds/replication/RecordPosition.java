package io.rockds.replication;

/**
 * Where a committed record is: its log entry (term, index), its place among the records of that
 * entry (several records share an entry when they were submitted together, see {@link
 * ReplicationNode#submit}), and its number.
 *
 * <p>Numbers are unique and increase in log order, the same on every member: the first record of an
 * entry is numbered with the entry's index, unless an earlier entry's records already took that
 * number, then with the next number free; the others follow it. A log of one record per entry is
 * numbered by its indexes, as before batches existed.
 *
 * @param term the entry's term
 * @param index the entry's log index
 * @param slot the record's place in the entry, from 0
 * @param number the record's number
 */
public record RecordPosition(long term, long index, int slot, long number) {}

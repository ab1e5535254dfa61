/**
 * The access and error logs: file-based publishers configured under {@code cn=Loggers,cn=config}.
 *
 * <p>{@link io.rockds.server.logging.OperationRecord} collects what an operation did while it runs
 * (the request, then the result code, entries returned, whether it was unindexed, its etime); the
 * request router turns it into an immutable {@link io.rockds.server.logging.AccessRecord} and hands
 * it to {@link io.rockds.server.logging.ServerLogs}, which offers it to every access publisher. A
 * publisher applies its filtering policy and criteria, formats the record (OpenDJ's {@code
 * combined} one-line format or JSON) and queues the line for its writer thread. The queue is
 * bounded: when a disk stalls, records are dropped and counted rather than blocking the request
 * path. Files rotate by size and age and old ones are deleted beyond the retention count.
 */
package io.rockds.server.logging;

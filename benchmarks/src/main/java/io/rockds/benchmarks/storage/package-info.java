/**
 * Storage benchmarks: JMH micro-benchmarks of entry encoding, index key generation and ID-set
 * operations, and bounded runs measuring add rate against directory size and bulk import rate.
 * Each class gives its run command in its Javadoc.
 */
package io.rockds.benchmarks.storage;

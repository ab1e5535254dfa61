/**
 * JMH micro-benchmarks of search evaluation: ID-set operations, phase-2 filter evaluation and
 * phase-1 candidate building against a real RocksDB backend. Run with {@code java -jar
 * benchmarks/target/benchmarks.jar 'io.rockds.benchmarks.search.*'}.
 */
package io.rockds.benchmarks.search;

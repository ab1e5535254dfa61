/**
 * JMH benchmarks of the protocol front end: decoding and encoding of typical requests and entries.
 */
package io.rockds.benchmarks.protocol;

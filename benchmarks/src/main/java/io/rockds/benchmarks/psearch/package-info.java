/** What persistent searches cost the writers and the server. */
package io.rockds.benchmarks.psearch;

/**
 * Progress reporting shared by the long-running tools (import-ldif, export-ldif, rebuild-index,
 * verify-index, makeldif): a progress bar with count, rate and ETA when a person watches a
 * terminal, plain periodic lines on stderr when the output goes to a pipe or a log, nothing with
 * {@code --quiet}; a summary line at the end.
 */
package io.rockds.tools.progress;

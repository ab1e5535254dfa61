/**
 * The reliability suite: crash recovery with a real child process, fuzzing, soak, floods and slow
 * clients, the hostile-input catalogue and disk trouble. Short modes run in the normal build; long
 * modes and their switches are listed in {@code docs/RELIABILITY.md}.
 */
package io.rockds.server.reliability;

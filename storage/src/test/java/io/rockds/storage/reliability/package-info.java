/** Storage side of the reliability suite: fuzzing the LDIF import path end to end. */
package io.rockds.storage.reliability;

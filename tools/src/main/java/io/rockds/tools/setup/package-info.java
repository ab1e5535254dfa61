/** {@code bin/setup}: creates an instance directory with its configuration and initial data. */
package io.rockds.tools.setup;

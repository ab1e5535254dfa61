/**
 * Running OpenDJ tasks ({@code cn=Scheduled Tasks,cn=tasks}) on a running server from the tools.
 */
package io.rockds.tools.task;

/**
 * An instance directory as the server and the tools both see it: where its files are ({@link
 * io.rockds.layout.Instance}) and whether a server runs on it ({@link
 * io.rockds.layout.ServerLock}). Depends on nothing else of RockDS.
 */
package io.rockds.layout;

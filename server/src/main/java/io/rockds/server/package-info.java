/**
 * The directory server: the composition root ({@link io.rockds.server.DirectoryServer}) that wires
 * the protocol front end to the storage backends under a typed configuration, and one class per
 * LDAP operation ({@code BindOperation}, {@code SearchOperation}, {@code AddOperation}, ...) that
 * reads top to bottom: validate, access control, schema, one storage batch, response.
 */
package io.rockds.server;

/**
 * Groups: static ({@code groupOfNames} / {@code member}, {@code groupOfUniqueNames} / {@code
 * uniqueMember}), nested (a group that is a member of a group), dynamic ({@code groupOfURLs} /
 * {@code memberURL}); the virtual {@code memberOf} (static groups, nested included, as 389 DS
 * computes it) and {@code isMemberOf} (static, nested and dynamic, as OpenDJ computes it);
 * referential integrity, which keeps member values pointing at entries that exist when entries are
 * deleted or renamed.
 */
package io.rockds.server.group;

/**
 * Access control instructions in OpenDJ's {@code aci} syntax: {@link
 * io.rockds.server.security.aci.AciParser} turns a value into an {@link
 * io.rockds.server.security.aci.Aci} (targets, permissions, bind rules), {@link
 * io.rockds.server.security.aci.AciCache} keeps the global and entry ACIs in force, and {@link
 * io.rockds.server.security.aci.AciEvaluator} computes a subject's {@link
 * io.rockds.server.security.aci.EntryAccess} on one entry.
 *
 * <p>Evaluation follows OpenDJ: an ACI in an entry applies to that entry and its subtree (narrowed
 * by {@code target}, {@code targetscope} and {@code targetfilter}); a global ACI applies to every
 * entry, the root DSE included. A matching deny beats any allow; with no matching allow, access is
 * denied. An ACI without {@code targetattr} gives entry-level rights only; {@code *} covers user
 * attributes, {@code +} operational ones, and {@code targetattr!=} every user attribute except
 * those named.
 */
package io.rockds.server.security.aci;

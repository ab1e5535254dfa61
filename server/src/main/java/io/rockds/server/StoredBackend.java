package io.rockds.server;

import com.unboundid.ldap.protocol.AddRequestProtocolOp;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.protocol.ModifyDNRequestProtocolOp;
import com.unboundid.ldap.protocol.ModifyRequestProtocolOp;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.RDN;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.schema.AttributeTypeDefinition;
import com.unboundid.ldap.sdk.schema.ObjectClassDefinition;
import io.rockds.server.backend.Change;
import io.rockds.server.backend.ChangeNotifier;
import io.rockds.server.backend.DirectoryBackend;
import io.rockds.server.backend.SearchResults;
import io.rockds.server.backend.Update;
import io.rockds.server.backend.Written;
import io.rockds.server.schema.ModificationApplier;
import io.rockds.server.schema.SchemaChecker;
import io.rockds.server.security.password.PasswordSchemes;
import io.rockds.storage.Backend;
import io.rockds.storage.EntryContainer;
import io.rockds.storage.PendingChange;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A RocksDB backend as a naming context: user entries, governed by ACIs and the schema. Writes are
 * schema-checked as a whole (the RDN values are added to a new entry when missing, as OpenLDAP
 * does), honour the write controls, stamp the operational attributes and go to storage in one
 * batch, which refuses an existing entry (68) or a missing parent (32 with the matchedDN). A change
 * of the structural object class is objectClassModsProhibited (69) and removing an RDN value
 * notAllowedOnRDN (67), as OpenDJ and 389 DS answer (OpenLDAP says 64). Referential integrity
 * follows deletes and renames.
 *
 * <p>Each write is prepared, then applied. The preparation, on the server that received the
 * request, runs the checks that need the requester and assigns every value that must be the same on
 * every server (entryUUID, timestamps, password hashes, password policy state) into a {@link
 * WriteRecord}; the application ({@link #apply}) is deterministic: existence, assertion and the
 * schema of the result checked against the current state, then one storage batch. The {@link
 * WritePath} applies the record at once (one server) or on every server through the replication
 * log. Each write applied is announced to the {@link ChangeNotifier} (persistent searches) after
 * storage returned, on every server.
 */
final class StoredBackend implements DirectoryBackend {
  private static final String INTEGER_SYNTAX = "1.3.6.1.4.1.1466.115.121.1.27";

  /** The services its writes use (schema, groups, password policy); built after the backends. */
  private final Supplier<ServerContext> services;

  private final Backend storage;
  private final ChangeNotifier changes;

  StoredBackend(Supplier<ServerContext> services, Backend storage, ChangeNotifier changes) {
    this.services = services;
    this.storage = storage;
    this.changes = changes;
  }

  @Override
  public List<DN> baseDns() {
    return storage.baseDns();
  }

  @Override
  public Entry get(DN dn) throws LDAPException {
    return container(dn).get(dn);
  }

  @Override
  public Entry getForMatching(DN dn) throws LDAPException {
    return container(dn).getForMatching(dn);
  }

  @Override
  public DN matchedDn(DN dn) throws LDAPException {
    return container(dn).matchedDn(dn);
  }

  @Override
  public void search(DN base, SearchScope scope, SearchResults results) throws LDAPException {
    EntryContainer container = container(base);
    results.indexed(container, container.searchBase(base, scope));
  }

  @Override
  public Entry withComputed(Entry entry, String attribute) throws LDAPException {
    return VirtualAttributes.forCompare(
        services.get(), entry, container(entry.getParsedDN()), attribute);
  }

  /** The storage this backend writes to. */
  Backend storage() {
    return storage;
  }

  /** The container of {@code dn}: the router sent it here, so one holds it. */
  private EntryContainer container(DN dn) {
    return storage.containerFor(dn);
  }

  // ---------------------------------------------------------------- add

  @Override
  public Written add(Update update, Entry entry) throws LDAPException {
    ServerContext context = update.context();
    DN dn = entry.getParsedDN();
    WriteControls controls =
        new WriteControls(update.request(), context.schema(), update.identity());
    SchemaChecker checker = context.serverSchema().checker();
    for (Attribute attribute : entry.getAttributes()) {
      checker.checkUserModifiable(attribute.getBaseName());
      checker.checkValues(attribute);
    }
    // RFC 4512 section 2.3.1 wants the RDN values in the entry; like OpenLDAP we add them.
    for (Attribute missing : checker.missingRdnValues(entry)) {
      entry.addAttribute(missing);
    }
    ObjectClassDefinition structural = checker.check(entry);
    checker.addSuperiorClasses(entry);
    controls.checkAssertion(entry);
    EntryContainer container = container(dn);
    if (controls.noOp()) {
      checkAddable(container, dn);
      throw controls.noOperation();
    }
    context.passwordPolicy().checkNewEntry(update.identity(), entry);
    PasswordValues.hash(entry, context.passwordsFor(entry));
    OperationalAttributes.onAdd(entry, update.identity(), structural);
    WriteOutcome outcome =
        commit(
            update,
            controls,
            new AddRequestProtocolOp(dn.toString(), new ArrayList<>(entry.getAttributes())));
    return new Written(null, controls.readControls(null, outcome.after()));
  }

  /** Prepares nothing more: the preparation is done, the record goes its way. */
  private WriteOutcome commit(
      Update update, WriteControls controls, com.unboundid.ldap.protocol.ProtocolOp change)
      throws LDAPException {
    LDAPMessage request = update.request();
    return commit(
        update, controls, new LDAPMessage(request.getMessageID(), change, request.getControls()));
  }

  /**
   * Sends a prepared change down the write path; a no-op changes nothing, so it is applied here
   * alone.
   */
  private WriteOutcome commit(Update update, WriteControls controls, LDAPMessage change)
      throws LDAPException {
    ServerContext context = update.context();
    WriteRecord record =
        new WriteRecord(update.identity().dn(), OperationalAttributes.now(), change);
    WritePath path = controls.noOp() ? WritePath.LOCAL : context.writes();
    return path.commit(record, context.applier());
  }

  /**
   * Applies a prepared write: the same on every server given the same entries, and a refusal is an
   * LDAP result.
   */
  WriteOutcome apply(WriteRecord record) throws LDAPException {
    ServerContext context = services.get();
    LDAPMessage request = record.request();
    // Only the record's modifier matters here: the requester's rights were checked by preparing.
    WriteControls controls =
        new WriteControls(
            request, context.schema(), new Identity(record.modifier(), false, Set.of()));
    // The batch that applies the change records it in the changelog, with the changed entry's
    // UUID, which the application learns under its locks.
    Recording recording = new Recording();
    recording.change = context.changelog().pending(record, () -> recording.targetUuid);
    WriteOutcome outcome =
        storage.recording(
            recording.change,
            () ->
                switch (request.getProtocolOpType()) {
                  case LDAPMessage.PROTOCOL_OP_TYPE_ADD_REQUEST -> applyAdd(request, recording);
                  case LDAPMessage.PROTOCOL_OP_TYPE_DELETE_REQUEST ->
                      applyDelete(context, controls, record.targetDn(), recording);
                  case LDAPMessage.PROTOCOL_OP_TYPE_MODIFY_REQUEST ->
                      applyModify(context, controls, record, recording);
                  default -> applyRename(context, controls, record, recording);
                });
    context.changelog().committed(recording.change, record, recording.targetUuid);
    return controls.readsEntries() ? outcome : WriteOutcome.success(null, null);
  }

  /**
   * How the changelog records a change being applied: its pending record, numbered once its batch
   * committed, and the UUID of the entry it changes, which the application reads under its locks.
   */
  private static final class Recording {
    private PendingChange change;
    private String targetUuid;

    void target(Entry entry) {
      targetUuid = entry.getAttributeValue("entryUUID");
    }

    /** The change as change listeners hear it: with its change number. */
    Change numbered(Change applied) {
      return applied.numbered(change.number());
    }
  }

  private WriteOutcome applyAdd(LDAPMessage request, Recording recording) throws LDAPException {
    AddRequestProtocolOp add = request.getAddRequestProtocolOp();
    Entry entry = new Entry(Dns.parse(add.getDN()), add.getAttributes());
    recording.target(entry);
    container(entry.getParsedDN()).add(entry);
    changes.committed(recording.numbered(Change.add(entry.getParsedDN(), entry)));
    return WriteOutcome.success(null, entry);
  }

  /** What storage would refuse, checked without writing (for the no-op control). */
  private static void checkAddable(EntryContainer container, DN dn) throws LDAPException {
    if (container.idOf(dn) >= 0) {
      throw new LDAPException(
          ResultCode.ENTRY_ALREADY_EXISTS, "The entry " + dn + " already exists");
    }
    DN parent = dn.getParent();
    if (!dn.equals(container.baseDn()) && container.idOf(parent) < 0) {
      DN matched = container.matchedDn(dn);
      throw new LDAPException(
          ResultCode.NO_SUCH_OBJECT,
          "The parent entry " + parent + " does not exist",
          matched == null ? null : matched.toString(),
          null);
    }
  }

  // ---------------------------------------------------------------- delete

  /**
   * Leaf entries only, notAllowedOnNonLeaf (66) otherwise, unless the subtree delete control asks
   * for the whole subtree (one storage batch).
   */
  @Override
  public Written delete(Update update, DN dn) throws LDAPException {
    WriteControls controls =
        new WriteControls(update.request(), update.context().schema(), update.identity());
    WriteOutcome outcome = commit(update, controls, update.request());
    return new Written(null, controls.readControls(outcome.before(), null));
  }

  private WriteOutcome applyDelete(
      ServerContext context, WriteControls controls, DN dn, Recording recording)
      throws LDAPException {
    EntryContainer container = container(dn);
    Entry entry = container.get(dn);
    if (entry == null) {
      DN matched = container.matchedDn(dn);
      throw new LDAPException(
          ResultCode.NO_SUCH_OBJECT,
          "The entry " + dn + " does not exist",
          matched == null ? null : matched.toString(),
          null);
    }
    controls.checkAssertion(entry);
    recording.target(entry);
    boolean tracked = tracksIntegrity(context);
    List<DN> deleted;
    if (controls.subtreeDelete()) {
      if (controls.noOp()) {
        throw controls.noOperation();
      }
      deleted =
          withIntegrity(
              tracked,
              () -> IntegrityFollowUp.deleted(subtree(container, dn)),
              () -> container.deleteSubtree(dn));
    } else {
      if (controls.noOp()) {
        if (container.childCount(container.idOf(dn)) > 0) {
          throw new LDAPException(
              ResultCode.NOT_ALLOWED_ON_NONLEAF,
              "The entry " + dn + " cannot be deleted because it has subordinate entries");
        }
        throw controls.noOperation();
      }
      deleted =
          withIntegrity(
              tracked,
              () -> IntegrityFollowUp.deleted(List.of(dn)),
              () -> {
                container.delete(dn);
                return List.of(dn);
              });
    }
    // As OpenDJ: a subtree delete is one change, of the entry it names.
    changes.committed(recording.numbered(Change.delete(dn, entry)));
    deleted.forEach(context.access()::written);
    followUp(context, tracked, IntegrityFollowUp.deleted(deleted));
    return WriteOutcome.success(entry, null);
  }

  /** The DNs of {@code dn}'s subtree, itself first. */
  private static List<DN> subtree(EntryContainer container, DN dn) throws LDAPException {
    List<DN> dns = new ArrayList<>();
    container.visitScope(
        dn,
        SearchScope.SUB,
        (key, id) -> {
          DN found = container.dnOf(id);
          if (found != null) {
            dns.add(found);
          }
          return true;
        });
    return dns;
  }

  /**
   * Whether the referential integrity of a delete or modify DN is stored with the change until it
   * ran: when this server applies the replication log, so that a crash between the change and its
   * group updates (which run in batches of their own) does not lose them; {@link #finishFollowUp}
   * runs them at the next start, before any later record. A single server does not pay for it.
   */
  private boolean tracksIntegrity(ServerContext context) {
    return storage.appliesLog() && context.groups().integrity().enabled();
  }

  /**
   * Applies {@code change}; when {@code tracked}, its batch also stores the follow-up ({@link
   * IntegrityFollowUp}) that {@code followUp} describes, asked under the change's locks.
   */
  private <T> T withIntegrity(
      boolean tracked, Backend.Write<IntegrityFollowUp> followUp, Backend.Write<T> change)
      throws LDAPException {
    return tracked ? storage.following(() -> followUp.run().encode(), change) : change.run();
  }

  /** Runs the referential integrity of a change applied; forgets it once done when tracked. */
  private void followUp(ServerContext context, boolean tracked, IntegrityFollowUp followUp)
      throws LDAPException {
    followUp.run(context.groups().integrity(), storage);
    if (tracked) {
      storage.followedUp();
    }
  }

  /**
   * Runs the referential integrity whose change a crash interrupted ({@link #withIntegrity}), if
   * any: once at start, before this server applies any record.
   */
  void finishFollowUp() throws LDAPException {
    byte[] pending = storage.pendingFollowUp();
    if (pending != null) {
      IntegrityFollowUp.decode(pending).run(services.get().groups().integrity(), storage);
      storage.followedUp();
    }
  }

  // ---------------------------------------------------------------- modify

  /** All modifications apply or none does, with no other write of the entry in between. */
  @Override
  public Written modify(Update update, DN dn, List<Modification> requested) throws LDAPException {
    ServerContext context = update.context();
    WriteControls controls =
        new WriteControls(update.request(), context.schema(), update.identity());
    SchemaChecker checker = context.serverSchema().checker();
    List<Modification> modifications = new ArrayList<>(requested.size());
    PasswordSchemes passwords = passwordsOf(context, dn, requested);
    for (Modification m : requested) {
      AttributeTypeDefinition type = checker.type(m.getAttribute().getBaseName());
      checker.checkUserModifiable(m.getAttribute().getBaseName());
      if (m.getModificationType() != ModificationType.DELETE) {
        checker.checkValues(m.getAttribute());
      }
      if (m.getModificationType() == ModificationType.INCREMENT
          && !INTEGER_SYNTAX.equals(type.getBaseSyntaxOID(context.schema()))) {
        throw new LDAPException(
            ResultCode.CONSTRAINT_VIOLATION,
            m.getAttributeName() + ": attribute syntax inappropriate for increment");
      }
      modifications.add(PasswordValues.hash(m, passwords));
    }
    modifications.addAll(context.passwordPolicy().stateChanges(update.client(), dn, requested));
    WriteOutcome outcome =
        commit(update, controls, new ModifyRequestProtocolOp(dn.toString(), modifications));
    return new Written(null, controls.readControls(outcome.before(), outcome.after()));
  }

  private WriteOutcome applyModify(
      ServerContext context, WriteControls controls, WriteRecord record, Recording recording)
      throws LDAPException {
    DN dn = record.targetDn();
    List<Modification> modifications =
        record.request().getModifyRequestProtocolOp().getModifications();
    SchemaChecker checker = context.serverSchema().checker();
    Entry[] before = {null};
    // Of member and uniqueMember, the change reads only the values the modifications name (see
    // EntryContainer#modify): one member more in a group of a million costs what it costs in a
    // group of ten. The whole entry when someone reads it: an assertion, a read control, a
    // persistent search.
    List<Attribute> named =
        controls.needsWholeEntry() || changes.readsWholeEntries()
            ? null
            : modifications.stream().map(Modification::getAttribute).toList();
    Entry after =
        container(dn)
            .modify(
                dn,
                named,
                current -> {
                  controls.checkAssertion(current);
                  Entry updated =
                      new ModificationApplier(checker)
                          .apply(current, modifications, controls.permissiveModify());
                  checkRdnKept(updated, checker);
                  ObjectClassDefinition was = checker.structuralOf(current);
                  ObjectClassDefinition is = checker.structuralOf(updated);
                  if (was != null && is != null && !was.equals(is)) {
                    throw new LDAPException(
                        ResultCode.OBJECT_CLASS_MODS_PROHIBITED,
                        "structural object class modification from '"
                            + was.getNameOrOID()
                            + "' to '"
                            + is.getNameOrOID()
                            + "' not allowed");
                  }
                  checker.check(updated, newValues(dn, modifications));
                  checker.addSuperiorClasses(updated);
                  if (controls.noOp()) {
                    throw controls.noOperation();
                  }
                  if (record.stamps()) {
                    OperationalAttributes.onModify(updated, record.modifier(), record.time());
                  }
                  before[0] = current;
                  recording.target(current);
                  return updated;
                });
    // A persistent search opened since is sent the whole entry, not what the change saw of it.
    Entry changed = named != null && changes.readsWholeEntries() ? container(dn).get(dn) : after;
    changes.committed(recording.numbered(Change.modify(dn, changed)));
    return WriteOutcome.success(before[0], after);
  }

  /**
   * The schemes new passwords of {@code dn} are hashed with: its policy's, read from the entry (not
   * under the write lock, as hashing may be slow by design) when the modify sets a password.
   */
  private PasswordSchemes passwordsOf(ServerContext context, DN dn, List<Modification> requested)
      throws LDAPException {
    if (requested.stream().anyMatch(PasswordValues::setsValues)) {
      Entry current = container(dn).get(dn);
      if (current != null) {
        return context.passwordsFor(current);
      }
    }
    return context.passwords();
  }

  /** The values the modifications bring, the only ones whose syntax needs checking. */
  private static Entry newValues(DN dn, List<Modification> modifications) {
    Entry values = new Entry(dn);
    for (Modification m : modifications) {
      if (m.getModificationType() != ModificationType.DELETE && m.hasValue()) {
        values.addAttribute(m.getAttribute());
      }
    }
    return values;
  }

  private static void checkRdnKept(Entry entry, SchemaChecker checker) throws LDAPException {
    RDN rdn = entry.getParsedDN().getRDN();
    String[] names = rdn.getAttributeNames();
    byte[][] values = rdn.getByteArrayAttributeValues();
    for (int i = 0; i < names.length; i++) {
      if (!entry.hasAttributeValue(names[i], values[i], checker.matchingRule(names[i]))) {
        throw new LDAPException(
            ResultCode.NOT_ALLOWED_ON_RDN,
            "the modification would remove the value of the naming attribute '"
                + names[i]
                + "' of "
                + entry.getDN());
      }
    }
  }

  // ---------------------------------------------------------------- modify DN

  /**
   * The renamed entry is schema-checked (a new RDN attribute its classes do not allow is
   * objectClassViolation (65)) and the whole subtree moves in one storage batch; it may not leave
   * its container (affectsMultipleDSAs, 71).
   */
  @Override
  public Written rename(Update update, DN dn, DN newDn) throws LDAPException {
    ServerContext context = update.context();
    WriteControls controls =
        new WriteControls(update.request(), context.schema(), update.identity());
    for (String attribute : newDn.getRDN().getAttributeNames()) {
      context.serverSchema().checker().type(attribute);
    }
    WriteOutcome outcome = commit(update, controls, update.request());
    return new Written(null, controls.readControls(outcome.before(), outcome.after()));
  }

  private WriteOutcome applyRename(
      ServerContext context, WriteControls controls, WriteRecord record, Recording recording)
      throws LDAPException {
    DN dn = record.targetDn();
    ModifyDNRequestProtocolOp op = record.request().getModifyDNRequestProtocolOp();
    DN newDn = Dns.renamed(dn, op);
    RDN newRdn = newDn.getRDN();
    DN newSuperior = op.getNewSuperiorDN() == null ? null : newDn.getParent();
    SchemaChecker checker = context.serverSchema().checker();
    EntryContainer container = container(dn);
    if (container != context.backends().containerFor(newDn)) {
      throw new LDAPException(
          ResultCode.AFFECTS_MULTIPLE_DSAS,
          "The entry " + dn + " cannot be moved to " + newDn + " because it would change backends");
    }
    if (newSuperior != null && container.idOf(newSuperior) < 0) {
      // As OpenLDAP: no matchedDN, which would describe the new superior, not the target entry.
      throw new LDAPException(
          ResultCode.NO_SUCH_OBJECT, "The new superior entry " + newSuperior + " does not exist");
    }
    Entry[] before = {null};
    Entry[] after = {null};
    boolean tracked = tracksIntegrity(context);
    withIntegrity(
        tracked,
        () -> IntegrityFollowUp.renamed(dn, newDn),
        () -> {
          container.rename(
              dn,
              newDn,
              current -> {
                controls.checkAssertion(current);
                Entry renamed =
                    Entry.applyModifyDN(
                        current, op.getNewRDN(), op.deleteOldRDN(), op.getNewSuperiorDN());
                new ModificationApplier(checker).takeRdnForm(renamed);
                OperationalAttributes.onModify(renamed, record.modifier(), record.time());
                checker.check(renamed, new Entry(newDn, newRdn.getAttributes()));
                if (controls.noOp()) {
                  throw controls.noOperation();
                }
                before[0] = current;
                after[0] = renamed;
                recording.target(current);
                return renamed;
              });
          return null;
        });
    // As OpenDJ: one change, of the entry renamed; its subordinates move with it silently.
    changes.committed(recording.numbered(Change.rename(newDn, after[0], dn)));
    followUp(context, tracked, IntegrityFollowUp.renamed(dn, newDn));
    return WriteOutcome.success(before[0], after[0]);
  }
}

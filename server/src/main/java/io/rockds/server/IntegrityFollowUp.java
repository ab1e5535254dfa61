package io.rockds.server;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import io.rockds.server.group.ReferentialIntegrity;
import io.rockds.storage.Backend;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The referential integrity a replicated delete or modify DN brings, as its batch stores it ({@link
 * Backend#following}) until the group updates, which run in batches of their own, are done. A crash
 * in between leaves it stored, and the next start runs it again before applying any later record:
 * the updates are idempotent (a group that no longer lists the old DN is left alone), so running
 * them twice gives what running them once would have.
 *
 * <p>Encoding: a kind byte (1 deleted, 2 renamed), then for deleted the count and each DN, for
 * renamed the old and the new DN; DNs as length-prefixed UTF-8.
 *
 * @param deleted the DNs a delete removed (a subtree delete's whole subtree), or empty
 * @param oldDn the DN a modify DN moved, or null
 * @param newDn where it moved to, or null
 */
record IntegrityFollowUp(List<DN> deleted, DN oldDn, DN newDn) {
  private static final int DELETED = 1;
  private static final int RENAMED = 2;

  static IntegrityFollowUp deleted(List<DN> dns) {
    return new IntegrityFollowUp(List.copyOf(dns), null, null);
  }

  static IntegrityFollowUp renamed(DN oldDn, DN newDn) {
    return new IntegrityFollowUp(List.of(), oldDn, newDn);
  }

  /** Updates the entries referring to what changed; {@code storage} holds the renamed subtree. */
  void run(ReferentialIntegrity integrity, Backend storage) {
    if (oldDn == null) {
      integrity.deleted(deleted);
    } else {
      integrity.renamed(storage.containerFor(newDn), oldDn, newDn);
    }
  }

  byte[] encode() {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(bytes);
      if (oldDn == null) {
        out.writeByte(DELETED);
        out.writeInt(deleted.size());
        for (DN dn : deleted) {
          writeDn(out, dn);
        }
      } else {
        out.writeByte(RENAMED);
        writeDn(out, oldDn);
        writeDn(out, newDn);
      }
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new IllegalStateException("writing to memory cannot fail", e);
    }
  }

  static IntegrityFollowUp decode(byte[] encoded) throws LDAPException {
    try {
      DataInputStream in = new DataInputStream(new ByteArrayInputStream(encoded));
      int kind = in.readUnsignedByte();
      if (kind == DELETED) {
        int count = in.readInt();
        List<DN> dns = new ArrayList<>();
        for (int i = 0; i < count; i++) {
          dns.add(readDn(in));
        }
        return deleted(dns);
      }
      if (kind == RENAMED) {
        return renamed(readDn(in), readDn(in));
      }
      throw new IOException("unknown kind " + kind);
    } catch (IOException e) {
      throw new LDAPException(
          ResultCode.OTHER, "an unreadable pending referential integrity: " + e.getMessage(), e);
    }
  }

  private static void writeDn(DataOutputStream out, DN dn) throws IOException {
    WriteRecord.writeBytes(out, dn.toString().getBytes(StandardCharsets.UTF_8));
  }

  private static DN readDn(DataInputStream in) throws IOException {
    try {
      return new DN(new String(WriteRecord.readBytes(in), StandardCharsets.UTF_8));
    } catch (LDAPException e) {
      throw new IOException(e.getMessage(), e);
    }
  }
}

package io.rockds.server.changelog;

import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import io.rockds.server.WriteRecord;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * What the changelog stores of a change: the write as it was prepared and applied (the final entry
 * of an add, the hashed modifications of a modify, the request of a delete or modify DN, with its
 * modifier and time), without its request controls, and the entryUUID of the entry it changed.
 *
 * <p>Encoding, version 1: a version byte, the UUID (UTF-8, length-prefixed, empty when unknown),
 * then the {@link WriteRecord} encoding.
 *
 * @param targetEntryUuid the changed entry's entryUUID, or "" when unknown
 * @param write the change
 */
record ChangeDescription(String targetEntryUuid, WriteRecord write) {
  private static final int VERSION = 1;

  /** The description of {@code write}, without the controls its application honoured. */
  static ChangeDescription of(String targetEntryUuid, WriteRecord write) {
    LDAPMessage request = write.request();
    return new ChangeDescription(
        targetEntryUuid == null ? "" : targetEntryUuid,
        new WriteRecord(
            write.modifier(),
            write.time(),
            new LDAPMessage(request.getMessageID(), request.getProtocolOp()),
            write.stamps()));
  }

  byte[] encode() {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(bytes);
      out.writeByte(VERSION);
      byte[] uuid = targetEntryUuid.getBytes(StandardCharsets.UTF_8);
      out.writeInt(uuid.length);
      out.write(uuid);
      out.write(write.encode());
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new IllegalStateException("writing to memory cannot fail", e);
    }
  }

  static ChangeDescription decode(byte[] encoded) throws LDAPException {
    try {
      DataInputStream in = new DataInputStream(new ByteArrayInputStream(encoded));
      int version = in.readUnsignedByte();
      if (version != VERSION) {
        throw new LDAPException(
            ResultCode.OTHER, "a changelog record of format version " + version + " is unknown");
      }
      int length = in.readInt();
      if (length < 0 || length > in.available()) {
        throw new IOException("bad length " + length);
      }
      String uuid = new String(in.readNBytes(length), StandardCharsets.UTF_8);
      return new ChangeDescription(uuid, WriteRecord.decode(in.readAllBytes()));
    } catch (IOException e) {
      throw new LDAPException(ResultCode.OTHER, "a truncated changelog record", e);
    }
  }
}

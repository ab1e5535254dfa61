package io.rockds.server;

import com.unboundid.asn1.ASN1StreamReader;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * A prepared write: what the server that received an LDAP write decided, with every value that must
 * be the same on every server already assigned (entryUUID, timestamps, password hashes), so that
 * applying it is deterministic. The change itself is an LDAP request, rewritten by the preparation
 * (an add carries the final entry, a modify the hashed values and the password policy state), with
 * the controls its application honours (assertion, permissive modify, subtree delete, no-op,
 * pre-/post-read).
 *
 * <p>Encoding, version 1: a version byte, then the modifier's DN, the modify time (generalized
 * time) and the BER of the LDAP message, each as a length-prefixed byte string. Version 2, written
 * only for a record that does not stamp (so that servers of version 1 still read every other
 * record), has a flags byte after the version: bit 0 set means no stamps. Version 3, written only
 * for a change of the shared settings, has the same layout with bit 1 of the flags set: a server
 * that does not know it stops applying records (it cannot skip a settings change) instead of taking
 * it for an entry. No version is 0xff: that first byte marks a log entry holding several records
 * (io.rockds.replication.RecordBatch).
 *
 * @param modifier who wrote: modifiersName
 * @param time when: modifyTimestamp
 * @param request the change
 * @param stamps whether the application sets modifiersName and modifyTimestamp: false for the
 *     password policy state a bind maintains, which is no modification by anyone
 * @param settings whether the change is of the settings every server shares (the schema, the shared
 *     part of cn=config, see {@link io.rockds.config.SharedConfig}) rather than of an entry
 */
public record WriteRecord(
    DN modifier, String time, LDAPMessage request, boolean stamps, boolean settings) {
  private static final int VERSION = 1;
  private static final int VERSION_WITH_FLAGS = 2;
  private static final int VERSION_WITH_SETTINGS = 3;
  private static final int NO_STAMPS = 1;
  private static final int SETTINGS = 2;

  /** A write by {@code modifier}, stamped with modifiersName and modifyTimestamp. */
  public WriteRecord(DN modifier, String time, LDAPMessage request) {
    this(modifier, time, request, true);
  }

  /** A write of an entry. */
  public WriteRecord(DN modifier, String time, LDAPMessage request, boolean stamps) {
    this(modifier, time, request, stamps, false);
  }

  /**
   * A change of the shared settings by {@code modifier}: a modify of cn=schema, a cn=config write.
   */
  public static WriteRecord ofSettings(DN modifier, String time, LDAPMessage request) {
    return new WriteRecord(modifier, time, request, false, true);
  }

  /** The DN the change is about. */
  public DN targetDn() throws LDAPException {
    return switch (request.getProtocolOpType()) {
      case LDAPMessage.PROTOCOL_OP_TYPE_ADD_REQUEST ->
          Dns.parse(request.getAddRequestProtocolOp().getDN());
      case LDAPMessage.PROTOCOL_OP_TYPE_DELETE_REQUEST ->
          Dns.parse(request.getDeleteRequestProtocolOp().getDN());
      case LDAPMessage.PROTOCOL_OP_TYPE_MODIFY_REQUEST ->
          Dns.parse(request.getModifyRequestProtocolOp().getDN());
      case LDAPMessage.PROTOCOL_OP_TYPE_MODIFY_DN_REQUEST ->
          Dns.parse(request.getModifyDNRequestProtocolOp().getDN());
      default -> throw new LDAPException(ResultCode.PROTOCOL_ERROR, "not a write: " + request);
    };
  }

  public byte[] encode() {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(bytes);
      if (settings) {
        out.writeByte(VERSION_WITH_SETTINGS);
        out.writeByte(SETTINGS | (stamps ? 0 : NO_STAMPS));
      } else if (stamps) {
        out.writeByte(VERSION);
      } else {
        out.writeByte(VERSION_WITH_FLAGS);
        out.writeByte(NO_STAMPS);
      }
      writeBytes(out, modifier.toString().getBytes(StandardCharsets.UTF_8));
      writeBytes(out, time.getBytes(StandardCharsets.UTF_8));
      writeBytes(out, request.encode().encode());
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new IllegalStateException("writing to memory cannot fail", e);
    }
  }

  /**
   * Whether the leader checks the encoded record before appending it: a settings change, or a
   * record of a format this server does not know; told from the version byte alone, so that the
   * write of an entry costs nothing more.
   */
  public static boolean checkedBeforeAppend(byte[] encoded) {
    return encoded.length == 0 || (encoded[0] & 0xff) >= VERSION_WITH_SETTINGS;
  }

  public static WriteRecord decode(byte[] encoded) throws LDAPException {
    try {
      DataInputStream in = new DataInputStream(new ByteArrayInputStream(encoded));
      int version = in.readUnsignedByte();
      if (version != VERSION && version != VERSION_WITH_FLAGS && version != VERSION_WITH_SETTINGS) {
        throw new UnknownFormatException(version);
      }
      int flags = version == VERSION ? 0 : in.readUnsignedByte();
      boolean stamps = (flags & NO_STAMPS) == 0;
      boolean settings = version == VERSION_WITH_SETTINGS && (flags & SETTINGS) != 0;
      DN modifier = new DN(new String(readBytes(in), StandardCharsets.UTF_8));
      String time = new String(readBytes(in), StandardCharsets.UTF_8);
      LDAPMessage request =
          LDAPMessage.readFrom(new ASN1StreamReader(new ByteArrayInputStream(readBytes(in))), true);
      return new WriteRecord(modifier, time, request, stamps, settings);
    } catch (IOException e) {
      throw new LDAPException(ResultCode.DECODING_ERROR, "a truncated replicated write", e);
    }
  }

  /**
   * A record written by a newer server: one that does not know the format must not skip it, as it
   * would skip a refused write.
   */
  public static final class UnknownFormatException extends LDAPException {
    private static final long serialVersionUID = 1L;

    UnknownFormatException(int version) {
      super(
          ResultCode.UNWILLING_TO_PERFORM,
          "a replicated write of format version " + version + " is not known to this server");
    }
  }

  static void writeBytes(DataOutputStream out, byte[] value) throws IOException {
    out.writeInt(value.length);
    out.write(value);
  }

  static byte[] readBytes(DataInputStream in) throws IOException {
    int length = in.readInt();
    if (length < 0 || length > in.available()) {
      throw new IOException("bad length " + length);
    }
    return in.readNBytes(length);
  }
}

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
 * record), has a flags byte after the version: bit 0 set means no stamps.
 *
 * @param modifier who wrote: modifiersName
 * @param time when: modifyTimestamp
 * @param request the change
 * @param stamps whether the application sets modifiersName and modifyTimestamp: false for the
 *     password policy state a bind maintains, which is no modification by anyone
 */
public record WriteRecord(DN modifier, String time, LDAPMessage request, boolean stamps) {
  private static final int VERSION = 1;
  private static final int VERSION_WITH_FLAGS = 2;
  private static final int NO_STAMPS = 1;

  /** A write by {@code modifier}, stamped with modifiersName and modifyTimestamp. */
  public WriteRecord(DN modifier, String time, LDAPMessage request) {
    this(modifier, time, request, true);
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
      if (stamps) {
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

  public static WriteRecord decode(byte[] encoded) throws LDAPException {
    try {
      DataInputStream in = new DataInputStream(new ByteArrayInputStream(encoded));
      int version = in.readUnsignedByte();
      if (version != VERSION && version != VERSION_WITH_FLAGS) {
        throw new LDAPException(
            ResultCode.UNWILLING_TO_PERFORM,
            "a replicated write of format version " + version + " is not known to this server");
      }
      boolean stamps = version == VERSION || (in.readUnsignedByte() & NO_STAMPS) == 0;
      DN modifier = new DN(new String(readBytes(in), StandardCharsets.UTF_8));
      String time = new String(readBytes(in), StandardCharsets.UTF_8);
      LDAPMessage request =
          LDAPMessage.readFrom(new ASN1StreamReader(new ByteArrayInputStream(readBytes(in))), true);
      return new WriteRecord(modifier, time, request, stamps);
    } catch (IOException e) {
      throw new LDAPException(ResultCode.DECODING_ERROR, "a truncated replicated write", e);
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

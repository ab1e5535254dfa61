package io.rockds.server;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldif.LDIFException;
import com.unboundid.ldif.LDIFReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * What applying a {@link WriteRecord} answered: success or the LDAP result that refused it, and the
 * entry before and after when the request asked for pre-/post-read controls (the server that
 * received the request builds those controls, filtered for its requester).
 *
 * @param before the entry before the write, or null
 * @param after the entry after it, or null
 */
public record WriteOutcome(
    int resultCode, String message, String matchedDn, Entry before, Entry after) {
  public static WriteOutcome success(Entry before, Entry after) {
    return new WriteOutcome(ResultCode.SUCCESS_INT_VALUE, null, null, before, after);
  }

  /**
   * A settings change applied, with what the operator must still do (restart, rebuild an index) as
   * its message, or null.
   */
  public static WriteOutcome applied(String notice) {
    return new WriteOutcome(ResultCode.SUCCESS_INT_VALUE, notice, null, null, null);
  }

  public static WriteOutcome refused(LDAPException e) {
    return new WriteOutcome(
        e.getResultCode().intValue(), Responses.diagnosticMessage(e), e.getMatchedDN(), null, null);
  }

  /** Throws the LDAP result that refused the write, if it was refused. */
  public WriteOutcome orThrow() throws LDAPException {
    if (resultCode != ResultCode.SUCCESS_INT_VALUE) {
      throw new LDAPException(ResultCode.valueOf(resultCode), message, matchedDn, null);
    }
    return this;
  }

  public byte[] encode() {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(bytes);
      out.writeInt(resultCode);
      writeString(out, message);
      writeString(out, matchedDn);
      writeString(out, before == null ? null : before.toLDIFString());
      writeString(out, after == null ? null : after.toLDIFString());
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new IllegalStateException("writing to memory cannot fail", e);
    }
  }

  public static WriteOutcome decode(byte[] encoded) throws LDAPException {
    try {
      DataInputStream in = new DataInputStream(new ByteArrayInputStream(encoded));
      return new WriteOutcome(
          in.readInt(),
          readString(in),
          readString(in),
          entry(readString(in)),
          entry(readString(in)));
    } catch (IOException | LDIFException e) {
      throw new LDAPException(ResultCode.DECODING_ERROR, "a truncated write result", e);
    }
  }

  private static Entry entry(String ldif) throws LDIFException {
    return ldif == null ? null : LDIFReader.decodeEntry(ldif.split("\n"));
  }

  private static void writeString(DataOutputStream out, String value) throws IOException {
    out.writeBoolean(value != null);
    if (value != null) {
      WriteRecord.writeBytes(out, value.getBytes(StandardCharsets.UTF_8));
    }
  }

  private static String readString(DataInputStream in) throws IOException {
    return in.readBoolean() ? new String(WriteRecord.readBytes(in), StandardCharsets.UTF_8) : null;
  }
}

package io.rockds.protocol;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.util.ByteStringBuffer;
import io.netty.buffer.ByteBuf;
import java.util.Arrays;

/**
 * The BER of a search result entry without controls (RFC 4511 section 4.5.2), byte for byte what
 * {@code LDAPMessage.writeTo} gives, written straight into the outgoing buffer. {@code ASN1Buffer}
 * writes each length once its element is complete, shifting everything after it: a 1.5 kB photo
 * moved once per enclosing element (value set, attribute, attribute list, entry, message), in a
 * buffer grown from a few bytes by copies. Here the DN, names and encoded values are first gathered
 * into a reused buffer, which gives every length; then each header and each gathered piece is
 * written once, in order, into a buffer sized for the whole message.
 *
 * <p>An entry is built by {@link #start}, then {@link #attribute} and its {@link #value}s for each
 * attribute, then {@link #finish} and {@link #writeTo}. One instance per thread: not thread-safe.
 */
public final class SearchEntryEncoder {
  private static final byte INTEGER = 0x02;
  private static final byte OCTET_STRING = 0x04;
  private static final byte SEQUENCE = 0x30;
  private static final byte SET = 0x31;
  private static final byte SEARCH_RESULT_ENTRY = 0x64;

  /** What the buffers keep between entries; an entry larger than this leaves them shrunk back. */
  static final int RETAINED_BYTES = 64 * 1024;

  private static final int RETAINED_ATTRIBUTES = 1024;

  /** The DN, then of each attribute its name and its encoded values, in order. */
  private final ByteStringBuffer gathered = new ByteStringBuffer(4096);

  /** Of attribute {@code i}: where its name ends ({@code 2i}) and its values end ({@code 2i+1}). */
  private int[] ends = new int[128];

  private int messageId;
  private int dnBytes;
  private int attributeCount;

  /** Whether the last attribute started still takes values: its end is not recorded yet. */
  private boolean inAttribute;

  private int attributeListBytes;
  private int protocolOpBytes;
  private int messageBytes;

  SearchEntryEncoder() {}

  /** Starts an entry named {@code dn}. */
  void start(int messageId, String dn) {
    reset(messageId);
    gathered.append(dn);
    dnBytes = gathered.length();
  }

  /** Starts an entry whose DN is {@code length} bytes of UTF-8 at {@code offset} of {@code dn}. */
  void start(int messageId, byte[] dn, int offset, int length) {
    reset(messageId);
    gathered.append(dn, offset, length);
    dnBytes = length;
  }

  private void reset(int messageId) {
    this.messageId = messageId;
    gathered.clear();
    attributeCount = 0;
    inAttribute = false;
    attributeListBytes = 0;
  }

  /** Starts the next attribute of the entry; its values follow. */
  public void attribute(String description) {
    endAttribute();
    if (ends.length < 2 * attributeCount + 2) {
      ends = Arrays.copyOf(ends, 2 * ends.length);
    }
    gathered.append(description);
    ends[2 * attributeCount] = gathered.length();
    attributeCount++;
    inAttribute = true;
  }

  /**
   * A value of the current attribute: {@code length} bytes of {@code bytes} from {@code offset}.
   */
  public void value(byte[] bytes, int offset, int length) {
    gathered.append(OCTET_STRING);
    appendLength(length);
    gathered.append(bytes, offset, length);
  }

  /**
   * A value of the current attribute. {@link ASN1OctetString#encodeTo} reads a value decoded as a
   * slice of a larger array in place, where its {@code getValue} and {@code getValueLength} would
   * copy it out first.
   */
  void value(ASN1OctetString value) {
    value.encodeTo(gathered);
  }

  /** Ends the entry and returns the size of its message, which {@link #writeTo} then writes. */
  int finish() {
    endAttribute();
    protocolOpBytes = elementBytes(dnBytes) + elementBytes(attributeListBytes);
    messageBytes = integerBytes(messageId) + elementBytes(protocolOpBytes);
    return elementBytes(messageBytes);
  }

  private void endAttribute() {
    if (!inAttribute) {
      return;
    }
    int i = attributeCount - 1;
    int start = i == 0 ? dnBytes : ends[2 * i - 1];
    int nameEnd = ends[2 * i];
    int end = gathered.length();
    ends[2 * i + 1] = end;
    attributeListBytes += elementBytes(attributeBytes(nameEnd - start, end - nameEnd));
    inAttribute = false;
  }

  /** Writes the message last {@link #finish finished}, then lets go of a large entry's bytes. */
  void writeTo(ByteBuf out) {
    byte[] bytes = gathered.getBackingArray();
    header(out, SEQUENCE, messageBytes);
    integer(out, messageId);
    header(out, SEARCH_RESULT_ENTRY, protocolOpBytes);
    header(out, OCTET_STRING, dnBytes);
    out.writeBytes(bytes, 0, dnBytes);
    header(out, SEQUENCE, attributeListBytes);
    int start = dnBytes;
    for (int i = 0; i < attributeCount; i++) {
      int nameEnd = ends[2 * i];
      int end = ends[2 * i + 1];
      header(out, SEQUENCE, attributeBytes(nameEnd - start, end - nameEnd));
      header(out, OCTET_STRING, nameEnd - start);
      out.writeBytes(bytes, start, nameEnd - start);
      header(out, SET, end - nameEnd);
      out.writeBytes(bytes, nameEnd, end - nameEnd);
      start = end;
    }
    release();
  }

  private void release() {
    if (gathered.capacity() > RETAINED_BYTES) {
      gathered.clear();
      gathered.setCapacity(RETAINED_BYTES);
    }
    if (ends.length > 2 * RETAINED_ATTRIBUTES) {
      ends = new int[2 * RETAINED_ATTRIBUTES];
    }
  }

  /** The contents of an attribute: its name and the set of its values. */
  private static int attributeBytes(int nameBytes, int valuesBytes) {
    return elementBytes(nameBytes) + elementBytes(valuesBytes);
  }

  /** A whole element: type, length, contents. */
  private static int elementBytes(int contentBytes) {
    return 1 + lengthBytes(contentBytes) + contentBytes;
  }

  /** The definite length in the fewest bytes, as the SDK writes it. */
  private static int lengthBytes(int length) {
    if (length < 0x80) {
      return 1;
    } else if (length <= 0xFF) {
      return 2;
    } else if (length <= 0xFFFF) {
      return 3;
    } else if (length <= 0xFF_FFFF) {
      return 4;
    }
    return 5;
  }

  private void appendLength(int length) {
    if (length >= 0x80) {
      int bytes = lengthBytes(length) - 1;
      gathered.append((byte) (0x80 | bytes));
      for (int shift = 8 * (bytes - 1); shift > 0; shift -= 8) {
        gathered.append((byte) (length >> shift));
      }
    }
    gathered.append((byte) length);
  }

  private static void header(ByteBuf out, byte type, int length) {
    out.writeByte(type);
    if (length < 0x80) {
      out.writeByte(length);
    } else if (length <= 0xFF) {
      out.writeByte(0x81);
      out.writeByte(length);
    } else if (length <= 0xFFFF) {
      out.writeByte(0x82);
      out.writeShort(length);
    } else if (length <= 0xFF_FFFF) {
      out.writeByte(0x83);
      out.writeMedium(length);
    } else {
      out.writeByte(0x84);
      out.writeInt(length);
    }
  }

  /** The INTEGER element of {@code value}: its two's complement in the fewest bytes. */
  private static int integerBytes(int value) {
    return 2 + integerContentBytes(value);
  }

  private static int integerContentBytes(int value) {
    if (value >= -0x80 && value < 0x80) {
      return 1;
    } else if (value >= -0x8000 && value < 0x8000) {
      return 2;
    } else if (value >= -0x80_0000 && value < 0x80_0000) {
      return 3;
    }
    return 4;
  }

  private static void integer(ByteBuf out, int value) {
    int length = integerContentBytes(value);
    out.writeByte(INTEGER);
    out.writeByte(length);
    for (int shift = 8 * (length - 1); shift >= 0; shift -= 8) {
      out.writeByte(value >> shift);
    }
  }
}

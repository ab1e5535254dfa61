package io.rockds.benchmarks.protocol;

import com.unboundid.asn1.ASN1Buffer;
import com.unboundid.asn1.ASN1Element;
import com.unboundid.asn1.ASN1StreamReader;
import com.unboundid.ldap.protocol.BindRequestProtocolOp;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.protocol.SearchRequestProtocolOp;
import com.unboundid.ldap.protocol.SearchResultEntryProtocolOp;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DereferencePolicy;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.SearchScope;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.rockds.protocol.LdapMessageDecoder;
import io.rockds.protocol.LdapMessageEncoder;
import io.rockds.protocol.ProtocolSettings;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Decoding and encoding of typical LDAP messages: a search request, a simple bind and a search
 * result entry of about 3 kB. Decoding compares the server's path (iterative BER depth check, then
 * the SDK's element path {@code ASN1Element.decode} → {@code LDAPMessage.decode}) with the element
 * path alone and with the SDK's streaming reader (which the server must not use on untrusted bytes:
 * it can be made to allocate without bound). Encoding compares the server's path (reusable {@code
 * ASN1Buffer} into a pooled {@code ByteBuf}) with building an {@code ASN1Element} tree and
 * serialising it.
 *
 * <pre>
 * ./mvnw -B -o -q -pl benchmarks -am package -DskipTests
 * java -jar benchmarks/target/benchmarks.jar 'protocol.CodecBenchmark' -f 1 -wi 3 -i 5 -w 1 -r 1
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CodecBenchmark {
  private LDAPMessage searchRequest;
  private LDAPMessage bindRequest;
  private LDAPMessage entry;
  private byte[] searchBytes;
  private byte[] bindBytes;
  private byte[] entryBytes;
  private final ASN1Buffer asn1Buffer = new ASN1Buffer();

  @Setup
  public void setUp() {
    searchRequest =
        new LDAPMessage(
            42,
            new SearchRequestProtocolOp(
                "ou=People,dc=example,dc=com",
                SearchScope.SUB,
                DereferencePolicy.NEVER,
                0,
                0,
                false,
                Filter.createANDFilter(
                    Filter.createEqualityFilter("objectClass", "inetOrgPerson"),
                    Filter.createEqualityFilter("uid", "user.12345")),
                List.of("cn", "sn", "mail", "telephoneNumber")));
    bindRequest =
        new LDAPMessage(
            1,
            new BindRequestProtocolOp(
                "uid=user.12345,ou=People,dc=example,dc=com", "password-of-user-12345"));
    List<Attribute> attributes = new ArrayList<>();
    attributes.add(
        new Attribute("objectClass", "top", "person", "organizationalPerson", "inetOrgPerson"));
    attributes.add(new Attribute("uid", "user.12345"));
    attributes.add(new Attribute("cn", "Aaccf Amar"));
    attributes.add(new Attribute("sn", "Amar"));
    attributes.add(new Attribute("givenName", "Aaccf"));
    attributes.add(new Attribute("mail", "user.12345@example.com"));
    attributes.add(new Attribute("telephoneNumber", "+1 685 622 6202"));
    attributes.add(
        new Attribute("postalAddress", "Aaccf Amar$01251 Chestnut Street$Panama City, DE  50369"));
    attributes.add(new Attribute("description", "x".repeat(2400)));
    entry =
        new LDAPMessage(
            42,
            new SearchResultEntryProtocolOp(
                "uid=user.12345,ou=People,dc=example,dc=com", attributes));
    searchBytes = searchRequest.encode().encode();
    bindBytes = bindRequest.encode().encode();
    entryBytes = entry.encode().encode();
  }

  @Benchmark
  public LDAPMessage decodeSearchServerPath() {
    return LdapMessageDecoder.decode(searchBytes, ProtocolSettings.DEFAULT_MAX_BER_DEPTH);
  }

  @Benchmark
  public LDAPMessage decodeSearchElementPath() throws Exception {
    return LDAPMessage.decode(ASN1Element.decode(searchBytes));
  }

  @Benchmark
  public LDAPMessage decodeSearchStreamingReader() throws Exception {
    return LDAPMessage.readFrom(new ASN1StreamReader(new ByteArrayInputStream(searchBytes)), false);
  }

  @Benchmark
  public LDAPMessage decodeBindServerPath() {
    return LdapMessageDecoder.decode(bindBytes, ProtocolSettings.DEFAULT_MAX_BER_DEPTH);
  }

  @Benchmark
  public LDAPMessage decodeBindElementPath() throws Exception {
    return LDAPMessage.decode(ASN1Element.decode(bindBytes));
  }

  @Benchmark
  public LDAPMessage decodeEntryElementPath() throws Exception {
    return LDAPMessage.decode(ASN1Element.decode(entryBytes));
  }

  @Benchmark
  public int encodeSearchServerPath() {
    return encodeServerPath(searchRequest);
  }

  @Benchmark
  public int encodeBindServerPath() {
    return encodeServerPath(bindRequest);
  }

  @Benchmark
  public int encodeEntryServerPath() {
    return encodeServerPath(entry);
  }

  @Benchmark
  public byte[] encodeEntryElementTree() {
    return entry.encode().encode();
  }

  @Benchmark
  public byte[] encodeEntryAsn1BufferToArray() {
    asn1Buffer.clear();
    entry.writeTo(asn1Buffer);
    return asn1Buffer.toByteArray();
  }

  private static int encodeServerPath(LDAPMessage message) {
    ByteBuf out = LdapMessageEncoder.encode(message, PooledByteBufAllocator.DEFAULT);
    int size = out.readableBytes();
    out.release();
    return size;
  }
}

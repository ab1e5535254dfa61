package io.rockds.server;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import io.rockds.server.backend.AccessRule;
import io.rockds.server.backend.DirectoryBackend;
import io.rockds.server.backend.SearchResults;
import io.rockds.server.schema.SubschemaEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The root DSE (RFC 4512 section 5.1): what a client learns before it binds. Readable by anyone,
 * with a base search only; no update reaches it.
 */
final class RootDse implements DirectoryBackend {
  static final String VENDOR_NAME = "RockDS";
  static final String VENDOR_VERSION = "RockDS " + version();

  /** The server it describes, complete only once the backends (this one included) are routed. */
  private final Supplier<ServerContext> context;

  RootDse(Supplier<ServerContext> context) {
    this.context = context;
  }

  @Override
  public List<DN> baseDns() {
    return List.of(DN.NULL_DN);
  }

  @Override
  public AccessRule readAccess() {
    return AccessRule.ANYONE;
  }

  @Override
  public Entry get(DN dn) {
    return build(context.get());
  }

  @Override
  public void search(DN base, SearchScope scope, SearchResults results) throws LDAPException {
    if (scope != SearchScope.BASE) {
      throw new LDAPException(
          ResultCode.NO_SUCH_OBJECT, "The search base entry " + base + " does not exist");
    }
    results.inScope(get(base));
  }

  static String version() {
    String v = RootDse.class.getPackage().getImplementationVersion();
    return v == null ? "0.1.0-SNAPSHOT" : v;
  }

  static Entry build(ServerContext context) {
    List<String> namingContexts = new ArrayList<>();
    for (DN dn : context.backends().baseDns()) {
      namingContexts.add(dn.toString());
    }
    List<String> controls = new ArrayList<>(SupportedControls.all());
    controls.sort(null);
    Entry entry =
        new Entry(
            "",
            new Attribute("objectClass", "top", "ds-root-dse"),
            new Attribute("supportedLDAPVersion", "3"),
            new Attribute("vendorName", VENDOR_NAME),
            new Attribute("vendorVersion", VENDOR_VERSION),
            new Attribute("subschemaSubentry", SubschemaEntry.DN_STRING),
            new Attribute("supportedExtension", ExtendedOperation.SUPPORTED),
            new Attribute(
                "supportedFeatures",
                "1.3.6.1.4.1.4203.1.5.1", // all operational attributes, "+" (RFC 3673)
                "1.3.6.1.4.1.4203.1.5.2", // object class lists, "@person" (RFC 4529)
                "1.3.6.1.4.1.4203.1.5.3", // absolute true and false filters (RFC 4526)
                "1.3.6.1.1.14")); // increment modification (RFC 4525)
    if (!namingContexts.isEmpty()) {
      entry.addAttribute("namingContexts", namingContexts);
    }
    if (!controls.isEmpty()) {
      entry.addAttribute("supportedControl", controls);
    }
    entry.addAttribute(
        "supportedSASLMechanisms", new io.rockds.server.sasl.SaslMechanisms(context).names());
    // draft-good-ldap-changelog's pointer to the changelog, and OpenDJ's range of its numbers.
    entry.addAttribute("changelog", "cn=changelog");
    entry.addAttribute("firstChangeNumber", Long.toString(context.changelog().first()));
    entry.addAttribute("lastChangeNumber", Long.toString(context.changelog().last()));
    return entry;
  }
}

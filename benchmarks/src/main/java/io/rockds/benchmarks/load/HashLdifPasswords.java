package io.rockds.benchmarks.load;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldif.LDIFReader;
import com.unboundid.ldif.LDIFWriter;
import io.rockds.server.security.password.PasswordSchemeSettings;
import io.rockds.server.security.password.PasswordSchemes;

/**
 * Rewrites an LDIF file with its clear-text userPassword values hashed in one scheme, so that
 * slapadd (which stores what it is given) loads the same hashes a directory would hold:
 * {@code HashLdifPasswords SSHA in.ldif out.ldif}.
 */
public final class HashLdifPasswords {
  private HashLdifPasswords() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 3) {
      System.err.println("usage: HashLdifPasswords SCHEME in.ldif out.ldif");
      System.exit(2);
    }
    PasswordSchemeSettings defaults = PasswordSchemeSettings.defaults();
    PasswordSchemes schemes = new PasswordSchemes(new PasswordSchemeSettings(args[0], defaults.disabledSchemes(),
        defaults.pbkdf2Iterations(), defaults.bcryptCost(), defaults.argon2Cost()));
    try (LDIFReader in = new LDIFReader(args[1]); LDIFWriter out = new LDIFWriter(args[2])) {
      for (Entry e = in.readEntry(); e != null; e = in.readEntry()) {
        byte[][] values = e.getAttributeValueByteArrays("userPassword");
        if (values != null) {
          byte[][] hashed = new byte[values.length][];
          for (int i = 0; i < values.length; i++) {
            hashed[i] = schemes.toStoredValue(values[i]);
          }
          e.setAttribute("userPassword", hashed);
        }
        out.writeEntry(e);
      }
    }
  }
}

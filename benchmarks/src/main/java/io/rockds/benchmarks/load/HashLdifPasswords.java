package io.rockds.benchmarks.load;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldif.LDIFReader;
import com.unboundid.ldif.LDIFWriter;
import io.rockds.server.security.password.PasswordSchemeSettings;
import io.rockds.server.security.password.PasswordSchemes;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;

/**
 * Rewrites an LDIF file with its clear-text userPassword values hashed in one scheme, so that
 * slapadd (which stores what it is given) loads the same hashes a directory would hold: {@code
 * HashLdifPasswords SSHA in.ldif out.ldif}.
 *
 * <p>With {@code --oneHashPerValue}, each distinct clear-text value is hashed once (one salt) and
 * that hash is given to every entry holding it. A server verifying a bind does exactly the same
 * work whatever the salt, so bind benchmarks measure the same cost, while 100,000 PBKDF2 hashes
 * (about 25 CPU-minutes at 10,000 iterations) shrink to one.
 */
public final class HashLdifPasswords {
  private HashLdifPasswords() {}

  public static void main(String[] args) throws Exception {
    boolean oncePerValue = args.length == 4 && args[3].equals("--oneHashPerValue");
    if (args.length != 3 && !oncePerValue) {
      System.err.println("usage: HashLdifPasswords SCHEME in.ldif out.ldif [--oneHashPerValue]");
      System.exit(2);
    }
    Map<String, byte[]> hashes =
        new HashMap<>(); // by clear-text value (base64), with --oneHashPerValue
    PasswordSchemeSettings defaults = PasswordSchemeSettings.defaults();
    PasswordSchemes schemes =
        new PasswordSchemes(
            new PasswordSchemeSettings(
                args[0],
                defaults.disabledSchemes(),
                defaults.pbkdf2Iterations(),
                defaults.bcryptCost(),
                defaults.argon2Cost()));
    try (LDIFReader in = new LDIFReader(args[1]);
        LDIFWriter out = new LDIFWriter(args[2])) {
      for (Entry e = in.readEntry(); e != null; e = in.readEntry()) {
        byte[][] values = e.getAttributeValueByteArrays("userPassword");
        if (values != null) {
          byte[][] hashed = new byte[values.length][];
          for (int i = 0; i < values.length; i++) {
            String key = Base64.getEncoder().encodeToString(values[i]);
            byte[] hash = oncePerValue ? hashes.get(key) : null;
            if (hash == null) {
              hash = schemes.toStoredValue(values[i]);
              if (oncePerValue) {
                hashes.put(key, hash);
              }
            }
            hashed[i] = hash;
          }
          e.setAttribute("userPassword", hashed);
        }
        out.writeEntry(e);
      }
    }
  }
}

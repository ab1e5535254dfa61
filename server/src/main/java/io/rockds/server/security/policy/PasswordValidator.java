package io.rockds.server.security.policy;

import com.unboundid.ldap.sdk.Entry;
import io.rockds.config.ConfigException;
import io.rockds.config.model.ConfigModel;
import io.rockds.config.model.PropertyReader;
import java.nio.file.Path;

/**
 * One check a new clear-text password must pass, configured as an OpenDJ password validator ({@code
 * cn=Password Validators,cn=config}) and named by a policy's {@code password-validator}.
 */
interface PasswordValidator {

  /**
   * Why {@code password} is refused for the user {@code entry}, or null when it passes. The reason
   * goes to the client, so it must not quote the password.
   */
  String refusal(String password, Entry entry);

  /** The validator a configuration entry describes; {@code instance} resolves relative files. */
  static PasswordValidator from(Entry config, Path instance) throws ConfigException {
    PropertyReader r = new PropertyReader(config, ConfigModel.PASSWORD_VALIDATOR);
    if (r.type() == null) {
      throw new ConfigException(
          config.getDN()
              + ": objectClass: expected one of the password validator types "
              + ConfigModel.PASSWORD_VALIDATOR.types().stream().map(t -> t.objectClass()).toList());
    }
    return switch (r.type().name()) {
      case "length-based" ->
          new LengthValidator(
              r.integer("min-password-length").intValue(),
              r.integer("max-password-length").intValue());
      case "character-set" ->
          CharacterSetValidator.of(
              config.getDN(),
              r.strings("character-set"),
              r.bool("allow-unclassified-characters"),
              r.integer("min-character-sets").intValue());
      case "dictionary" ->
          DictionaryValidator.load(
              config.getDN(),
              instance,
              r.string("dictionary-file"),
              r.bool("case-sensitive-validation"),
              r.bool("test-reversed-password"),
              r.bool("check-substrings"),
              r.integer("min-substring-length").intValue());
      case "attribute-value" ->
          new AttributeValueValidator(
              r.strings("match-attribute"), r.bool("test-reversed-password"));
      default ->
          throw new ConfigException(
              config.getDN() + ": unknown password validator type " + r.type().name());
    };
  }

  /** The number of characters (code points), as users count them. */
  static int length(String password) {
    return password.codePointCount(0, password.length());
  }

  static String reversed(String password) {
    return new StringBuilder(password).reverse().toString();
  }
}

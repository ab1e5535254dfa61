package io.rockds.server.security.policy;

import com.unboundid.ldap.sdk.Entry;

/**
 * OpenDJ's length-based validator: at least {@code min} and, when {@code max > 0}, at most {@code
 * max} characters.
 */
record LengthValidator(int min, int max) implements PasswordValidator {

  @Override
  public String refusal(String password, Entry entry) {
    int length = PasswordValidator.length(password);
    if (length < min) {
      return "The password is too short: it needs at least " + min + " characters";
    }
    if (max > 0 && length > max) {
      return "The password is too long: it may have at most " + max + " characters";
    }
    return null;
  }
}

/**
 * Password policy, a practical subset of draft-behera-ldap-password-policy configured as OpenDJ
 * does ({@code cn=Password Policies,cn=config}, per-entry {@code ds-pwp-password-policy-dn} or
 * {@code pwdPolicySubentry}): minimum length, history, maximum age, lockout after failed binds,
 * must-change after reset, the Password Policy response control on bind and the Password Modify
 * extended operation (RFC 3062). The state lives in operational attributes of the user entry
 * ({@code pwdFailureTime}, {@code pwdAccountLockedTime}, {@code pwdChangedTime}, {@code
 * pwdHistory}, {@code pwdReset}), written through the backend like any modify.
 */
package io.rockds.server.security.policy;

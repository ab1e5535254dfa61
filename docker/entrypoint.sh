#!/usr/bin/env bash
# RockDS container entry point, with the environment variables of the bitnami/openldap image.
#
# On an empty data volume: creates the instance (base DN LDAP_ROOT, root user
# cn=$LDAP_ADMIN_USERNAME,$LDAP_ROOT), installs the schema files of /schemas, imports every *.ldif
# of /ldifs once, then runs the server in the foreground (exec, so signals reach it). On a volume
# that already holds an instance it only starts the server. Any problem stops the container with
# one line naming it.
set -euo pipefail

ROCKDS_HOME="${ROCKDS_HOME:-/opt/rockds}"
data="${ROCKDS_DATA:-/data}"
ldif_dir="${LDAP_CUSTOM_LDIF_DIR:-/ldifs}"
schema_dir="${LDAP_CUSTOM_SCHEMA_DIR:-/schemas}"
bootstrapped="$data/.rockds-bootstrapped"

fail() {
  echo "rockds: error: $*" >&2
  exit 1
}

info() {
  echo "rockds: $*"
}

# VAR or VAR_FILE (a Docker secret), not both.
file_env() {
  local var="$1" default="${2:-}"
  local file_var="${var}_FILE"
  if [ -n "${!var:-}" ] && [ -n "${!file_var:-}" ]; then
    fail "both $var and $file_var are set; use one"
  fi
  if [ -n "${!file_var:-}" ]; then
    [ -r "${!file_var}" ] || fail "cannot read $file_var=${!file_var} as uid $(id -u)"
    printf -v "$var" '%s' "$(cat "${!file_var}")"
  elif [ -z "${!var:-}" ]; then
    printf -v "$var" '%s' "$default"
  fi
}

is_yes() {
  case "${1,,}" in yes|true|1|on) return 0 ;; *) return 1 ;; esac
}

LDAP_ROOT="${LDAP_ROOT:-dc=example,dc=org}"
LDAP_ADMIN_USERNAME="${LDAP_ADMIN_USERNAME:-admin}"
file_env LDAP_ADMIN_PASSWORD
LDAP_PORT_NUMBER="${LDAP_PORT_NUMBER:-1389}"
LDAP_LDAPS_PORT_NUMBER="${LDAP_LDAPS_PORT_NUMBER:-1636}"
LDAP_ENABLE_TLS="${LDAP_ENABLE_TLS:-no}"
LDAP_ALLOW_ANON_BINDING="${LDAP_ALLOW_ANON_BINDING:-yes}"
# Unset, start-ds derives the heap from the memory budget (an eighth of the container's memory by
# default): RocksDB's block cache takes half of it outside the heap, so a larger heap would not fit.
if [ -n "${JAVA_OPTS:-}" ]; then
  export ROCKDS_JAVA_OPTS="$JAVA_OPTS"
fi

if [ ! -d "$data" ] || [ ! -w "$data" ]; then
  fail "the data volume $data is not writable by uid $(id -u) gid $(id -g): chown -R $(id -u):0 it or mount it read-write"
fi

install_tls() {
  local cert="${LDAP_TLS_CERT_FILE:-}" key="${LDAP_TLS_KEY_FILE:-}" ca="${LDAP_TLS_CA_FILE:-}"
  if [ -z "$cert" ] || [ -z "$key" ]; then
    fail "LDAP_ENABLE_TLS=yes needs LDAP_TLS_CERT_FILE and LDAP_TLS_KEY_FILE"
  fi
  [ -r "$cert" ] || fail "cannot read LDAP_TLS_CERT_FILE=$cert as uid $(id -u)"
  [ -r "$key" ] || fail "cannot read LDAP_TLS_KEY_FILE=$key as uid $(id -u)"
  [ -z "$ca" ] || [ -r "$ca" ] || fail "cannot read LDAP_TLS_CA_FILE=$ca as uid $(id -u)"
  local store="$data/config/keystore.p12" pin
  pin="$(head -c 24 /dev/urandom | base64 | tr -d '/+=')"
  mkdir -p "$data/config"
  local chain=()
  [ -z "$ca" ] || chain=(-certfile "$ca")
  if ! openssl pkcs12 -export -in "$cert" -inkey "$key" "${chain[@]}" -name server-cert \
      -passout "pass:$pin" -out "$store.tmp" 2>/dev/null; then
    rm -f "$store.tmp"
    fail "LDAP_TLS_CERT_FILE=$cert and LDAP_TLS_KEY_FILE=$key are not a matching PEM certificate and key"
  fi
  (umask 077 && printf '%s' "$pin" > "$store.pin")
  mv "$store.tmp" "$store"
}

first_start() {
  [ -n "$LDAP_ADMIN_PASSWORD" ] || fail "LDAP_ADMIN_PASSWORD (or LDAP_ADMIN_PASSWORD_FILE) is required on first start"
  local ldifs=()
  if [ -d "$ldif_dir" ]; then
    while IFS= read -r -d '' f; do ldifs+=("$f"); done < <(find "$ldif_dir" -maxdepth 1 -name '*.ldif' -print0 | sort -z)
  fi
  local password_file
  password_file="$(mktemp)"
  printf '%s' "$LDAP_ADMIN_PASSWORD" > "$password_file"
  local setup=("$ROCKDS_HOME/bin/setup" --instance "$data" --baseDN "$LDAP_ROOT"
    --rootUserDN "cn=$LDAP_ADMIN_USERNAME,$LDAP_ROOT" --rootUserPasswordFile "$password_file"
    --listenAddress 0.0.0.0 --ldapPort "$LDAP_PORT_NUMBER" --httpPort "${LDAP_METRICS_PORT_NUMBER:-9090}" --quiet)
  if is_yes "$LDAP_ENABLE_TLS"; then
    setup+=(--ldapsPort "$LDAP_LDAPS_PORT_NUMBER")
  else
    setup+=(--ldapsPort 0)
  fi
  if [ ${#ldifs[@]} -gt 0 ]; then
    setup+=(--sampleData 0 --noEntries)
  else
    setup+=(--sampleData 0)
  fi
  is_yes "$LDAP_ALLOW_ANON_BINDING" && setup+=(--allowAnonymousRead)
  [ -z "${LDAP_PASSWORD_HASH:-}" ] || setup+=(--passwordStorageScheme "$LDAP_PASSWORD_HASH")
  if ! "${setup[@]}"; then
    rm -f "$password_file"
    fail "setup failed (see above)"
  fi
  rm -f "$password_file"
  if [ -d "$schema_dir" ]; then
    find "$schema_dir" -maxdepth 1 -name '*.ldif' -exec cp {} "$data/config/schema/" \;
  fi
  for f in "${ldifs[@]}"; do
    local rejects
    rejects="$data/logs/rejects-$(basename "$f")"
    info "importing $f"
    if ! "$ROCKDS_HOME/bin/import-ldif" --instance "$data" --ldifFile "$f" --rejectFile "$rejects" --quiet \
        || [ -s "$rejects" ]; then
      fail "bad LDIF in $f: rejected records are in $rejects"
    fi
  done
  touch "$bootstrapped"
}

if [ ! -f "$data/config/config.ldif" ]; then
  info "empty volume $data: creating the instance for $LDAP_ROOT"
  first_start
else
  info "instance found in $data: starting it"
  touch "$bootstrapped"
fi
if is_yes "$LDAP_ENABLE_TLS"; then
  install_tls
fi
exec "$ROCKDS_HOME/bin/start-ds" --instance "$data" --nodetach

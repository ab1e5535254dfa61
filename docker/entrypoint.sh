#!/usr/bin/env bash
# RockDS container entry point, with the environment variables of the bitnami/openldap image.
#
# On an empty data volume: creates the instance (base DN LDAP_ROOT, root user
# cn=$LDAP_ADMIN_USERNAME,$LDAP_ROOT), installs the schema files of /schemas, imports every *.ldif
# of /ldifs in one import (or, without any, the bitnami tree of LDAP_USERS), then runs the server
# in the foreground (exec, so signals reach it). On a volume that already holds an instance it only
# starts the server: restarts and upgrades to a newer image keep the data. Any problem, an
# LDAP_* variable this image does not understand included, stops the container with one line.
set -euo pipefail

ROCKDS_HOME="${ROCKDS_HOME:-/opt/rockds}"
data="${ROCKDS_DATA:-/data}"
# Group-writable files: any uid of group 0 (OpenShift's arbitrary uids) can run the same volume.
umask 0002

fail() {
  echo "rockds: error: $*" >&2
  exit 1
}

info() {
  echo "rockds: $*"
}

# The bitnami/openldap variables this image implements; each may also come as <NAME>_FILE.
supported="LDAP_ROOT LDAP_ADMIN_USERNAME LDAP_ADMIN_PASSWORD LDAP_PORT_NUMBER LDAP_LDAPS_PORT_NUMBER
  LDAP_METRICS_PORT_NUMBER LDAP_ENABLE_TLS LDAP_TLS_CERT_FILE LDAP_TLS_KEY_FILE LDAP_TLS_CA_FILE
  LDAP_PASSWORD_HASH LDAP_ALLOW_ANON_BINDING LDAP_USERS LDAP_PASSWORDS LDAP_USER_DC LDAP_GROUP
  LDAP_SKIP_DEFAULT_TREE LDAP_CUSTOM_LDIF_DIR LDAP_CUSTOM_SCHEMA_DIR LDAP_CUSTOM_SCHEMA_FILE LDAP_EXTRA_SCHEMAS"

# Refuses what would otherwise be silently ignored: a copied compose file must not half work.
check_variables() {
  local name base
  while IFS= read -r name; do
    base="${name%_FILE}"
    case " ${supported//$'\n'/ } " in
      *" $name "*|*" $base "*) ;;
      *) fail "$name is not supported by this image and would be ignored: remove it (supported: $(tr -s " \n" " " <<<"$supported"))" ;;
    esac
  done < <(compgen -e | grep '^LDAP_' || true)
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

check_variables
file_env LDAP_ROOT "dc=example,dc=org"
file_env LDAP_ADMIN_USERNAME admin
file_env LDAP_ADMIN_PASSWORD
file_env LDAP_PORT_NUMBER 1389
file_env LDAP_LDAPS_PORT_NUMBER 1636
file_env LDAP_ENABLE_TLS no
file_env LDAP_ALLOW_ANON_BINDING yes
file_env LDAP_USERS
file_env LDAP_PASSWORDS
file_env LDAP_USER_DC users
file_env LDAP_GROUP readers
file_env LDAP_SKIP_DEFAULT_TREE no
file_env LDAP_EXTRA_SCHEMAS "cosine,inetorgperson,nis"
ldif_dir="${LDAP_CUSTOM_LDIF_DIR:-/ldifs}"
schema_dir="${LDAP_CUSTOM_SCHEMA_DIR:-/schemas}"
bootstrapped="$data/.rockds-bootstrapped"
seeding="$data/.rockds-seeding"
# Unset, start-ds derives the heap from the memory budget (half the container's memory by default;
# the heap is a 32nd of it, at least 512 MiB): RocksDB's block cache takes half of the budget
# outside the heap, so a larger heap would not fit.
if [ -n "${JAVA_OPTS:-}" ]; then
  export ROCKDS_JAVA_OPTS="$JAVA_OPTS"
fi

for schema in ${LDAP_EXTRA_SCHEMAS//,/ }; do
  case "$schema" in
    cosine|inetorgperson|nis|dyngroup) ;; # built into RockDS
    *) fail "LDAP_EXTRA_SCHEMAS: $schema is not built in (built in: cosine, inetorgperson, nis, dyngroup);" \
      "mount its LDIF on $schema_dir instead" ;;
  esac
done

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
  if [ -n "$LDAP_USERS" ] && ! is_yes "$LDAP_SKIP_DEFAULT_TREE"; then
    [ ${#ldifs[@]} -eq 0 ] || fail "LDAP_USERS would be ignored: $ldif_dir holds LDIF files, which replace the" \
      "default tree (as in bitnami/openldap); drop one of the two"
    local tree="$data/.rockds-default-tree.ldif"
    "$ROCKDS_HOME/docker/bitnami-tree.sh" "$LDAP_ROOT" "$LDAP_USER_DC" "$LDAP_GROUP" "$LDAP_USERS" "$LDAP_PASSWORDS" \
      > "$tree" || fail "cannot create the tree of LDAP_USERS (see above)"
    ldifs=("$tree")
  elif [ -n "$LDAP_PASSWORDS" ]; then
    fail "LDAP_PASSWORDS would be ignored: it goes with LDAP_USERS"
  fi
  # A replicated server is created empty (docs/replication.md): an import on each member would happen
  # outside the replication log and leave the members different.
  if [ -n "${ROCKDS_REPLICATION_PORT:-}" ] && [ ${#ldifs[@]} -gt 0 ]; then
    fail "a replicated server is created empty: ${ldifs[*]} would be imported on this server alone; add" \
      "the data over LDAP once the group runs, or initialise the group from one server (docs/replication.md)"
  fi
  # Marks a first start in progress: if it fails, a restart must not serve the half-made instance.
  touch "$seeding"
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
  setup+=(--sampleData 0)
  [ ${#ldifs[@]} -eq 0 ] || setup+=(--noEntries)
  is_yes "$LDAP_ALLOW_ANON_BINDING" && setup+=(--allowAnonymousRead)
  [ -z "${LDAP_PASSWORD_HASH:-}" ] || setup+=(--passwordStorageScheme "$LDAP_PASSWORD_HASH")
  if [ -n "${ROCKDS_REPLICATION_PORT:-}" ]; then
    # A member of a replication group (docs/replication.md): created empty, data comes through the log.
    setup+=(--serverId "${ROCKDS_SERVER_ID:-$(hostname)}" --replicationPort "$ROCKDS_REPLICATION_PORT"
      --replicationHost "${ROCKDS_REPLICATION_HOST:-$(hostname)}")
    local server servers
    IFS=',' read -r -a servers <<< "${ROCKDS_BOOTSTRAP_REPLICATION_SERVERS:-}"
    for server in "${servers[@]}"; do
      setup+=(--bootstrapReplicationServer "$server")
    done
  fi
  if ! "${setup[@]}"; then
    rm -f "$password_file"
    fail "setup failed (see above)"
  fi
  rm -f "$password_file"
  if [ -d "$schema_dir" ]; then
    find "$schema_dir" -maxdepth 1 -name '*.ldif' -exec cp {} "$data/config/schema/" \;
  fi
  if [ -n "${LDAP_CUSTOM_SCHEMA_FILE:-}" ]; then
    [ -r "$LDAP_CUSTOM_SCHEMA_FILE" ] || fail "cannot read LDAP_CUSTOM_SCHEMA_FILE=$LDAP_CUSTOM_SCHEMA_FILE"
    cp "$LDAP_CUSTOM_SCHEMA_FILE" "$data/config/schema/"
  fi
  if [ ${#ldifs[@]} -gt 0 ]; then
    # One import of every file: a second import would replace what the first one loaded.
    local rejects="$data/logs/rejects.ldif" import=("$ROCKDS_HOME/bin/import-ldif" --instance "$data" --quiet)
    for f in "${ldifs[@]}"; do
      info "importing $f"
      import+=(--ldifFile "$f")
    done
    if ! "${import[@]}" --rejectFile "$rejects" || [ -s "$rejects" ]; then
      fail "bad LDIF in ${ldifs[*]}: rejected records are in $rejects"
    fi
  fi
  rm -f "$data/.rockds-default-tree.ldif"
  mv "$seeding" "$bootstrapped"
}

if [ -f "$seeding" ]; then
  fail "the first start on $data failed while seeding (see its log above or $data/logs/rejects.ldif): the volume" \
    "holds a partial instance; empty it and start again"
elif [ ! -f "$data/config/config.ldif" ]; then
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

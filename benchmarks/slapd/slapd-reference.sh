#!/usr/bin/env bash
# OpenLDAP slapd with back-mdb as the reference server of the benchmarks, on loopback, in a
# directory of its own, with the same indexes as RockDS's defaults that the workloads use.
#
#   slapd-reference.sh load  DIR LDIF [--nosync]   create DIR/slapd.conf and slapadd -q the LDIF
#   slapd-reference.sh start DIR PORT              start slapd on 127.0.0.1:PORT (returns when it listens)
#   slapd-reference.sh stop  DIR                   stop it and wait
#   slapd-reference.sh pid   DIR                   print its pid
#
# Root DN: "cn=Directory Manager,dc=example,dc=com" / password (slapd wants it under the suffix).
# Durable by default (back-mdb syncs every transaction); --nosync sets dbnosync for the no-sync figures.
# slapd runs at its fastest, "loglevel none": its default (stats, one formatted line per operation)
# more than halves its search rate. SLAPD_LOGLEVEL=stats at load time measures that configuration.
set -euo pipefail

SLAPD="${SLAPD:-/usr/sbin/slapd}"
SLAPADD="${SLAPADD:-/usr/sbin/slapadd}"
SCHEMA="${SLAPD_SCHEMA_DIR:-/etc/ldap/schema}"
MODULES="${SLAPD_MODULE_DIR:-/usr/lib/ldap}"

die() { echo "slapd-reference: $*" >&2; exit 1; }

write_conf() {
  local dir="$1" nosync="$2"
  mkdir -p "$dir/db"
  cat > "$dir/slapd.conf" <<CONF
include $SCHEMA/core.schema
include $SCHEMA/cosine.schema
include $SCHEMA/inetorgperson.schema
include $SCHEMA/nis.schema
modulepath $MODULES
moduleload back_mdb
moduleload pw-sha2
loglevel ${SLAPD_LOGLEVEL:-none}
pidfile $dir/slapd.pid
argsfile $dir/slapd.args
sizelimit unlimited
database mdb
maxsize 34359738368
suffix "dc=example,dc=com"
rootdn "cn=Directory Manager,dc=example,dc=com"
rootpw password
directory $dir/db
$( [ "$nosync" = yes ] && echo "dbnosync" )
index objectClass eq
index uid,member,uniqueMember,entryUUID eq
index cn,sn,mail,givenName,telephoneNumber eq,sub
access to attrs=userPassword by anonymous auth by * none
access to * by * read
CONF
}

case "${1:-}" in
  load)
    [ $# -ge 3 ] || die "usage: load DIR LDIF [--nosync]"
    dir="$2"; ldif="$3"; nosync=no
    [ "${4:-}" = "--nosync" ] && nosync=yes
    [ -x "$SLAPADD" ] || die "$SLAPADD not found: apt-get install slapd"
    rm -rf "$dir"; write_conf "$dir" "$nosync"
    start=$(date +%s.%N)
    "$SLAPADD" -q -f "$dir/slapd.conf" -l "$ldif"
    end=$(date +%s.%N)
    echo "slapadd_seconds=$(echo "$end - $start" | bc)"
    echo "disk_bytes=$(du -sB1 "$dir/db" | cut -f1)"
    ;;
  start)
    [ $# -eq 3 ] || die "usage: start DIR PORT"
    dir="$2"; port="$3"
    "$SLAPD" -f "$dir/slapd.conf" -h "ldap://127.0.0.1:$port/" -n slapd-reference
    for _ in $(seq 1 100); do
      if ldapsearch -x -H "ldap://127.0.0.1:$port" -s base -b "" 1.1 >/dev/null 2>&1; then exit 0; fi
      sleep 0.1
    done
    die "slapd did not listen on 127.0.0.1:$port"
    ;;
  stop)
    [ $# -eq 2 ] || die "usage: stop DIR"
    pid="$(cat "$2/slapd.pid" 2>/dev/null || true)"
    [ -n "$pid" ] || exit 0
    kill -TERM "$pid" 2>/dev/null || exit 0
    for _ in $(seq 1 300); do kill -0 "$pid" 2>/dev/null || exit 0; sleep 0.1; done
    die "slapd (pid $pid) did not stop"
    ;;
  pid)
    cat "$2/slapd.pid"
    ;;
  *)
    sed -n '2,12p' "$0"; exit 2 ;;
esac

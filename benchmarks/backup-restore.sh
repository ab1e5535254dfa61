#!/usr/bin/env bash
# Measures backup and restore on a real instance: imports an LDIF, starts the server, takes an
# online full backup, an incremental one, changes 100 entries, another incremental one, then restores the full
# backup into a freshly set-up instance and starts it. Prints times and sizes (results in
# benchmarks/BACKUP.md).
#   benchmarks/backup-restore.sh --ldif FILE [--work DIR] [--port 41389] [--rockds DIR]
# --rockds: an unpacked distribution or the source tree (default: this tree, after ./mvnw package).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
rockds="$(cd "$here/.." && pwd)"
work="/tmp/rockds-backup-bench"
port=41389
ldif=""
while [ $# -gt 0 ]; do
  case "$1" in
    --ldif) ldif="$2"; shift ;;
    --work) work="$2"; shift ;;
    --port) port="$2"; shift ;;
    --rockds) rockds="$2"; shift ;;
    --help|-H) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "backup-restore: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
[ -r "$ldif" ] || { echo "backup-restore: --ldif FILE is required" >&2; exit 2; }
bin="$rockds/bin"
source_instance="$work/source" target_instance="$work/target" backups="$work/backups"
rm -rf "$work"
mkdir -p "$work"

now() { date +%s.%N; }
elapsed() { echo "$2 - $1" | bc; }
size() { du -sb "$1" | cut -f1; }

"$bin/setup" --instance "$source_instance" --ldapPort "$port" --ldapsPort 0 --rootUserPassword password \
  --noEntries --quiet
"$bin/import-ldif" --instance "$source_instance" --ldifFile "$ldif" --quiet
"$bin/start-ds" --instance "$source_instance" --timeout 600 >/dev/null
trap '"$bin/stop-ds" --instance "$source_instance" >/dev/null 2>&1 || true' EXIT
echo "database: $(size "$source_instance/db") bytes"

t0=$(now)
"$bin/backup" -h 127.0.0.1 -p "$port" -w password --backupDirectory "$backups" --quiet
t1=$(now)
echo "online full backup: $(elapsed "$t0" "$t1") s, $(size "$backups") bytes"

t0=$(now)
"$bin/backup" -h 127.0.0.1 -p "$port" -w password --backupDirectory "$backups" --incremental --quiet
t1=$(now)
echo "first online incremental backup (starts the shared chain, copies every file): $(elapsed "$t0" "$t1") s"
for i in $(seq 1 100); do
  printf 'dn: uid=user.%d,ou=People,dc=example,dc=com\nchangetype: modify\nreplace: description\ndescription: changed %d\n\n' "$i" "$i"
done | ldapmodify -x -H "ldap://127.0.0.1:$port" -D "cn=Directory Manager" -w password >/dev/null
before=$(size "$backups")
t0=$(now)
"$bin/backup" -h 127.0.0.1 -p "$port" -w password --backupDirectory "$backups" --incremental --quiet
t1=$(now)
echo "next online incremental backup, after 100 modifications: $(elapsed "$t0" "$t1") s, +$(( $(size "$backups") - before )) bytes"

"$bin/setup" --instance "$target_instance" --ldapPort "$((port + 1))" --ldapsPort 0 --rootUserPassword other --quiet
full="$("$bin/restore" --backupDirectory "$backups" --listBackups | awk '/ full /{print $1; exit}')"
t0=$(now)
"$bin/restore" --instance "$target_instance" --backupDirectory "$backups" --backupID "$full" --quiet
t1=$(now)
echo "restore of the full backup into a new instance: $(elapsed "$t0" "$t1") s"
t0=$(now)
"$bin/restore" --backupDirectory "$backups" --dry-run --quiet
t1=$(now)
echo "verify (--dry-run) of the latest backup: $(elapsed "$t0" "$t1") s"
"$bin/stop-ds" --instance "$source_instance" >/dev/null
# The restored configuration is the source's: same port.
"$bin/start-ds" --instance "$target_instance" --timeout 600 >/dev/null
count="$(ldapsearch -x -LLL -H "ldap://127.0.0.1:$port" -D "cn=Directory Manager" -w password \
  -b dc=example,dc=com '(objectClass=*)' 1.1 | grep -c '^dn:')"
"$bin/stop-ds" --instance "$target_instance" >/dev/null
echo "entries in the restored instance: $count"

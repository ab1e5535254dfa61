#!/usr/bin/env bash
# Loads the seed's 10M-user data set into a new RockDS instance without writing a 27 GB LDIF to
# disk: makeldif streams the OID template (benchmarks/templates/oid-10m.template, suffix
# dc=example,dc=com so that /work/shared/perf/run-workloads.sh and benchmarks/compare.sh drive it
# as they drive gen-ldif.py data) into import-ldif through a FIFO; the groups (G groups of M
# members, user N in group ((N-1) / M) + 1 as gen-ldif.py makes them) come from a second file.
#
#   benchmarks/scale/load-10m.sh INSTANCE [USERS] [GROUPS] [MEMBERS_PER_GROUP]
#
# The users' password is the template's plain "welcome123" (run the auth workload with
# USER_PASSWORD=welcome123 AUTH_PLAIN_RANGE=1-USERS). Prints the import's wall time, the database's
# size and the importer's peak RSS; the instance listens on ROCKDS_PORT (default 31389).
set -euo pipefail
cd "$(dirname "$0")/../.."
inst=${1:?usage: load-10m.sh INSTANCE [USERS] [GROUPS] [MEMBERS_PER_GROUP]}
users=${2:-10000000}
groups=${3:-10}
members=${4:-1000000}
port=${ROCKDS_PORT:-31389}
suffix="dc=example,dc=com"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkfifo "$work/users.ldif"

python3 - "$suffix" "$users" "$groups" "$members" > "$work/groups.ldif" <<'EOF'
import sys
suffix, users, groups, members = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
out = sys.stdout
out.write(f"dn: ou=Groups,{suffix}\nobjectClass: top\nobjectClass: organizationalUnit\nou: Groups\n\n")
for g in range(1, groups + 1):
    first = (g - 1) * members + 1
    last = min(g * members, users)
    if first > last:
        break
    out.write(f"dn: cn=group.{g},ou=Groups,{suffix}\nobjectClass: top\nobjectClass: groupOfNames\ncn: group.{g}\n")
    out.writelines(f"member: uid=user.{n},ou=People,{suffix}\n" for n in range(first, last + 1))
    out.write("\n")
EOF

rm -rf "$inst"
bin/setup --instance "$inst" --noEntries --ldapPort "$port" --ldapsPort 0 \
  --rootUserPassword password --quiet
bin/makeldif -Q -s 1 -c "suffix=$suffix" -c "numusers=$users" \
  -o "$work/users.ldif" benchmarks/templates/oid-10m.template &
generator=$!
start=$(date +%s)
/usr/bin/time -f "import_peak_rss_kb=%M" -o "$work/time.txt" \
  bin/import-ldif --instance "$inst" -l "$work/users.ldif" -l "$work/groups.ldif"
wait "$generator"
end=$(date +%s)
{
  echo "users=$users groups=$groups members_per_group=$members"
  echo "import_wall_s=$((end - start)) rate_per_s=$(( (users + groups) / (end - start > 0 ? end - start : 1) ))"
  cat "$work/time.txt"
  echo "db_du=$(du -sh "$inst/db" | cut -f1)"
} | tee "$inst/import.txt"

#!/usr/bin/env bash
# RockDS side by side with OpenLDAP slapd (back-mdb) on the seed's workloads: same data, same
# machine, same run, servers one after the other, no CPU pinning for either.
#
#   benchmarks/run.sh [--quick | --full] [--users N] [--threads "8 32"] [--workloads "a b"] [--nosync] [--out FILE]
#
# --quick (default): 10,000 users, 8 client threads, 2 s warm-up, 4 s per measurement: about 3 minutes.
# --full: 100,000 users, 10 s warm-up, 30 s per measurement.
# --nosync: neither server syncs acknowledged writes (slapd dbnosync, RockDS db-txn-no-sync), for the
#   no-sync figures reported apart from the durable ones.
# Each server first gets the same throwaway pass (every workload for the warm-up time at the largest
# thread count) so that no measured line runs on a cold JIT or cold caches; each line then has its
# own warm-up before it is measured.
# Writes a Markdown table (workload, threads, ops/s, mean and p99 latency, server CPU per
# operation for each server, ratio) plus makeldif rate, import time and disk footprint of both.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=quick
users=""
threads=""
workloads="search-base search-uid-1attr search-uid-5attrs search-uid-all auth group-member common-sn substring-cn and-2 modify add-delete"
out=""
nosync=false
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) mode=quick ;;
    --full) mode=full ;;
    --users) users="$2"; shift ;;
    --threads) threads="$2"; shift ;;
    --workloads) workloads="$2"; shift ;;
    --out) out="$2"; shift ;;
    --nosync) nosync=true ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
if [ "$mode" = full ]; then
  users="${users:-100000}"; warmup=10; duration=30; threads="${threads:-8 32}"
else
  users="${users:-10000}"; warmup=2; duration=4; threads="${threads:-8}"
fi

work="benchmarks/work/$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$work"
out="${out:-$work/results.md}"
slapd_port=3389
rockds_port=3390
jar=benchmarks/target/benchmarks.jar

echo "== build"
./mvnw -B -q -DskipTests package
load() { java -Xmx512m -cp "$jar" io.rockds.benchmarks.load.LoadRun "$@"; }

echo "== data: $users users (oid-bench template) + 10 groups"
t0=$(date +%s.%N)
bin/makeldif -t benchmarks/templates/oid-bench.template -c "numusers=$users" -s 1 -o "$work/data.ldif" --quiet
t1=$(date +%s.%N)
makeldif_rate=$(echo "($users + 13) / ($t1 - $t0)" | bc)
java -cp "$jar" io.rockds.benchmarks.load.HashLdifPasswords SSHA "$work/data.ldif" "$work/data-ssha.ldif"

results="$work/raw.tsv"
: > "$results"
max_threads=$(echo "$threads" | tr ' ' '\n' | sort -n | tail -1)
warm_up() { # port bindDn: the throwaway pass, the same for both servers
  local port="$1" bind="$2"
  for w in $workloads; do
    load --port "$port" --bindDn "$bind" --password password --users "$users" --workload "$w" \
      --threads "$max_threads" --warmup 0 --duration "$warmup" > /dev/null
  done
}
run_workloads() { # server port bindDn pid
  local server="$1" port="$2" bind="$3" pid="$4"
  echo "   $server warm-up pass"
  warm_up "$port" "$bind"
  for w in $workloads; do
    for t in $threads; do
      echo "   $server $w x$t"
      load --port "$port" --bindDn "$bind" --password password --users "$users" --workload "$w" --threads "$t" \
        --warmup "$warmup" --duration "$duration" --serverPid "$pid" | sed "s/^/$server\t/" >> "$results"
    done
  done
}

echo "== slapd back-mdb"
slapd_dir="$work/slapd"
slapd_sync=()
if $nosync; then slapd_sync=(--nosync); fi
loaded=$(benchmarks/slapd/slapd-reference.sh load "$slapd_dir" "$work/data-ssha.ldif" "${slapd_sync[@]}")
slapd_import=$(echo "$loaded" | sed -n 's/^slapadd_seconds=//p')
slapd_disk=$(echo "$loaded" | sed -n 's/^disk_bytes=//p')
benchmarks/slapd/slapd-reference.sh start "$slapd_dir" "$slapd_port"
slapd_pid=$(benchmarks/slapd/slapd-reference.sh pid "$slapd_dir")
run_workloads slapd "$slapd_port" "cn=Directory Manager,dc=example,dc=com" "$slapd_pid"
slapd_rss=$(awk '/VmHWM/ {print $2}' "/proc/$slapd_pid/status")
benchmarks/slapd/slapd-reference.sh stop "$slapd_dir"

echo "== RockDS"
inst="$work/rockds"
bin/setup --instance "$inst" --ldapPort "$rockds_port" --ldapsPort 0 --sampleData 0 --noEntries \
  --rootUserPassword password --quiet
t0=$(date +%s.%N)
bin/import-ldif --instance "$inst" --ldifFile "$work/data-ssha.ldif" --quiet
t1=$(date +%s.%N)
rockds_import=$(echo "$t1 - $t0" | bc)
rockds_disk=$(du -sB1 "$inst/db" | cut -f1)
if $nosync; then
  bin/dsconfig --offline --instance "$inst" set-backend-prop --backend-name userRoot --set db-txn-no-sync:true >/dev/null
fi
bin/start-ds --instance "$inst" >/dev/null
rockds_pid=$(cat "$inst/logs/server.pid")
run_workloads rockds "$rockds_port" "cn=Directory Manager" "$rockds_pid"
rockds_rss=$(awk '/VmHWM/ {print $2}' "/proc/$rockds_pid/status")
bin/stop-ds --instance "$inst" >/dev/null

{
  echo "# RockDS vs OpenLDAP slapd (back-mdb) — $(date -u +%Y-%m-%dT%H:%MZ), mode $mode"
  echo
  echo "Machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB RAM; $(java -version 2>&1 | head -1);"
  echo "slapd $(/usr/sbin/slapd -VV 2>&1 | head -1 | sed 's/.*slapd //'). Data: $users users + 10 groups (oid-bench.template),"
  echo "the same LDIF for both with {SSHA} passwords (benchmarks/authrate.sh measures {SSHA512} and {PBKDF2-SHA256})."
  echo "Writes: $($nosync && echo "NOT synced (slapd dbnosync, RockDS db-txn-no-sync)" || echo "synced on every acknowledged write by both")."
  echo "Warm-up: one throwaway pass of every workload (${warmup}s at $max_threads threads), then ${warmup}s before each line;"
  echo "measured ${duration}s per line. Command: benchmarks/run.sh --$mode --users $users --threads \"$threads\"$($nosync && echo " --nosync")"
  echo
  echo "| workload | threads | RockDS ops/s | slapd ops/s | ratio | RockDS mean/p99 µs | slapd mean/p99 µs | RockDS CPU µs/op | slapd CPU µs/op |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
  awk -F'\t' '
    { key = $2 "\t" $3; row[$1, key] = $0; if (!(key in seen)) { seen[key] = 1; order[++n] = key } }
    END {
      for (i = 1; i <= n; i++) {
        split(row["rockds", order[i]], r, "\t"); split(row["slapd", order[i]], s, "\t");
        ratio = (s[5] > 0) ? sprintf("%.2f", r[5] / s[5]) : "-";
        printf "| %s | %s | %s | %s | %s | %s / %s | %s / %s | %s | %s |\n", r[2], r[3], r[5], s[5], ratio, r[6], r[7], s[6], s[7], r[8], s[8]
      }
    }' "$results"
  echo
  echo "| | RockDS | slapd |"
  echo "| --- | --- | --- |"
  echo "| import ($users users) | $rockds_import s (import-ldif) | $slapd_import s (slapadd -q) |"
  echo "| disk footprint | $rockds_disk bytes | $slapd_disk bytes |"
  echo "| peak RSS | ${rockds_rss} kB | ${slapd_rss} kB |"
  echo "| makeldif rate | $makeldif_rate entries/s | |"
} > "$out"
cat "$out"

#!/usr/bin/env bash
# authrate: search a random user by uid (bound as the root DN, as an application's service
# account would), then bind as the DN found, on its own connection (LoadRun's "auth" workload).
# RockDS with {SSHA512} and with {PBKDF2-SHA256} hashes against OpenLDAP slapd (back-mdb) with
# {SSHA}, in one run, on the same data, servers one after the other.
#
#   benchmarks/authrate.sh [--users N] [--threads "8 32"] [--warmup S] [--duration S] [--out FILE]
#
# Defaults: 100,000 users (oid-bench.template), 8 and 32 client threads, 10 s warm-up, 20 s measured;
# each server first gets one discarded warm-up run.
# Every user has the template's password; each scheme hashes it once (HashLdifPasswords
# --oneHashPerValue) and every entry holds that hash: a bind costs the server the same whatever the
# salt, and 100,000 PBKDF2 hashes would cost about 25 CPU-minutes. PBKDF2 uses RockDS's default
# 10,000 iterations. Writes a Markdown table (ops/s, ratio to slapd, mean/p99 latency, server CPU
# per operation) to FILE (default benchmarks/work/<timestamp>/authrate.md).
set -euo pipefail
cd "$(dirname "$0")/.."

users=100000
threads="8 32"
warmup=10
duration=20
out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --users) users="$2"; shift ;;
    --threads) threads="$2"; shift ;;
    --warmup) warmup="$2"; shift ;;
    --duration) duration="$2"; shift ;;
    --out) out="$2"; shift ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "authrate.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done

work="benchmarks/work/authrate-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$work"
out="${out:-$work/authrate.md}"
slapd_port=4389
rockds_port=4390
jar=benchmarks/target/benchmarks.jar
results="$work/raw.tsv"
: > "$results"

slapd_dir="$work/slapd"
inst=""
cleanup() { # never leave a server running
  benchmarks/slapd/slapd-reference.sh stop "$slapd_dir" >/dev/null 2>&1 || true
  if [ -n "$inst" ] && [ -f "$inst/logs/server.pid" ]; then bin/stop-ds --instance "$inst" >/dev/null 2>&1 || true; fi
}
trap cleanup EXIT

echo "== build"
./mvnw -B -o -q -DskipTests package

echo "== data: $users users (oid-bench template), one hash per scheme"
bin/makeldif -t benchmarks/templates/oid-bench.template -c "numusers=$users" -s 1 -o "$work/data.ldif" --quiet
for scheme in SSHA SSHA512 PBKDF2-SHA256; do
  java -cp "$jar" io.rockds.benchmarks.load.HashLdifPasswords "$scheme" "$work/data.ldif" "$work/data-$scheme.ldif" \
    --oneHashPerValue
done
rm "$work/data.ldif"

measure() { # label port bindDn pid
  # One discarded run first, at the highest thread count: a freshly started server (the JVM's JIT,
  # caches) would otherwise charge its warm-up to the first measured line only.
  echo "   $1 server warm-up (discarded)"
  java -Xmx512m -cp "$jar" io.rockds.benchmarks.load.LoadRun --port "$2" --bindDn "$3" --password password \
    --users "$users" --workload auth --threads "${threads##* }" --warmup "$warmup" --duration 1 >/dev/null
  for t in $threads; do
    echo "   $1 x$t"
    java -Xmx512m -cp "$jar" io.rockds.benchmarks.load.LoadRun --port "$2" --bindDn "$3" --password password \
      --users "$users" --workload auth --threads "$t" --warmup "$warmup" --duration "$duration" --serverPid "$4" \
      | sed "s/^/$1\t/" >> "$results"
  done
}

echo "== slapd back-mdb, {SSHA}"
benchmarks/slapd/slapd-reference.sh load "$slapd_dir" "$work/data-SSHA.ldif" >/dev/null
benchmarks/slapd/slapd-reference.sh start "$slapd_dir" "$slapd_port"
measure "slapd {SSHA}" "$slapd_port" "cn=Directory Manager,dc=example,dc=com" \
  "$(benchmarks/slapd/slapd-reference.sh pid "$slapd_dir")"
benchmarks/slapd/slapd-reference.sh stop "$slapd_dir"
rm -rf "$slapd_dir"

for scheme in SSHA512 PBKDF2-SHA256; do
  echo "== RockDS, {$scheme}"
  inst="$work/rockds-$scheme"
  bin/setup --instance "$inst" --ldapPort "$rockds_port" --ldapsPort 0 --sampleData 0 --noEntries \
    --rootUserPassword password --passwordStorageScheme "$scheme" --quiet
  bin/import-ldif --instance "$inst" --ldifFile "$work/data-$scheme.ldif" --quiet
  pid=$(bin/start-ds --instance "$inst" | sed -n 's/^RockDS is running (pid \([0-9]*\)).*/\1/p')
  measure "RockDS {$scheme}" "$rockds_port" "cn=Directory Manager" "$pid"
  bin/stop-ds --instance "$inst" >/dev/null
  rm -rf "$inst"
  inst=""
done

{
  echo "# authrate — $(date -u +%Y-%m-%dT%H:%MZ)"
  echo
  echo "Machine: $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')), $(free -g | awk '/Mem:/ {print $2}') GiB RAM,"
  echo "load average at the end $(cut -d' ' -f1-3 /proc/loadavg); $(java -version 2>&1 | head -1);"
  echo "slapd $(/usr/sbin/slapd -VV 2>&1 | head -1 | sed 's/.*slapd //; s/ \$$//')."
  echo "Data: $users users (oid-bench.template). Per server one discarded run, then per line warm-up ${warmup}s,"
  echo "measured ${duration}s."
  echo "Command: benchmarks/authrate.sh --users $users --threads \"$threads\" --warmup $warmup --duration $duration"
  echo
  echo "| server, hash | threads | auth/s | ratio to slapd | mean / p99 µs | server CPU µs/auth | errors |"
  echo "| --- | --- | --- | --- | --- | --- | --- |"
  # raw.tsv: label workload threads ops ops/s mean_us p99_us cpu_us_per_op errors
  awk -F'\t' '
    $1 ~ /^slapd/ { slapd[$3] = $5 }
    { line[++n] = $0 }
    END {
      for (i = 1; i <= n; i++) {
        split(line[i], f, "\t");
        ratio = (slapd[f[3]] > 0) ? sprintf("%.2f", f[5] / slapd[f[3]]) : "-";
        printf "| %s | %s | %s | %s | %s / %s | %s | %s |\n", f[1], f[3], f[5], ratio, f[6], f[7], f[8], f[9]
      }
    }' "$results"
} > "$out"
cat "$out"

#!/usr/bin/env bash
# A RockDS replication group of 1 or 3 servers on loopback, from this build, under the UnboundID
# SDK's load tools: durable modifies (ModRate) through the leader and through a follower, searches
# (SearchRate) on 1, 2 and 3 servers at once, and the catch-up of a server that was stopped while the
# others took writes. One Markdown table, with the server CPU per operation of every node.
#
#   benchmarks/cluster.sh [--nodes 1|3] [--users N] [--ldif FILE] [--workloads "..."]
#                         [--threads "T..."] [--interval S] [--intervals N] [--warmup N]
#                         [--catch-up-writes K] [--work DIR] [--reload] [--out FILE]
#
# Workloads (--workloads, run in this order; default: all the group size allows):
#   modrate-leader    ModRate through the leader: replace description (40 chars) of random users,
#                     as run-workloads.sh's modrate; each modify is committed by a majority and
#                     applied (synced) before it is answered
#   modrate-follower  the same through a follower, which forwards each write to the leader (3 nodes)
#   search-1 search-2 search-3
#                     SearchRate (uid=user.[1-N], no attributes, as run-workloads.sh's search-1attr)
#                     on 1, 2 or 3 servers at once: one client process per server, T threads each
#   catch-up          stops a follower, makes K modifies through the leader (ldapmodify, 4
#                     connections), starts the follower again and times until its applied index
#                     (cn=Replication,cn=monitor) reaches the leader's commit index (3 nodes)
# Defaults: --nodes 3, --users 10000 (gen-ldif.py data, generated under --work unless --ldif is
# given), --threads 8, 1 warm-up + 6 intervals of 5 s, --catch-up-writes 10000, --work
# /tmp/perf/cluster. Ports: LDAP 41389+n, replication 48989+n for server dsn (override the bases
# with CLUSTER_LDAP_PORT / CLUSTER_REPLICATION_PORT). ROCKDS_JAVA_OPTS goes to start-ds, JAVA_OPTS
# to the load tools; PERF_HARNESS (default /work/shared/perf) holds gen-ldif.py.
#
# --threads takes a list ("1 8 32"): each ModRate and SearchRate workload runs once per thread count,
# in that order, against the same servers (started once, so the later runs find them warmed up).
#
# Loading, as docs/replication.md's "Initialising a group from one server's data": ds1 is set up as
# a group of one, import-ldif loads it, it starts and takes one replicated write (so that its backend
# holds a log position) and a snapshot (dsrepl snapshot); ds2 and ds3 are set up with
# --joinReplicationGroup, started, and added with dsrepl add-server: the leader sends each its
# snapshot. A later run with the same LDIF and node count reuses the group (--reload loads again).
#
# The server CPU per operation comes from each node's utime+stime (/proc/PID/stat) over the measured
# window, from the end of the last client's warm-up to the end of the last client, divided by the
# operations all clients made meanwhile: µs of that node's CPU per operation of the group (the
# followers apply every write too). Clients and servers share the machine's cores: compare CPU per
# operation rather than rates, and only between runs of the same session. "writes/entry" is how many
# writes shared a Raft log entry over the window (group commit; ds1's ds-replication-records-applied
# over ds-replication-entries-applied in cn=Replication,cn=monitor; "-" on a build without them).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)

nodes=3
users=10000
ldif=""
workloads=""
thread_counts=8
interval=5
intervals=6
warmup=1
catch_up_writes=10000
work=/tmp/perf/cluster
reload=false
out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --nodes) nodes="$2"; shift ;;
    --users) users="$2"; shift ;;
    --ldif) ldif="$2"; shift ;;
    --workloads) workloads="$2"; shift ;;
    --threads) thread_counts="$2"; shift ;;
    --interval) interval="$2"; shift ;;
    --intervals) intervals="$2"; shift ;;
    --warmup) warmup="$2"; shift ;;
    --catch-up-writes) catch_up_writes="$2"; shift ;;
    --work) work="$2"; shift ;;
    --reload) reload=true ;;
    --out) out="$2"; shift ;;
    -h|--help) sed -n '2,38p' "$0"; exit 0 ;;
    *) echo "cluster.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
  esac
  shift
done
case "$nodes" in
  1) workloads=${workloads:-"modrate-leader search-1"} ;;
  3) workloads=${workloads:-"modrate-leader modrate-follower search-1 search-2 search-3 catch-up"} ;;
  *) echo "cluster.sh: --nodes is 1 or 3" >&2; exit 2 ;;
esac
[ -f "$ROOT/tools/target/rockds-tools.jar" ] || { echo "cluster.sh: build first: ./mvnw -B -q -DskipTests package" >&2; exit 1; }
sdk_jar=$(find "$ROOT/tools/target/lib" -name 'unboundid-ldapsdk-*.jar' | sort -V | tail -n 1)
[ -n "$sdk_jar" ] || { echo "cluster.sh: no unboundid-ldapsdk jar in tools/target/lib" >&2; exit 1; }
command -v ldapmodify >/dev/null || { echo "cluster.sh: needs ldap-utils (ldapsearch, ldapmodify)" >&2; exit 1; }
harness=${PERF_HARNESS:-/work/shared/perf}
ldap_base=${CLUSTER_LDAP_PORT:-41389}
replication_base=${CLUSTER_REPLICATION_PORT:-48989}
base_dn="dc=example,dc=com"
root_dn="cn=Directory Manager"
password=password
JAVA_OPTS=${JAVA_OPTS:-"-Xms256m -Xmx1g"}
hz=$(getconf CLK_TCK)

mkdir -p "$work"
run_dir="$work/results/$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$run_dir"
log() { echo "[cluster $(date -u +%H:%M:%S)] $*" >&2; }

# ------------------------------------------------------------------ servers

instance() { echo "$work/ds$1"; }
ldap_port() { echo $((ldap_base + $1)); }
replication_address() { echo "127.0.0.1:$((replication_base + $1))"; }
node_pid() { cat "$(instance "$1")/logs/server.pid"; }
start_node() { "$ROOT/bin/start-ds" --instance "$(instance "$1")" --timeout 600 >/dev/null; }
stop_node() { "$ROOT/bin/stop-ds" --instance "$(instance "$1")" >/dev/null 2>&1 || true; }
stop_all() { for n in $(seq 1 "$nodes"); do stop_node "$n"; done; }
# utime + stime of a process, in clock ticks: its CPU so far
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

# The value of one attribute of cn=Replication,cn=monitor on server n (empty if it does not answer).
monitor() {
  ldapsearch -x -LLL -o ldif-wrap=no -H "ldap://127.0.0.1:$(ldap_port "$1")" -D "$root_dn" -w "$password" \
    -b cn=Replication,cn=monitor -s base "$2" 2>/dev/null | sed -n "s/^$2: //p" || true
}

# Waits until a command succeeds, for at most SECONDS: await SECONDS WHAT COMMAND...
await() {
  local limit="$1" what="$2"; shift 2
  local deadline=$((SECONDS + limit))
  until "$@"; do
    if [ $SECONDS -ge $deadline ]; then
      echo "cluster.sh: timed out after ${limit}s waiting until $what" >&2; return 1
    fi
    sleep 0.2
  done
}

is_leader() { [ "$(monitor "$1" ds-replication-role)" = leader ]; }
leader() {
  for n in $(seq 1 "$nodes"); do
    if is_leader "$n"; then echo "$n"; return; fi
  done
  return 1
}
a_follower() {
  local lead; lead=$(leader)
  for n in $(seq 1 "$nodes"); do
    [ "$n" = "$lead" ] || { echo "$n"; return; }
  done
}
# Whether server n applied the log as far as server m committed it.
caught_up() {
  local applied committed
  applied=$(monitor "$1" ds-replication-applied-index)
  committed=$(monitor "$2" ds-replication-commit-index)
  [ -n "$applied" ] && [ -n "$committed" ] && [ "$applied" -ge "$committed" ]
}

dsrepl() { # server, subcommand, arguments...
  local n="$1"; shift
  "$ROOT/bin/dsrepl" "$@" -h 127.0.0.1 -p "$(ldap_port "$n")" -D "$root_dn" -w "$password"
}

set_up_node() { # n, setup options...
  local n="$1"; shift
  "$ROOT/bin/setup" --instance "$(instance "$n")" --rootUserPassword "$password" --quiet \
    --ldapPort "$(ldap_port "$n")" --ldapsPort 0 --serverId "ds$n" \
    --replicationPort "$((replication_base + n))" --bootstrapReplicationServer "$(replication_address 1)" "$@"
}

load_group() {
  if [ -z "$ldif" ]; then
    ldif="$work/users-$users.ldif"
    if [ ! -s "$ldif" ]; then
      log "gen-ldif.py --users $users -> $ldif"
      python3 "$harness/gen-ldif.py" --users "$users" --password-scheme split --seed 42 -o "$ldif"
    fi
  fi
  users=$(grep -c '^dn: uid=' "$ldif")
  local stamp
  stamp="$(readlink -f "$ldif") $(stat -c '%s %Y' "$ldif") nodes=$nodes"
  if ! $reload && [ "$(cat "$work/loaded" 2>/dev/null)" = "$stamp" ]; then
    log "reusing the group of $nodes loaded from $ldif under $work"
    for n in $(seq 1 "$nodes"); do start_node "$n"; done
    await 120 "a leader" leader >/dev/null
    return
  fi
  stop_all
  rm -rf "$work"/ds[0-9]* "$work/loaded"
  log "ds1: a group of one, import-ldif $ldif"
  set_up_node 1
  "$ROOT/bin/import-ldif" --instance "$(instance 1)" -l "$ldif" --quiet
  start_node 1
  await 120 "ds1 leads" is_leader 1
  # One replicated write: the snapshot then holds a log position the joining servers are behind.
  ldapmodify -x -H "ldap://127.0.0.1:$(ldap_port 1)" -D "$root_dn" -w "$password" >/dev/null <<LDIF
dn: $base_dn
changetype: modify
replace: description
description: loaded by benchmarks/cluster.sh from $(basename "$ldif")
LDIF
  dsrepl 1 snapshot --quiet
  for n in $(seq 2 "$nodes"); do
    log "ds$n: joins, receives ds1's snapshot"
    set_up_node "$n" --joinReplicationGroup
    start_node "$n"
    dsrepl 1 add-server --replicationServer "$(replication_address "$n")" --quiet
    await 600 "ds$n caught up" caught_up "$n" 1
  done
  echo "$stamp" > "$work/loaded"
}

# ------------------------------------------------------------------ runs

# Runs one load tool per target server at once, samples every server's CPU over the measured
# window, and appends a row to results.tsv: run TAG CLASS "TARGETS" TOOL-ARGUMENTS...
run() {
  local tag="$1" class="$2" targets="$3"; shift 3
  local bound=$(( (warmup + intervals) * interval + 60 )) pids=() logs=() n i
  log "$tag: $class on ds${targets// /+ds}, $threads threads each"
  for n in $targets; do
    local out="$run_dir/$tag-ds$n.log"
    logs+=("$out")
    # shellcheck disable=SC2086
    timeout -k 5 "$bound" java $JAVA_OPTS -cp "$sdk_jar" "com.unboundid.ldap.sdk.examples.$class" \
      -h 127.0.0.1 -p "$(ldap_port "$n")" -D "$root_dn" -w "$password" "$@" -t "$threads" \
      -i "$interval" -I "$intervals" --warmUpIntervals "$warmup" --timestampFormat none > "$out" 2>&1 &
    pids+=($!)
  done
  # The measured window starts once every client is past its warm-up.
  local marker='Warm-up completed'; [ "$warmup" -eq 0 ] && marker='^-----'
  for out in "${logs[@]}"; do
    await "$bound" "the warm-up of $out" grep -q -- "$marker" "$out"
  done
  local before=() after=() t0 t1 records0 entries0 records1 entries1
  # Writes per log entry (group commit): ds1's counts of records and entries applied.
  records0=$(monitor 1 ds-replication-records-applied); entries0=$(monitor 1 ds-replication-entries-applied)
  for n in $(seq 1 "$nodes"); do before+=("$(cpu_ticks "$(node_pid "$n")")"); done
  t0=$(date +%s.%N)
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || echo "   (exit $? - see ${logs[$i]})" >&2
  done
  t1=$(date +%s.%N)
  for n in $(seq 1 "$nodes"); do after+=("$(cpu_ticks "$(node_pid "$n")")"); done
  records1=$(monitor 1 ds-replication-records-applied); entries1=$(monitor 1 ds-replication-entries-applied)
  local per_entry
  per_entry=$(awk -v r0="$records0" -v e0="$entries0" -v r1="$records1" -v e1="$entries1" \
    'BEGIN { if (r0 == "" || r1 == "" || e1 - e0 <= 0) print "-"; else printf "%.2f", (r1 - r0) / (e1 - e0) }')
  # Overall ops/s and average ms of each client (its last line), summed / weighted over the clients.
  local totals cores=()
  totals=$(awk '/^ *[0-9.]+ +[0-9.]+ /{ if ($(NF-2)+0 > e[FILENAME]) e[FILENAME]=$(NF-2)+0; o[FILENAME]=$(NF-1); m[FILENAME]=$NF }
    END { for (f in o) { ops += o[f]; w += o[f] * m[f]; err += e[f] }; printf "%.1f\t%.3f\t%.1f", ops, (ops > 0 ? w / ops : 0), err }' "${logs[@]}")
  for i in "${!before[@]}"; do
    cores+=("$(echo "scale=3; (${after[$i]} - ${before[$i]}) / $hz / ($t1 - $t0)" | bc -l)")
  done
  # The machine's 1-minute load average as the run ends: how much else wanted the cores.
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$tag" "ds${targets// /+ds}" "$threads" "$totals" "$(IFS=,; echo "${cores[*]}")" \
    "$per_entry" "$(cut -d' ' -f1 /proc/loadavg)" >> "$run_dir/results.tsv"
}

modrate() { # tag server
  run "$1" ModRate "$2" -b "uid=user.[1-$users],ou=People,$base_dn" -A description -l 40
}

searchrate() { # tag servers
  run "$1" SearchRate "$2" -b "$base_dn" -s sub -f "(uid=user.[1-$users])" -A 1.1
}

# Stops a follower, makes K modifies through the leader, starts the follower and times its catch-up.
catch_up() {
  local lead absent k=$catch_up_writes streams=4 s
  lead=$(leader); absent=$(a_follower)
  local applied_before
  applied_before=$(monitor "$absent" ds-replication-applied-index)
  log "catch-up: ds$absent stopped, $k modifies through ds$lead"
  stop_node "$absent"
  for s in $(seq 0 $((streams - 1))); do
    awk -v k="$k" -v s="$s" -v n="$streams" -v users="$users" -v base="ou=People,$base_dn" 'BEGIN {
      for (i = s; i < k; i += n) {
        printf "dn: uid=user.%d,%s\nchangetype: modify\nreplace: description\ndescription: catch-up %d\n\n", i % users + 1, base, i
      } }' > "$run_dir/catch-up-$s.ldif"
  done
  local w0 w1 pids=()
  w0=$(date +%s.%N)
  for s in $(seq 0 $((streams - 1))); do
    ldapmodify -x -H "ldap://127.0.0.1:$(ldap_port "$lead")" -D "$root_dn" -w "$password" \
      -f "$run_dir/catch-up-$s.ldif" > "$run_dir/catch-up-$s.log" 2>&1 &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p"; done
  w1=$(date +%s.%N)
  local committed t0 t1 t2
  committed=$(monitor "$lead" ds-replication-commit-index)
  t0=$(date +%s.%N)
  start_node "$absent"
  t1=$(date +%s.%N)
  await 600 "ds$absent applied up to $committed" caught_up "$absent" "$lead"
  t2=$(date +%s.%N)
  local behind=$((committed - applied_before))
  {
    printf 'catch-up: %s modifies through ds%s in %.1f s (%.0f/s, ds%s stopped); ' \
      "$k" "$lead" "$(echo "$w1 - $w0" | bc -l)" "$(echo "$k / ($w1 - $w0)" | bc -l)" "$absent"
    printf 'ds%s, %s log entries behind, listened %.1f s after start-ds and had applied them %.1f s after start-ds: %.0f entries/s from start-ds, %.0f/s from listening (load %s)\n' \
      "$absent" "$behind" "$(echo "$t1 - $t0" | bc -l)" "$(echo "$t2 - $t0" | bc -l)" \
      "$(echo "$behind / ($t2 - $t0)" | bc -l)" "$(echo "$behind / ($t2 - $t1)" | bc -l)" \
      "$(cut -d' ' -f1 /proc/loadavg)"
  } >> "$run_dir/catch-up.txt"
}

trap stop_all EXIT
load_group
log "results -> $run_dir ($(uptime | sed 's/.*load/load/'))"
: > "$run_dir/results.tsv"
for workload in $workloads; do
  for threads in $thread_counts; do
    case "$workload" in
      modrate-leader) modrate "$workload" "$(leader)" ;;
      modrate-follower) modrate "$workload" "$(a_follower)" ;;
      search-1) searchrate "$workload" "1" ;;
      search-2) searchrate "$workload" "1 2" ;;
      search-3) searchrate "$workload" "1 2 3" ;;
      catch-up) catch_up; break ;;
      *) echo "cluster.sh: unknown workload $workload" >&2; exit 2 ;;
    esac
  done
done
stop_all

# ------------------------------------------------------------------ table

table() {
  python3 - "$run_dir" "$nodes" <<'PY'
import os, sys
run_dir, nodes = sys.argv[1], int(sys.argv[2])
header = ["workload", "against", "threads each", "ops/s", "avg ms"]
header += [f"ds{n} CPU µs/op" for n in range(1, nodes + 1)] + ["group CPU µs/op", "writes/entry", "load"]
rows = open(os.path.join(run_dir, "results.tsv")).read().splitlines()
if rows:
    print("| " + " | ".join(header) + " |")
    print("|" + " --- |" * len(header))
errors = []
for line in rows:
    tag, against, threads, ops, ms, errs, cores, per_entry, load = line.split("\t")
    ops = float(ops)
    per_node = [float(c) * 1e6 / ops if ops > 0 else None for c in cores.split(",")]
    fmt = lambda v: "-" if v is None else f"{v:,.1f}"
    cells = [tag, against, threads, f"{ops:,.0f}", ms] + [fmt(v) for v in per_node]
    cells.append(fmt(sum(per_node) if None not in per_node else None))
    cells.append(per_entry)
    cells.append(load)
    print("| " + " | ".join(cells) + " |")
    if float(errs) > 0:
        errors.append(tag)
if errors:
    print("\nErrors reported by the load tool (see the logs): " + ", ".join(errors))
catch_up = os.path.join(run_dir, "catch-up.txt")
if os.path.exists(catch_up):
    print()
    print(open(catch_up).read().strip())
PY
}
{
  echo "RockDS replication group of $nodes, $users users ($ldif), $(date -u +%Y-%m-%dT%H:%MZ); $(nproc) cores, $(uptime | sed 's/.*load/load/')"
  echo "Command: benchmarks/cluster.sh --nodes $nodes --users $users --workloads \"$workloads\" --threads \"$thread_counts\" --interval $interval --intervals $intervals --warmup $warmup --catch-up-writes $catch_up_writes"
  echo "RockDS $ROOT ($(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo copy)); raw results: $run_dir"
  echo
  table
} | tee "$run_dir/table.md"
[ -z "$out" ] || cp "$run_dir/table.md" "$out"

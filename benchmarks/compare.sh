#!/usr/bin/env bash
# RockDS and OpenLDAP slapd (back-mdb) side by side in one command, on the shared perf harness
# (/work/shared/perf: setup-slapd.sh loads slapd, run-workloads.sh drives the UnboundID SDK's
# SearchRate / AuthRate / ModRate), and one ratio table with the server CPU per operation.
#
#   benchmarks/compare.sh --ldif FILE [--users N] [--workloads "search-1attr ..."] [--threads "8 32"]
#                         [--configs "slapd rockds slapd-stats rockds-nolog"] [--rounds N]
#                         [--interval S] [--intervals N] [--warmup N] [--work DIR] [--reload] [--out FILE]
#                         [--rockds-home DIR] [--baseline-home DIR] [--server-warmup SECONDS]
#   benchmarks/compare.sh --instance DIR --users N --configs "rockds ..." [...]
#
# --instance DIR measures a RockDS instance loaded beforehand (benchmarks/scale/load-10m.sh streams
# the 10M-user set into one without an LDIF file): nothing is loaded, slapd is not run, and --users
# says how many users it holds.
#
# Server configurations (--configs, run in that order, each round):
#   slapd         slapd at its best: loglevel none (fsync on commit, as setup-slapd.sh makes it)
#   slapd-stats   the same slapd at loglevel stats (a formatted log line per operation, as it ships)
#   rockds        RockDS with bin/start-ds defaults, access log on (as it ships)
#   rockds-nolog  the same RockDS with its file-based access log disabled
#   rockds-baseline  another RockDS build (--baseline-home DIR: a copy of bin/ and tools/target/ of
#                 the commit before a change) on the same data, access log on: before/after figures
#                 in one session
# Ports: RockDS 31389, slapd 33890 (override with ROCKDS_PORT / SLAPD_PORT). Both servers are
# loaded once from the same LDIF (gen-ldif.py data with {SSHA}/plain passwords) under --work
# (default /tmp/perf/compare) and reused by later runs of the same LDIF; --reload loads again.
# Only one server is under load at a time; the other is stopped. After each (re)start a server gets
# a throwaway pass of the same workloads (--server-warmup, default 60 s in all, at the largest
# thread count) so that RockDS's JIT and both servers' caches are warm before anything is measured;
# each measured run then has run-workloads.sh's own warm-up interval(s) too. --rockds-home runs the bin/ of
# another RockDS build instead of this checkout's.
#
# The primary figure is the server's CPU time per operation (µs, from /proc/PID/stat over the
# measured window): the client shares the cores, so throughput alone misleads. Ratios are RockDS
# over slapd at loglevel none (> 1 is RockDS ahead; for CPU/op < 1 is RockDS cheaper). With
# --rounds N each figure is the median of the rounds. The Markdown table goes to stdout and --out.
# Env passed through to run-workloads.sh: USERS, AUTH_PLAIN_RANGE, AUTH_SSHA_RANGE, JAVA_OPTS;
# ROCKDS_JAVA_OPTS to start-ds; PERF_HARNESS (default /work/shared/perf).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)

ldif=""
workloads="search-1attr search-all auth-ssha group-member modrate"
threads="8 32"
configs="slapd rockds slapd-stats rockds-nolog"
rounds=1
interval=5
intervals=6
warmup=1
work=/tmp/perf/compare
reload=false
out=""
rockds_home=$ROOT
server_warmup=60
baseline_home=""
preloaded=""
while [ $# -gt 0 ]; do
  case "$1" in
    --ldif) ldif="$2"; shift ;;
    --users) export USERS="$2"; shift ;;
    --workloads) workloads="$2"; shift ;;
    --threads) threads="$2"; shift ;;
    --configs) configs="$2"; shift ;;
    --rounds) rounds="$2"; shift ;;
    --interval) interval="$2"; shift ;;
    --intervals) intervals="$2"; shift ;;
    --warmup) warmup="$2"; shift ;;
    --work) work="$2"; shift ;;
    --reload) reload=true ;;
    --out) out="$2"; shift ;;
    --rockds-home) rockds_home="$2"; shift ;;
    --server-warmup) server_warmup="$2"; shift ;;
    --baseline-home) baseline_home="$2"; shift ;;
    --instance) preloaded="$2"; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
    *) echo "compare.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
  esac
  shift
done
if [ -n "$preloaded" ]; then
  [ -n "${USERS:-}" ] || { echo "compare.sh: --instance needs --users N" >&2; exit 2; }
  case " $configs " in *" slapd"*) echo "compare.sh: --instance measures RockDS only" >&2; exit 2 ;; esac
  ldif="$preloaded (loaded beforehand)"
else
  [ -n "$ldif" ] && [ -f "$ldif" ] || { echo "compare.sh: --ldif FILE is required (gen-ldif.py data)" >&2; exit 2; }
fi
harness=${PERF_HARNESS:-/work/shared/perf}
rockds_port=${ROCKDS_PORT:-31389}
slapd_port=${SLAPD_PORT:-33890}
if [ -z "${USERS:-}" ]; then
  USERS=$(grep -c '^dn: uid=' "$ldif"); export USERS
fi
[ -f "$rockds_home/tools/target/rockds-tools.jar" ] || { echo "compare.sh: build first: ./mvnw -B -q -DskipTests package" >&2; exit 1; }

mkdir -p "$work"
slapd_dir="$work/slapd"
inst=${preloaded:-$work/rockds}
stamp=""
[ -n "$preloaded" ] || stamp="$(readlink -f "$ldif") $(stat -c '%s %Y' "$ldif")"
run_dir="$work/results/$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$run_dir"
log() { echo "[compare $(date -u +%H:%M:%S)] $*" >&2; }

# ------------------------------------------------------------------ servers

slapd_pid() { cat "$slapd_dir/slapd.pid" 2>/dev/null || true; }
slapd_stop() {
  local pid; pid=$(slapd_pid)
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid"
  for _ in $(seq 1 300); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  echo "compare.sh: slapd (pid $pid) did not stop" >&2; return 1
}
slapd_start() { # loglevel
  sed -i "s/^loglevel .*/loglevel $1/" "$slapd_dir/slapd.conf"
  slapd -f "$slapd_dir/slapd.conf" -h "ldap://127.0.0.1:$slapd_port/"
  for _ in $(seq 1 100); do
    ldapsearch -x -H "ldap://127.0.0.1:$slapd_port" -s base -b "" 1.1 >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  echo "compare.sh: slapd did not listen on $slapd_port" >&2; return 1
}
rockds_stop() { "$rockds_home/bin/stop-ds" --instance "$inst" >/dev/null 2>&1 || true; }
rockds_start() { # access log enabled: true|false, [build]
  local home=${2:-$rockds_home}
  "$home/bin/dsconfig" --offline --instance "$inst" set-log-publisher-prop \
    --publisher-name "File-Based Access Logger" --set "enabled:$1" >/dev/null
  "$home/bin/start-ds" --instance "$inst" --timeout 600 >/dev/null
  for _ in $(seq 1 100); do [ -s "$inst/logs/server.pid" ] && return 0; sleep 0.1; done
  echo "compare.sh: no $inst/logs/server.pid" >&2; return 1
}

load_servers() {
  if [ -n "$preloaded" ]; then
    log "measuring the instance loaded in $inst"
    return
  fi
  if ! $reload && [ "$(cat "$slapd_dir/loaded" 2>/dev/null)" = "$stamp" ] \
      && [ "$(cat "$inst/loaded" 2>/dev/null)" = "$stamp" ]; then
    log "reusing the servers loaded from $ldif under $work"
    return
  fi
  slapd_stop; rockds_stop
  log "slapd: slapadd -q $ldif"
  rm -rf "$slapd_dir"
  bash "$harness/setup-slapd.sh" "$ldif" "$slapd_dir" "$slapd_port" > "$work/slapd-setup.log"
  slapd_stop
  echo "$stamp" > "$slapd_dir/loaded"
  log "RockDS: import-ldif $ldif"
  rm -rf "$inst"
  "$rockds_home/bin/setup" --instance "$inst" --noEntries --ldapPort "$rockds_port" --ldapsPort 0 \
    --rootUserPassword password --quiet
  local t0 t1
  t0=$(date +%s.%N)
  "$rockds_home/bin/import-ldif" --instance "$inst" -l "$ldif" --quiet
  t1=$(date +%s.%N)
  { echo "import_wall_s=$(echo "$t1 - $t0" | bc)"; echo "db_du=$(du -sh "$inst/db" | cut -f1)"; } > "$inst/import.txt"
  echo "$stamp" > "$inst/loaded"
}

# ------------------------------------------------------------------ runs

run_config() { # config round
  local config="$1" round="$2" pid label port bind
  slapd_stop; rockds_stop
  case "$config" in
    slapd) slapd_start none; pid=$(slapd_pid) ;;
    slapd-stats) slapd_start stats; pid=$(slapd_pid) ;;
    rockds) rockds_start true; pid=$(cat "$inst/logs/server.pid") ;;
    rockds-nolog) rockds_start false; pid=$(cat "$inst/logs/server.pid") ;;
    rockds-baseline) [ -n "$baseline_home" ] || { echo "compare.sh: rockds-baseline needs --baseline-home" >&2; return 2; }
      rockds_start true "$baseline_home"; pid=$(cat "$inst/logs/server.pid") ;;
    *) echo "compare.sh: unknown configuration $config" >&2; return 2 ;;
  esac
  case "$config" in
    slapd*) port=$slapd_port; bind="cn=Directory Manager,dc=example,dc=com" ;;
    *) port=$rockds_port; bind="cn=Directory Manager" ;;
  esac
  label="$config"
  if [ "$server_warmup" -gt 0 ]; then
    local n per
    n=$(echo "$workloads" | wc -w); per=$(( (server_warmup + n - 1) / n ))
    log "$config: throwaway warm-up pass (${per}s per workload)"
    WORKLOADS=$workloads THREADS=$(echo "$threads" | tr ' ' '\n' | sort -n | tail -1) INTERVAL=$per INTERVALS=1 \
      WARMUP=0 OUTDIR="$run_dir/warmup-$config-r$round" \
      bash "$harness/run-workloads.sh" 127.0.0.1 "$port" dc=example,dc=com "$bind" password >/dev/null 2>&1 || true
  fi
  log "$config (round $round, pid $pid, load $(cut -d' ' -f1-3 /proc/loadavg))"
  SERVER_PID=$pid LABEL=$label WORKLOADS=$workloads THREADS=$threads INTERVAL=$interval INTERVALS=$intervals \
    WARMUP=$warmup OUTDIR="$run_dir/$config-r$round" \
    bash "$harness/run-workloads.sh" 127.0.0.1 "$port" dc=example,dc=com "$bind" password \
    > "$run_dir/$config-r$round.out" 2>&1
  awk '/VmHWM|VmRSS/ {printf "%s %s kB\n", $1, $2}' "/proc/$pid/status" > "$run_dir/$config-r$round.rss"
  tail -n +2 "$run_dir/$config-r$round/summary.tsv" >> "$run_dir/all.tsv"
}

trap 'slapd_stop; rockds_stop' EXIT
load_servers
log "results -> $run_dir ($(uptime | sed 's/.*load/load/'))"
: > "$run_dir/all.tsv"
for round in $(seq 1 "$rounds"); do
  for config in $configs; do
    run_config "$config" "$round"
  done
done
slapd_stop; rockds_stop

# ------------------------------------------------------------------ table

table() {
  python3 - "$run_dir" "$configs" <<'PY'
import statistics, sys, glob, os
run_dir, configs = sys.argv[1], sys.argv[2].split()
rows = {}
order = []
for line in open(os.path.join(run_dir, "all.tsv")):
    f = line.rstrip("\n").split("\t")
    label, wl, t, ops, ms, errs, cores = f[:7]
    key = (wl, int(t))
    if key not in order:
        order.append(key)
    try:
        ops = float(ops)
        cpu = float(cores) * 1e6 / ops if cores not in ("", "NA") and ops > 0 else None
    except ValueError:
        ops, cpu = None, None
    rows.setdefault((label, key), []).append((ops, cpu, float(errs or 0)))

def med(key, config, i):
    vals = [r[i] for r in rows.get((config, key), []) if r[i] is not None]
    return statistics.median(vals) if vals else None

def fmt(v, digits=0):
    return "-" if v is None else f"{v:,.{digits}f}"

def ratio(a, b):
    return "-" if a is None or b is None or b == 0 else f"{a / b:.2f}"

header = ["workload", "threads"]
for c in configs:
    header += [f"{c} ops/s", f"{c} CPU µs/op"]
if "rockds" in configs and "slapd" in configs:
    header += ["rockds/slapd ops", "rockds/slapd CPU/op"]
if "rockds-nolog" in configs and "slapd" in configs:
    header += ["rockds-nolog/slapd ops"]
if "rockds" in configs and "slapd-stats" in configs:
    header += ["rockds/slapd-stats ops"]
if "rockds" in configs and "rockds-baseline" in configs:
    header += ["rockds/baseline CPU/op"]
print("| " + " | ".join(header) + " |")
print("|" + " --- |" * len(header))
errors = []
for key in sorted(order, key=order.index):
    cells = [key[0], str(key[1])]
    for c in configs:
        cells += [fmt(med(key, c, 0)), fmt(med(key, c, 1), 1)]
        if any(r[2] > 0 for r in rows.get((c, key), [])):
            errors.append(f"{c} {key[0]} x{key[1]}")
    if "rockds" in configs and "slapd" in configs:
        cells += [ratio(med(key, "rockds", 0), med(key, "slapd", 0)), ratio(med(key, "rockds", 1), med(key, "slapd", 1))]
    if "rockds-nolog" in configs and "slapd" in configs:
        cells += [ratio(med(key, "rockds-nolog", 0), med(key, "slapd", 0))]
    if "rockds" in configs and "slapd-stats" in configs:
        cells += [ratio(med(key, "rockds", 0), med(key, "slapd-stats", 0))]
    if "rockds" in configs and "rockds-baseline" in configs:
        cells += [ratio(med(key, "rockds", 1), med(key, "rockds-baseline", 1))]
    print("| " + " | ".join(cells) + " |")
if errors:
    print("\nErrors reported by the load tool (see the logs): " + ", ".join(errors))
rss = []
for path in sorted(glob.glob(os.path.join(run_dir, "*.rss"))):
    name = os.path.basename(path)[:-4]
    rss.append(name + ": " + ", ".join(l.strip() for l in open(path)))
print("\nServer memory after each run: " + "; ".join(rss))
PY
}
{
  echo "RockDS vs slapd, $USERS users ($ldif), $(date -u +%Y-%m-%dT%H:%MZ); $(nproc) cores, $(uptime | sed 's/.*load/load/')"
  echo "Command: benchmarks/compare.sh --server-warmup $server_warmup --ldif $ldif --workloads \"$workloads\" --threads \"$threads\" --configs \"$configs\" --rounds $rounds --interval $interval --intervals $intervals --warmup $warmup"
  echo "RockDS $rockds_home ($(git -C "$rockds_home" rev-parse --short HEAD 2>/dev/null || echo copy))${baseline_home:+, baseline $baseline_home}; slapd $(slapd -VV 2>&1 | head -1 | sed 's/^.*OpenLDAP: //; s/ (.*//'); raw results: $run_dir"
  echo
  table
} | tee "$run_dir/table.md"
[ -z "$out" ] || cp "$run_dir/table.md" "$out"

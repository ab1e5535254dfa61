# Shared by the bin/ programs: locate the build, the JVM and the instance.
# shellcheck shell=bash
ROCKDS_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# Instances, their databases, logs and exports are private to the user running RockDS.
umask 077
if [ -d "$ROCKDS_HOME/lib" ]; then
  # An unpacked distribution (rockds-VERSION.tar.gz): every jar in lib/.
  ROCKDS_CLASSPATH="$ROCKDS_HOME/lib/*"
else
  # The source tree, after ./mvnw package.
  ROCKDS_CLASSPATH="$ROCKDS_HOME/tools/target/rockds-tools.jar:$ROCKDS_HOME/tools/target/lib/*"
fi
ROCKDS_JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"

require_build() {
  if [ ! -d "$ROCKDS_HOME/lib" ] && [ ! -f "$ROCKDS_HOME/tools/target/rockds-tools.jar" ]; then
    echo "$(basename "$0"): RockDS is not built yet: run ./mvnw -q -DskipTests package first" >&2
    exit 1
  fi
}

# Runs a tool's main class in this process (exec), with the tool JVM options.
run_tool() {
  require_build
  # shellcheck disable=SC2086
  exec "$ROCKDS_JAVA" ${ROCKDS_TOOL_JAVA_OPTS:--XX:+UseG1GC} \
    -cp "$ROCKDS_CLASSPATH" "$@"
}

# Prints the value of --instance in the arguments, or the default ./instance.
instance_of() {
  local dir="instance"
  while [ $# -gt 0 ]; do
    case "$1" in
      --instance) dir="$2"; shift ;;
      --instance=*) dir="${1#--instance=}" ;;
    esac
    shift
  done
  echo "$dir"
}

server_pid() {
  local pid_file="$1/logs/server.pid"
  [ -f "$pid_file" ] || return 1
  local pid
  pid="$(cat "$pid_file")"
  kill -0 "$pid" 2>/dev/null || return 1
  # A pid file outlives a kill -9 and its pid may be reused: only a RockDS server process counts.
  if [ -r "/proc/$pid/cmdline" ]; then
    tr '\0' ' ' < "/proc/$pid/cmdline" | grep -q 'io\.rockds\.server\.Main' || return 1
  fi
  echo "$pid"
}

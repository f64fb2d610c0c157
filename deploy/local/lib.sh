# Shared helpers for the local stack scripts. Sourced by stack.sh, never executed.
# Layout: cache (downloads, reusable across checkouts) vs. state (data, pids, configs, logs).

LOCAL_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$LOCAL_DIR/../.." && pwd)"
# shellcheck source=ports.env
. "$LOCAL_DIR/ports.env"
. "$LOCAL_DIR/port-offset.sh"
# shellcheck source=versions.env
. "$LOCAL_DIR/versions.env"

# An offset instance keeps its state apart from the main stack's unless told where.
if ((STACK_PORT_OFFSET)); then STACK_DIR="${CRAWLER_STACK_DIR:-$REPO_ROOT/.stack/port-offset-$STACK_PORT_OFFSET}"
else STACK_DIR="${CRAWLER_STACK_DIR:-$REPO_ROOT/.stack}"
fi
CACHE_DIR="${CRAWLER_STACK_CACHE:-$HOME/.cache/crawler-stack}"
LOG_DIR="$STACK_DIR/logs"
RUN_DIR="$STACK_DIR/run"
# Elasticsearch refuses to run as root; when we are root it runs as this system user.
STACK_USER="${CRAWLER_STACK_USER:-crawlerstack}"
STOP_TIMEOUT="${CRAWLER_STACK_STOP_TIMEOUT:-30}"

log() { printf '[%s] %s\n' "${SVC:-stack}" "$*" >&2; }
die() { printf '[%s] ERROR: %s\n' "${SVC:-stack}" "$*" >&2; exit 1; }

ensure_dirs() { mkdir -p "$STACK_DIR" "$LOG_DIR" "$RUN_DIR" "$CACHE_DIR"; }

# --- prerequisites ---------------------------------------------------------

# Sets JAVA_HOME_RESOLVED and JAVA_BIN; Java 17+ is required by every JVM service here.
need_java() {
  local java=""
  if [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/java" ]]; then java="$JAVA_HOME/bin/java"
  elif command -v java >/dev/null 2>&1; then java="$(readlink -f "$(command -v java)")"
  fi
  [[ -n "$java" ]] || die "Java not found. Install a JDK 17+ (Debian: apt-get install -y openjdk-17-jdk-headless) or set JAVA_HOME."
  local major
  major="$("$java" -version 2>&1 | awk -F'"' '/version/ {print $2; exit}' | cut -d. -f1)"
  [[ "$major" =~ ^[0-9]+$ && "$major" -ge 17 ]] \
    || die "Java 17+ required, found '$major' at $java (Debian: apt-get install -y openjdk-17-jdk-headless)."
  JAVA_BIN="$java"
  JAVA_HOME_RESOLVED="$(dirname "$(dirname "$java")")"
}

need_maven() {
  command -v mvn >/dev/null 2>&1 \
    || die "Maven not found (needed once to download the $SVC jars). Install it: apt-get install -y maven"
}

# --- artifact cache ----------------------------------------------------------

# cache_key <file> [strings...]: short hash, so an edited pom or a version bump
# resolves into a fresh cache dir instead of reusing stale jars.
cache_key() { { cat "$1"; shift; echo "$*"; } | sha1sum | cut -c1-10; }

# mvn_once <pom> <outdir> <produced> <doing> [maven args...]: runs Maven once on a copy of <pom>
# in <outdir>.work; <outdir> then becomes the folder it produced there (<produced>).
mvn_once() {
  local pom="$1" out="$2" produced="$3" doing="$4"; shift 4
  [[ -f "$out/.complete" ]] && return 0
  need_maven
  local work="$out.work" flog="$LOG_DIR/$SVC-fetch.log"
  rm -rf "$work" && mkdir -p "$work"
  cp "$pom" "$work/pom.xml"
  log "$doing with Maven (first run only; output in $flog)"
  # More parallel HTTP connections than the default 5: the HBase closure is ~150 jars.
  if ! mvn -B -q -f "$work/pom.xml" -Daether.connector.basic.threads=16 "$@" >"$flog" 2>&1; then
    tail -n 30 "$flog" >&2
    die "Maven failed $doing for $SVC; see $flog"
  fi
  rm -rf "$out" && mv "$work/$produced" "$out" && rm -rf "$work"
  touch "$out/.complete"
}

# mvn_copy_deps <pom> <outdir> [-Dprop=value...]: runtime jars of <pom> into <outdir>, once.
mvn_copy_deps() {
  local pom="$1" out="$2"; shift 2
  mvn_once "$pom" "$out" libs "resolving jars" "$@" \
    "org.apache.maven.plugins:maven-dependency-plugin:$MVN_DEPENDENCY_PLUGIN:copy-dependencies" \
    -DincludeScope=runtime -DoutputDirectory="$out.work/libs"
}

# mvn_build <pom> <outdir> [-Dprop=value...]: `mvn package` of <pom>, once; <outdir> becomes its target/.
mvn_build() {
  local pom="$1" out="$2"; shift 2
  mvn_once "$pom" "$out" target "building" "$@" package
}

# mvn_unpack <groupId:artifactId:version:type> <outdir>: unpack one archive from Maven Central, once.
mvn_unpack() {
  local coords="$1" out="$2"
  [[ -f "$out/.complete" ]] && return 0
  need_maven
  local work="$out.work" flog="$LOG_DIR/$SVC-fetch.log"
  rm -rf "$work" && mkdir -p "$work"
  log "downloading $coords with Maven (first run only; output in $flog)"
  if ! (cd "$work" && mvn -B -q "org.apache.maven.plugins:maven-dependency-plugin:$MVN_DEPENDENCY_PLUGIN:unpack" \
      -Dartifact="$coords" -DoutputDirectory="$work/unpacked" >"$flog" 2>&1); then
    tail -n 30 "$flog" >&2
    die "Maven could not fetch $coords; see $flog"
  fi
  rm -rf "$out" && mv "$work/unpacked" "$out" && rm -rf "$work"
  touch "$out/.complete"
}

# --- processes -----------------------------------------------------------------

pidfile() { echo "$RUN_DIR/$1.pid"; }

# proc_pid <name> <cmdline-pattern>: prints the pid if alive AND its command line matches,
# so a recycled pid from an old pid file is never mistaken for our service.
proc_pid() {
  local f pid
  f="${3:-$(pidfile "$1")}"
  [[ -s "$f" ]] || return 1
  pid="$(tr -dc '0-9' <"$f")"
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$2" || return 1
  echo "$pid"
}

# start_bg <name> <logfile> <cmd...>: detached from our session so Ctrl-C on `stack:up`
# or npm's process-group cleanup does not take the service down.
start_bg() {
  local name="$1" logf="$2"; shift 2
  printf '\n===== %s starting %s =====\n' "$(date -Is)" "$name" >>"$logf"
  setsid "$@" >>"$logf" 2>&1 </dev/null 9>&- &   # fd 9 is stack.sh's lock
  echo $! >"$(pidfile "$name")"
}

# wait_exit <pid> <seconds>: returns 0 as soon as the process is gone, 1 on timeout.
wait_exit() {
  local i
  for ((i = 0; i < $2 * 5; i++)); do
    kill -0 "$1" 2>/dev/null || return 0
    sleep 0.2
  done
  return 1
}

# stop_pid <label> <pid>: SIGTERM, wait up to STOP_TIMEOUT seconds, then SIGKILL.
stop_pid() {
  local label="$1" pid="$2"
  kill -TERM "$pid" 2>/dev/null || return 0
  if wait_exit "$pid" "$STOP_TIMEOUT"; then
    log "$label stopped (pid $pid)"
    return 0
  fi
  log "$label did not stop within ${STOP_TIMEOUT}s; sending SIGKILL to $pid"
  kill -KILL "$pid" 2>/dev/null || true
  sleep 0.5
}

port_open() { timeout 1 bash -c "exec 3<>/dev/tcp/$1/$2" 2>/dev/null; }

# wait_until <label> <timeout-s> <logfile> <pid-or-empty> <cmd...>: polls <cmd> until it
# succeeds; fails fast if the process died, and always names the log to read.
wait_until() {
  local label="$1" timeout="$2" logf="$3" pid="$4"; shift 4
  local deadline=$((SECONDS + timeout))
  until "$@" >/dev/null 2>&1; do
    if [[ -n "$pid" ]] && ! kill -0 "$pid" 2>/dev/null; then
      tail -n 25 "$logf" >&2 || true
      die "$label exited during startup; see $logf"
    fi
    if ((SECONDS >= deadline)); then
      tail -n 25 "$logf" >&2 || true
      die "$label not ready after ${timeout}s; see $logf"
    fi
    sleep 0.5
  done
}

# status_line <name> <address> <pid-or-empty> <answering 0/1>: one line; returns 0 when up.
status_line() {
  local name="$1" addr="$2" pid="${3:--}" state=down note=""
  if [[ "$pid" != - && "$4" == 1 ]]; then state=up
  elif [[ "$pid" != - ]]; then note=" (process alive, not healthy)"
  fi
  printf '%-20s %-22s %-5s pid %s%s\n' "$name" "$addr" "$state" "$pid" "$note"
  [[ "$state" == up ]]
}

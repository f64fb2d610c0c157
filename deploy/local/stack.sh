#!/usr/bin/env bash
# Local infrastructure for the crawler (Kafka, Elasticsearch, HBase, Redis, a schema registry, an
# OpenTelemetry Collector) without Docker.
# Usage: stack.sh connect-classpath   (prints the folder of a Kafka Connect worker's jars)
# Usage: stack.sh up|down|status|stop|start [kafka|elasticsearch|hbase|redis|schema-registry|otel-collector|realweb ...]   (default: all)
# stop/start are outage controls for tests: stop keeps the component's data (see redis_stop).
set -euo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
for f in kafka elasticsearch hbase redis schema-registry otel-collector realweb; do . "$LOCAL_DIR/$f.sh"; done

ALL_SERVICES=(kafka elasticsearch hbase redis schema-registry otel-collector realweb)

usage() {
  echo "usage: $0 up|down|status|stop|start [${ALL_SERVICES[*]}]" >&2
  exit 2
}

# Accepts "es" for elasticsearch; rejects unknown names before anything starts.
pick_services() {
  SERVICES=()
  (($#)) || { SERVICES=("${ALL_SERVICES[@]}"); return; }
  local s
  for s in "$@"; do
    [[ "$s" == es ]] && s=elasticsearch
    [[ "$s" == registry ]] && s=schema-registry
    [[ "$s" == otel ]] && s=otel-collector
    [[ " ${ALL_SERVICES[*]} " == *" $s "* ]] || { echo "unknown service: $s" >&2; usage; }
    SERVICES+=("$s")
  done
}

# Services are independent, so they download and boot in parallel; each logs with its prefix.
cmd_up() {
  local start=$SECONDS s failed=() pids=()
  for s in "${SERVICES[@]}"; do
    "${s//-/_}_up" &
    pids+=($!)
  done
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || failed+=("${SERVICES[$i]}")
  done
  if ((${#failed[@]})); then
    log "FAILED: ${failed[*]} (logs in $LOG_DIR) after $((SECONDS - start))s"
    return 1
  fi
  log "up: ${SERVICES[*]} in $((SECONDS - start))s; env: deploy/local/stack-env.sh"
}

cmd_down() {
  local s pids=() rc=0
  for s in "${SERVICES[@]}"; do
    "${s//-/_}_down" &
    pids+=($!)
  done
  for s in "${pids[@]}"; do wait "$s" || rc=1; done
  return "$rc"
}

# An outage, not a teardown: a service whose `down` discards data has its own <service>_stop.
cmd_stop() {
  local s pids=() rc=0
  for s in "${SERVICES[@]}"; do
    if declare -F "${s//-/_}_stop" >/dev/null; then "${s//-/_}_stop" & else "${s//-/_}_down" & fi
    pids+=($!)
  done
  for s in "${pids[@]}"; do wait "$s" || rc=1; done
  return "$rc"
}

cmd_status() {
  local s rc=0
  for s in "${SERVICES[@]}"; do "${s//-/_}_status" || rc=1; done
  return "$rc"
}

(($#)) || usage
action="$1"; shift
pick_services "$@"
ensure_dirs
case "$action" in
  up | down | stop | start)
    # One up/down at a time: two concurrent `up`s would both try to start the same JVMs.
    exec 9>"$RUN_DIR/stack.lock"
    flock -w 300 9 || die "another stack.sh up/down is still running (lock $RUN_DIR/stack.lock)"
    [[ "$action" == start ]] && action=up
    "cmd_$action"
    ;;
  status) cmd_status ;;
  # Where the Kafka Connect worker's jars are (resolved first if missing): for tests and docs.
  connect-classpath) kafka_connect_fetch >&2 && kafka_connect_libs ;;
  *) usage ;;
esac

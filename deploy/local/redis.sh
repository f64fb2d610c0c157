# Redis from Debian's redis-server: one standalone node (fingerprints) and a 3-master
# Redis Cluster. No persistence at all, so every restart starts empty and clean.
# Sourced by stack.sh; defines redis_up / redis_down / redis_status.

REDIS_STATE="$STACK_DIR/redis"
REDIS_CLUSTER_LOG="$LOG_DIR/redis-cluster.log"

redis_name() { [[ "$1" == "$REDIS_PORT" ]] && echo redis || echo "redis-cluster-$1"; }
redis_cli() { local p="$1"; shift; redis-cli -h "$STACK_HOST" -p "$p" "$@"; }
redis_pid() { proc_pid "$(redis_name "$1")" "$STACK_HOST:$1"; }
redis_info_field() { redis_cli "$1" cluster info 2>/dev/null | tr -d '\r' | sed -n "s/^$2://p"; }

# Installs Debian's packages only when missing (needs root); CI does this in .ci/run.
redis_need() {
  command -v redis-server >/dev/null && command -v redis-cli >/dev/null && return 0
  if [[ $EUID -eq 0 ]] && command -v apt-get >/dev/null; then
    log "redis-server missing; installing Debian packages redis-server redis-tools"
    { DEBIAN_FRONTEND=noninteractive apt-get install -y redis-server redis-tools \
      || { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y redis-server redis-tools; }; } \
      >>"$LOG_DIR/redis-install.log" 2>&1 || die "apt-get install redis-server failed; see $LOG_DIR/redis-install.log"
  else
    die "redis-server/redis-cli not found. Install them: sudo apt-get install -y redis-server redis-tools"
  fi
}

# redis_start_node <port> [cluster]
redis_start_node() {
  local port="$1" name dir
  name="$(redis_name "$port")"
  redis_pid "$port" >/dev/null && return 0
  port_open "$STACK_HOST" "$port" && die "port $port is taken by a process that is not ours"
  dir="$REDIS_STATE/$port"
  mkdir -p "$dir"
  local args=(--bind "$STACK_HOST" --port "$port" --daemonize yes --dir "$dir"
    --pidfile "$(pidfile "$name")" --logfile "$LOG_DIR/$name.log" --save "" --appendonly no)
  if [[ "${2:-}" == cluster ]]; then
    # A node that was not shut down through `down` left a stale topology; start it blank.
    rm -f "$dir/nodes.conf"
    args+=(--cluster-enabled yes --cluster-config-file "$dir/nodes.conf" --cluster-node-timeout 5000)
  fi
  redis-server "${args[@]}" 9>&- || die "redis-server on port $port failed to start; see $LOG_DIR/$name.log"
  wait_until "$name" 20 "$LOG_DIR/$name.log" "" redis_cli "$port" ping
}

redis_cluster_ok() {
  local p
  for p in $REDIS_CLUSTER_PORTS; do
    [[ "$(redis_info_field "$p" cluster_state)" == ok && "$(redis_info_field "$p" cluster_known_nodes)" == 3 ]] || return 1
  done
}

# Creates the cluster when all nodes are blank; if only some are blank (a node crashed and
# came back empty) the old topology is unusable, so every node is wiped and it is recreated.
redis_cluster_ensure() {
  local p blank=0 total=0 hosts=()
  redis_cluster_ok && return 0
  for p in $REDIS_CLUSTER_PORTS; do
    total=$((total + 1)); hosts+=("$STACK_HOST:$p")
    [[ "$(redis_info_field "$p" cluster_known_nodes)" == 1 && "$(redis_info_field "$p" cluster_slots_assigned)" == 0 ]] \
      && blank=$((blank + 1))
  done
  if ((blank != total)); then
    log "cluster topology is inconsistent ($blank of $total nodes blank); resetting all cluster nodes"
    for p in $REDIS_CLUSTER_PORTS; do
      redis_cli "$p" flushall >/dev/null 2>&1 || true
      redis_cli "$p" cluster reset hard >/dev/null
    done
  fi
  log "creating the 3-master cluster"
  redis-cli --cluster create "${hosts[@]}" --cluster-replicas 0 --cluster-yes >>"$REDIS_CLUSTER_LOG" 2>&1 \
    || die "redis-cli --cluster create failed; see $REDIS_CLUSTER_LOG"
  wait_until "redis cluster" 30 "$REDIS_CLUSTER_LOG" "" redis_cluster_ok
}

redis_up() {
  local SVC=redis p already=1
  for p in $REDIS_PORT $REDIS_CLUSTER_PORTS; do redis_pid "$p" >/dev/null || already=0; done
  if ((already)) && redis_cluster_ok; then
    log "already running on $STACK_HOST:$REDIS_PORT and cluster $REDIS_CLUSTER_PORTS"
    return 0
  fi
  redis_need
  redis_start_node "$REDIS_PORT"
  for p in $REDIS_CLUSTER_PORTS; do redis_start_node "$p" cluster; done
  redis_cluster_ensure
  log "ready: $STACK_HOST:$REDIS_PORT, cluster $(echo $REDIS_CLUSTER_PORTS | tr ' ' ',') (logs $LOG_DIR/redis*.log)"
}

redis_down() {
  local SVC=redis p pid name
  for p in $REDIS_PORT $REDIS_CLUSTER_PORTS; do
    name="$(redis_name "$p")"
    if pid="$(redis_pid "$p")"; then stop_pid "$name" "$pid"; else log "$name not running"; fi
    rm -f "$(pidfile "$name")"
    # Nothing is persisted, so the topology must not outlive the data: next `up` recreates it.
    # (A dump.rdb exists only after redis_stop; `up` after `down` must still start empty.)
    rm -f "$REDIS_STATE/$p/nodes.conf" "$REDIS_STATE/$p/dump.rdb"
  done
}

# Outage control: the standalone node saves its keys before it exits and loads them on the next
# start, as a Redis with persistence would; cluster nodes stop as in redis_down (a topology that
# kept its keys could not be recreated blank).
redis_stop() {
  local SVC=redis p pid name
  if pid="$(redis_pid "$REDIS_PORT")"; then
    redis_cli "$REDIS_PORT" shutdown save >/dev/null 2>&1 || true
    wait_exit "$pid" "$STOP_TIMEOUT" || stop_pid redis "$pid"
    log "redis stopped with its keys saved in $REDIS_STATE/$REDIS_PORT (pid $pid)"
  else
    log "redis not running"
  fi
  rm -f "$(pidfile redis)"
  for p in $REDIS_CLUSTER_PORTS; do
    name="$(redis_name "$p")"
    if pid="$(redis_pid "$p")"; then stop_pid "$name" "$pid"; else log "$name not running"; fi
    rm -f "$(pidfile "$name")" "$REDIS_STATE/$p/nodes.conf"
  done
}

redis_status() {
  local p pid ok rc=0 cluster=0
  redis_cluster_ok 2>/dev/null && cluster=1
  for p in $REDIS_PORT $REDIS_CLUSTER_PORTS; do
    ok=0
    if pid="$(redis_pid "$p")" && [[ "$(redis_cli "$p" ping 2>/dev/null)" == PONG ]]; then
      [[ "$p" == "$REDIS_PORT" || $cluster == 1 ]] && ok=1
    fi
    status_line "$(redis_name "$p")" "$STACK_HOST:$p" "$pid" "$ok" || rc=1
  done
  return "$rc"
}

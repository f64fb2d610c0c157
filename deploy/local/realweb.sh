# The real-web bed: real documentation sites nobody on this team wrote (Debian's python3-doc,
# postgresql-doc-15 and git-doc), served as installed by nginx on loopback ports, one per site.
# The Python site has a robots.txt that closes a subtree. Every request is one JSON line in
# $REALWEB_STATE/access.log; $REALWEB_STATE/bed.json tells tests where the sites, files and log are.
# Sourced by stack.sh; defines realweb_up / realweb_down / realweb_status.

REALWEB_STATE="$STACK_DIR/realweb"
REALWEB_SITES=(python postgres git)

realweb_nginx() { command -v nginx 2>/dev/null || { [[ -x /usr/sbin/nginx ]] && echo /usr/sbin/nginx; }; }
realweb_root() { local var="REALWEB_${1^^}_ROOT"; echo "${!var}"; }
realweb_port() { local var="REALWEB_${1^^}_PORT"; echo "${!var}"; }

# Installs nginx and the documentation packages only when missing (needs root, like redis_need).
realweb_need() {
  local missing=() site
  [[ -n "$(realweb_nginx)" ]] || missing+=(nginx-light)
  for site in "${REALWEB_SITES[@]}"; do
    [[ -f "$(realweb_root "$site")/index.html" ]] || missing+=("$(realweb_package "$site")")
  done
  ((${#missing[@]})) || return 0
  if [[ $EUID -eq 0 ]] && command -v apt-get >/dev/null; then
    log "installing Debian packages ${missing[*]} (log $LOG_DIR/realweb-install.log)"
    { DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" \
      || { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"; }; } \
      >>"$LOG_DIR/realweb-install.log" 2>&1 || die "apt-get install ${missing[*]} failed; see $LOG_DIR/realweb-install.log"
  else
    die "missing ${missing[*]}. Install them: sudo apt-get install -y --no-install-recommends ${missing[*]}"
  fi
}

# The package of each site, in REALWEB_DOC_PACKAGES's order (python, postgres, git).
realweb_package() {
  local packages=($REALWEB_DOC_PACKAGES) i
  for i in "${!REALWEB_SITES[@]}"; do [[ "${REALWEB_SITES[$i]}" == "$1" ]] && echo "${packages[$i]}"; done
}

realweb_pid() { proc_pid realweb-nginx "$REALWEB_STATE/nginx.conf" "$REALWEB_STATE/nginx.pid"; }

realweb_write_conf() {
  local conf="$REALWEB_STATE/nginx.conf" site sed_args=()
  sed_args+=(-e "s|@STATE@|$REALWEB_STATE|g" -e "s|@STACK_HOST@|$STACK_HOST|g"
    -e "s|@ROBOTS@|$LOCAL_DIR/realweb/python-robots.txt|g")
  for site in "${REALWEB_SITES[@]}"; do
    sed_args+=(-e "s|@${site^^}_PORT@|$(realweb_port "$site")|g" -e "s|@${site^^}_ROOT@|$(realweb_root "$site")|g")
  done
  sed "${sed_args[@]}" "$LOCAL_DIR/realweb/nginx.conf.template" >"$conf"
  # What tests read: sites (origin, files, robots), and the access log to count requests from.
  {
    printf '{\n  "accessLog": "%s",\n  "sites": [\n' "$REALWEB_STATE/access.log"
    local first=1
    for site in "${REALWEB_SITES[@]}"; do
      ((first)) || printf ',\n'
      first=0
      printf '    {"name": "%s", "origin": "http://%s:%s", "root": "%s", "package": "%s", "robots": %s}' \
        "$site" "$STACK_HOST" "$(realweb_port "$site")" "$(realweb_root "$site")" "$(realweb_package "$site")" \
        "$([[ $site == python ]] && echo "\"$LOCAL_DIR/realweb/python-robots.txt\"" || echo null)"
    done
    printf '\n  ]\n}\n'
  } >"$REALWEB_STATE/bed.json"
}

realweb_up() {
  SVC=realweb
  mkdir -p "$REALWEB_STATE/tmp"
  realweb_need
  if realweb_pid >/dev/null; then log "already running"; return 0; fi
  local site nginx
  for site in "${REALWEB_SITES[@]}"; do
    port_open "$STACK_HOST" "$(realweb_port "$site")" && die "port $(realweb_port "$site") is taken by a process that is not ours"
  done
  realweb_write_conf
  nginx="$(realweb_nginx)"
  "$nginx" -q -t -c "$REALWEB_STATE/nginx.conf" -p "$REALWEB_STATE" 2>"$REALWEB_STATE/error.log" \
    || { cat "$REALWEB_STATE/error.log" >&2; die "nginx refused its configuration"; }
  "$nginx" -c "$REALWEB_STATE/nginx.conf" -p "$REALWEB_STATE" 9>&- || die "nginx failed to start; see $REALWEB_STATE/error.log"
  for site in "${REALWEB_SITES[@]}"; do
    wait_until realweb 20 "$REALWEB_STATE/error.log" "" port_open "$STACK_HOST" "$(realweb_port "$site")"
  done
  log "ready: $(for site in "${REALWEB_SITES[@]}"; do printf '%s http://%s:%s ' "$site" "$STACK_HOST" "$(realweb_port "$site")"; done)(log $REALWEB_STATE/access.log)"
}

realweb_down() {
  SVC=realweb
  local pid
  pid="$(realweb_pid)" || { log "not running"; return 0; }
  kill -QUIT "$pid"
  local deadline=$((SECONDS + STOP_TIMEOUT))
  while kill -0 "$pid" 2>/dev/null; do
    ((SECONDS < deadline)) || { kill -KILL "$pid" 2>/dev/null; break; }
    sleep 0.2
  done
  log "stopped"
}

realweb_status() {
  SVC=realweb
  local pid
  if pid="$(realweb_pid)"; then log "running (pid $pid): $REALWEB_STATE/bed.json"; else log "not running"; return 1; fi
}

# Apicurio Registry: the schema registry data teams' tools read (Confluent-compatible API under
# /apis/ccompat/v6, Apicurio's own under /apis/registry/v2), built once from Maven Central jars,
# its H2 database on local disk so schema ids outlive a restart as Kafka's topics do. Also resolves
# the classpath of a Kafka Connect worker with Apicurio's Avro converter (tests and docs use it).
# Sourced by stack.sh; defines schema_registry_up / schema_registry_down / schema_registry_status.

SCHEMA_REGISTRY_MARK="-Dcrawlerstack.service=schema-registry"
SCHEMA_REGISTRY_STATE="$STACK_DIR/schema-registry"
SCHEMA_REGISTRY_LOG="$LOG_DIR/schema-registry.log"
SCHEMA_REGISTRY_BASE="http://$STACK_HOST:$SCHEMA_REGISTRY_PORT"

schema_registry_app() {
  echo "$CACHE_DIR/apicurio-$APICURIO_VERSION-$(cache_key "$LOCAL_DIR/poms/schema-registry.xml" "$APICURIO_VERSION $APICURIO_QUARKUS_VERSION")"
}

kafka_connect_libs() {
  echo "$CACHE_DIR/kafka-connect-$KAFKA_VERSION-$(cache_key "$LOCAL_DIR/poms/kafka-connect.xml" "$KAFKA_VERSION $APICURIO_VERSION $CONNECT_TRANSFORM_COMMON_VERSION $SLF4J_VERSION")"
}

schema_registry_ready() { curl -fsS --max-time 3 "$SCHEMA_REGISTRY_BASE/apis/ccompat/v6/subjects"; }

# The Connect worker's jars are not needed by the registry itself: resolved beside its start.
kafka_connect_fetch() {
  local SVC=kafka-connect
  mvn_copy_deps "$LOCAL_DIR/poms/kafka-connect.xml" "$(kafka_connect_libs)" -Dkafka.version="$KAFKA_VERSION" \
    -Dapicurio.version="$APICURIO_VERSION" -Dtransform.common.version="$CONNECT_TRANSFORM_COMMON_VERSION" -Dslf4j.version="$SLF4J_VERSION"
}

schema_registry_up() {
  local SVC=schema-registry pid app connect
  kafka_connect_fetch &
  connect=$!
  if pid="$(proc_pid schema-registry "$SCHEMA_REGISTRY_MARK")"; then
    wait_until "schema-registry" 60 "$SCHEMA_REGISTRY_LOG" "$pid" schema_registry_ready
    log "already running (pid $pid) on $SCHEMA_REGISTRY_BASE"
    wait "$connect" || die "Kafka Connect jars could not be resolved"
    return 0
  fi
  need_java
  port_open "$STACK_HOST" "$SCHEMA_REGISTRY_PORT" && die "port $SCHEMA_REGISTRY_PORT is taken by a process that is not ours"
  app="$(schema_registry_app)"
  mvn_build "$LOCAL_DIR/poms/schema-registry.xml" "$app" -Dapicurio.version="$APICURIO_VERSION" \
    -Dquarkus.version="$APICURIO_QUARKUS_VERSION" -Dmvn.dependency.plugin="$MVN_DEPENDENCY_PLUGIN"
  mkdir -p "$SCHEMA_REGISTRY_STATE"
  # REGISTRY_DATASOURCE_URL is read by the application's own settings (H2 in memory by default).
  # One worker thread: H2 1.4 under this release fails concurrent registrations (four services
  # starting at once got 500s and 10 s lock waits); serialized, 32 concurrent ones took 1.3 s.
  start_bg schema-registry "$SCHEMA_REGISTRY_LOG" "$JAVA_BIN" "$SCHEMA_REGISTRY_MARK" -Xms64m -Xmx256m -XX:+UseSerialGC \
    -Djava.awt.headless=true -Dquarkus.thread-pool.core-threads=1 -Dquarkus.thread-pool.max-threads=1 -Dquarkus.http.host="$STACK_HOST" -Dquarkus.http.port="$SCHEMA_REGISTRY_PORT" \
    -DREGISTRY_DATASOURCE_URL="jdbc:h2:file:$SCHEMA_REGISTRY_STATE/registry" \
    -Djava.io.tmpdir="$SCHEMA_REGISTRY_STATE" -jar "$app/schema-registry-1-runner.jar"
  pid="$(cat "$(pidfile schema-registry)")"
  wait_until "schema-registry" 90 "$SCHEMA_REGISTRY_LOG" "$pid" schema_registry_ready
  wait "$connect" || die "Kafka Connect jars could not be resolved"
  log "ready on $SCHEMA_REGISTRY_BASE/apis/ccompat/v6 (pid $pid, log $SCHEMA_REGISTRY_LOG)"
}

schema_registry_down() {
  local SVC=schema-registry pid
  if pid="$(proc_pid schema-registry "$SCHEMA_REGISTRY_MARK")"; then
    stop_pid schema-registry "$pid"
  else
    log "not running"
  fi
  rm -f "$(pidfile schema-registry)"
}

schema_registry_status() {
  local pid ok=0
  pid="$(proc_pid schema-registry "$SCHEMA_REGISTRY_MARK")" && schema_registry_ready >/dev/null 2>&1 && ok=1
  status_line schema-registry "$STACK_HOST:$SCHEMA_REGISTRY_PORT" "$pid" "$ok"
}

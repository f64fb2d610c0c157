#!/usr/bin/env bash
# Prints the environment the app uses to reach the local stack, as export lines:
#   eval "$(deploy/local/stack-env.sh)"
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/ports.env"
. "$(dirname "${BASH_SOURCE[0]}")/port-offset.sh"

cluster_nodes=""
for p in $REDIS_CLUSTER_PORTS; do cluster_nodes+="${cluster_nodes:+,}$STACK_HOST:$p"; done

cat <<ENV
export KAFKA_BROKERS=$STACK_HOST:$KAFKA_PORT
export ELASTICSEARCH_URL=http://$STACK_HOST:$ES_HTTP_PORT
export HBASE_REST_URL=http://$STACK_HOST:$HBASE_REST_PORT
export HBASE_THRIFT=$STACK_HOST:$HBASE_THRIFT_PORT
export HBASE_ZOOKEEPER_QUORUM=$STACK_HOST:$HBASE_ZK_PORT
export REDIS_URL=redis://$STACK_HOST:$REDIS_PORT
export REDIS_CLUSTER_NODES=$cluster_nodes
export SCHEMA_REGISTRY_URL=http://$STACK_HOST:$SCHEMA_REGISTRY_PORT/apis/ccompat/v6
export OTEL_COLLECTOR_URL=http://$STACK_HOST:$OTLP_HTTP_PORT
ENV
# An offset instance also names itself, so stack.sh and tests that stop components find it again.
if ((STACK_PORT_OFFSET)); then
  echo "export CRAWLER_STACK_PORT_OFFSET=$STACK_PORT_OFFSET"
  echo "export CRAWLER_STACK_DIR=${CRAWLER_STACK_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/.stack/port-offset-$STACK_PORT_OFFSET}"
fi

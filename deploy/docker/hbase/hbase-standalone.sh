#!/bin/bash
# Runs HBase standalone and its REST gateway in one container: the gateway reaches the embedded
# ZooKeeper and regionserver on loopback. Either JVM exiting stops the container.
set -uo pipefail

HBASE_HOME=${HBASE_HOME:-/opt/hbase}
# The JDK 17 flags bin/hbase would add (deploy/local/hbase-jvm-flags.txt, as the local stack uses).
mapfile -t jdk_flags < <(grep -Ev '^[[:space:]]*(#|$)' "$HBASE_HOME/conf/hbase-jvm-flags.txt")
jvm=(-XX:+UseG1GC -Djava.net.preferIPv4Stack=true -Djava.awt.headless=true
  "${jdk_flags[@]}"
  "-Dlog4j2.configurationFile=file:$HBASE_HOME/conf/log4j2.properties"
  -cp "$HBASE_HOME/conf:$HBASE_HOME/lib/*")
master_class=org.apache.hadoop.hbase.master.HMaster

java -Xms64m -Xmx512m "${jvm[@]}" "$master_class" start &
master=$!
# The gateway only needs ZooKeeper to find the master.
until (exec 3<>/dev/tcp/127.0.0.1/2181) 2>/dev/null; do
  kill -0 "$master" 2>/dev/null || exit 1
  sleep 1
done
java -Xms64m -Xmx256m "${jvm[@]}" org.apache.hadoop.hbase.rest.RESTServer start &
rest=$!

stopping=0
stop() {
  stopping=1
  kill -TERM "$rest" 2>/dev/null
  # Like stop-hbase.sh: the master closes every region (memstores flushed) before it exits;
  # a plain SIGTERM may take ZooKeeper down first and leave the regionserver retrying.
  timeout 30 java -Xmx128m "${jvm[@]}" "$master_class" stop --shutDownCluster >/dev/null 2>&1 || kill -TERM "$master" 2>/dev/null
  wait
}
trap stop TERM INT
wait -n
status=$?
((stopping)) && exit 0
stop
exit "$((status == 0 ? 1 : status))"

#!/bin/bash
# Runs HBase standalone and its REST gateway in one container: the gateway reaches the embedded
# ZooKeeper and regionserver on loopback. Either JVM exiting stops the container.
set -uo pipefail

HBASE_HOME=${HBASE_HOME:-/opt/hbase}
# What bin/hbase adds on JDK 17: netty and Hadoop reach into JDK internals.
jvm=(-XX:+UseG1GC -Djava.net.preferIPv4Stack=true -Djava.awt.headless=true
  -Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true
  --add-modules jdk.unsupported
  --add-opens java.base/java.io=ALL-UNNAMED --add-opens java.base/java.nio=ALL-UNNAMED
  --add-opens java.base/sun.nio.ch=ALL-UNNAMED --add-opens java.base/java.lang=ALL-UNNAMED
  --add-opens java.base/jdk.internal.ref=ALL-UNNAMED --add-opens java.base/java.lang.reflect=ALL-UNNAMED
  --add-opens java.base/java.util=ALL-UNNAMED --add-opens java.base/java.util.concurrent=ALL-UNNAMED
  --add-exports java.base/jdk.internal.misc=ALL-UNNAMED --add-exports java.base/sun.net.dns=ALL-UNNAMED
  --add-exports java.base/sun.net.util=ALL-UNNAMED --add-exports java.security.jgss/sun.security.krb5=ALL-UNNAMED
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

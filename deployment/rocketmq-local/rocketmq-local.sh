#!/usr/bin/env bash
# Local RocketMQ 5.3.3 (name server + broker) as two separate JVMs, built from Maven Central jars.
#
#   rocketmq-local.sh start | stop | start-broker | stop-broker | status
#   rocketmq-local.sh add-user NAME PASSWORD [RESOURCE=ACTIONS ...]   (ACL on: a user with these rights only)
#
# Environment (defaults in brackets):
#   ROCKETMQ_LOCAL_DIR               state dir: conf, store, logs, pid files [<script dir>/target/run]
#   NAMESRV_PORT                     [9876]
#   BROKER_PORT                      broker listenPort; the broker also binds BROKER_PORT-2 [10911]
#   HA_PORT                          haListenPort (binds 0.0.0.0) [BROKER_PORT+1]
#   TRANSACTION_TIMEOUT_MS           first check of a half message after [6000]
#   TRANSACTION_CHECK_INTERVAL_MS    broker check pass interval [30000]
#   TRANSACTION_CHECK_MAX            checks before a half message is discarded [15]
#   TRANSACTION_OP_BATCH_INTERVAL_MS [200] (the broker default 3000 causes re-checks after COMMIT)
#   NAMESRV_HEAP / BROKER_HEAP       [256m] / [512m]
#   ROCKETMQ_JAVA_OPTS               extra JVM options for both JVMs []
#   START_TIMEOUT_S                  wait for each port [60]
#   STOP_GRACE_S                     SIGTERM, then SIGKILL after this many seconds; 0 = SIGKILL at once
#                                    (a graceful broker shutdown takes ~13 s) [30]
#
# Authentication and authorization (ACL 2.0), on when ACL_ADMIN_USER is set:
#   ACL_ADMIN_USER, ACL_ADMIN_PASSWORD    the broker's super user (its own requests and the admin commands)
#   ACL_SERVICE_USER, ACL_SERVICE_PASSWORD  created at "start": the order service's user, with the rights the
#                                    service needs and no others (SERVICE_GRANTS)
#   SERVICE_GRANTS                   [Topic:order-expiry=Pub,Sub Topic:order-paid=Pub Topic:order-refunded=Pub
#                                    Group:order-expiry-consumer=Sub Topic:RMQ_SYS_TRANS_HALF_TOPIC=Pub]
#                                    (the last: 5.3 authorizes a check-back's answer as a publish to that topic)
# TLS on the name server and the broker (enforcing: no plaintext client is served), on when TLS_CERT is set:
#   TLS_CERT, TLS_KEY                PEM certificate (chain) and PKCS#8 key the two servers present
#   TLS_CA                           PEM authority the broker (a client of the name server) and add-user trust
#   TLS_MODE                         [enforcing] or permissive: plaintext clients served too
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
RUN_DIR="${ROCKETMQ_LOCAL_DIR:-$SCRIPT_DIR/target/run}"
NAMESRV_PORT="${NAMESRV_PORT:-9876}"
BROKER_PORT="${BROKER_PORT:-10911}"
HA_PORT="${HA_PORT:-$((BROKER_PORT + 1))}"
TRANSACTION_TIMEOUT_MS="${TRANSACTION_TIMEOUT_MS:-6000}"
TRANSACTION_CHECK_INTERVAL_MS="${TRANSACTION_CHECK_INTERVAL_MS:-30000}"
TRANSACTION_CHECK_MAX="${TRANSACTION_CHECK_MAX:-15}"
TRANSACTION_OP_BATCH_INTERVAL_MS="${TRANSACTION_OP_BATCH_INTERVAL_MS:-200}"
NAMESRV_HEAP="${NAMESRV_HEAP:-256m}"
BROKER_HEAP="${BROKER_HEAP:-512m}"
START_TIMEOUT_S="${START_TIMEOUT_S:-60}"
STOP_GRACE_S="${STOP_GRACE_S:-30}"
ACL_ADMIN_USER="${ACL_ADMIN_USER:-}"
ACL_ADMIN_PASSWORD="${ACL_ADMIN_PASSWORD:-}"
ACL_SERVICE_USER="${ACL_SERVICE_USER:-}"
ACL_SERVICE_PASSWORD="${ACL_SERVICE_PASSWORD:-}"
SERVICE_GRANTS="${SERVICE_GRANTS:-Topic:order-expiry=Pub,Sub Topic:order-paid=Pub Topic:order-refunded=Pub Group:order-expiry-consumer=Sub Topic:RMQ_SYS_TRANS_HALF_TOPIC=Pub}"
TLS_CERT="${TLS_CERT:-}"
TLS_KEY="${TLS_KEY:-}"
TLS_CA="${TLS_CA:-}"
TLS_MODE="${TLS_MODE:-enforcing}"
CLASSPATH_FILE="$SCRIPT_DIR/target/classpath.txt"
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"

log() { echo "rocketmq-local: $*"; }
die() { echo "rocketmq-local: $*" >&2; exit 1; }

mkdir -p "$RUN_DIR"
RUN_DIR="$(cd "$RUN_DIR" && pwd)"

ensure_classpath() {
  if [[ ! -s "$CLASSPATH_FILE" ]]; then
    log "building classpath (mvn dependency:build-classpath)"
    # Prefer the local repository; fall back to online resolution.
    if ! "$SCRIPT_DIR/../../mvnw" -q -B -o -f "$SCRIPT_DIR/pom.xml" dependency:build-classpath >/dev/null 2>&1; then
      "$SCRIPT_DIR/../../mvnw" -q -B -f "$SCRIPT_DIR/pom.xml" dependency:build-classpath >/dev/null \
        || die "could not build the classpath"
    fi
    [[ -s "$CLASSPATH_FILE" ]] || die "missing $CLASSPATH_FILE"
  fi
}

write_conf() {
  mkdir -p "$RUN_DIR/home" "$RUN_DIR/store" "$RUN_DIR/logs"
  cat > "$RUN_DIR/namesrv.conf" <<CONF
listenPort=$NAMESRV_PORT
bindAddress=127.0.0.1
rocketmqHome=$RUN_DIR/home
kvConfigPath=$RUN_DIR/namesrv-kv.json
CONF
  cat > "$RUN_DIR/broker.conf" <<CONF
brokerClusterName=LocalCluster
brokerName=local-broker
brokerId=0
brokerRole=ASYNC_MASTER
flushDiskType=ASYNC_FLUSH
brokerIP1=127.0.0.1
bindAddress=127.0.0.1
listenPort=$BROKER_PORT
haListenPort=$HA_PORT
namesrvAddr=127.0.0.1:$NAMESRV_PORT
rocketmqHome=$RUN_DIR/home
storePathRootDir=$RUN_DIR/store
storePathCommitLog=$RUN_DIR/store/commitlog
autoCreateTopicEnable=true
autoCreateSubscriptionGroup=true
defaultTopicQueueNums=4
mappedFileSizeCommitLog=16777216
mappedFileSizeConsumeQueue=60000
mappedFileSizeTimerLog=8388608
maxHashSlotNum=10000
maxIndexNum=40000
diskMaxUsedSpaceRatio=95
transactionTimeOut=$TRANSACTION_TIMEOUT_MS
transactionCheckInterval=$TRANSACTION_CHECK_INTERVAL_MS
transactionCheckMax=$TRANSACTION_CHECK_MAX
transactionOpBatchInterval=$TRANSACTION_OP_BATCH_INTERVAL_MS
# The service sends no timer messages and does not pop: without the timer wheel the idle broker uses
# about 6% of a core instead of 9-10% and 110 MB less memory.
timerWheelEnable=false
CONF
  if [[ -n "$ACL_ADMIN_USER" ]]; then
    cat >> "$RUN_DIR/broker.conf" <<CONF
# ACL 2.0: every request authenticated, every publish and subscription authorized by the user's ACL.
authenticationEnabled=true
authenticationProvider=org.apache.rocketmq.auth.authentication.provider.DefaultAuthenticationProvider
authenticationMetadataProvider=org.apache.rocketmq.auth.authentication.provider.LocalAuthenticationMetadataProvider
authorizationEnabled=true
authorizationProvider=org.apache.rocketmq.auth.authorization.provider.DefaultAuthorizationProvider
authorizationMetadataProvider=org.apache.rocketmq.auth.authorization.provider.LocalAuthorizationMetadataProvider
initAuthenticationUser={"username":"$ACL_ADMIN_USER","password":"$ACL_ADMIN_PASSWORD"}
innerClientAuthenticationCredentials={"accessKey":"$ACL_ADMIN_USER","secretKey":"$ACL_ADMIN_PASSWORD"}
CONF
  fi
}

# JVM options that turn TLS on: both servers present TLS_CERT and refuse plaintext (unless TLS_MODE=permissive); as
# clients (the broker of the name server, add-user of the broker) they verify the other side against TLS_CA.
tls_opts() {
  [[ -n "$TLS_CERT" ]] || return 0
  printf '%s ' "-Dtls.server.mode=$TLS_MODE" "-Dtls.test.mode.enable=false" "-Dtls.config.file=$RUN_DIR/no-tls.properties" \
    "-Dtls.server.certPath=$TLS_CERT" "-Dtls.server.keyPath=$TLS_KEY" "-Dtls.server.need.client.auth=none" \
    "-Dtls.enable=true" "-Dtls.client.authServer=true" "-Dtls.client.trustCertPath=$TLS_CA"
}

pid_alive() { # $1 = pid file; also checks the pid still is one of our JVMs (pids get reused)
  local pid
  [[ -s "$1" ]] || return 1
  pid="$(cat "$1")"
  kill -0 "$pid" 2>/dev/null && ps -p "$pid" -o args= 2>/dev/null | grep -qF -- "$RUN_DIR/"
}

port_open() { # $1 = port
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

wait_port() { # $1 = name, $2 = port, $3 = pid file
  local deadline=$((SECONDS + START_TIMEOUT_S)) pid
  pid="$(cat "$3")"
  until port_open "$2"; do
    # Only whether it still runs: until the launching shell's child has exec'ed the JVM (a while on a loaded host),
    # its command line is the shell's, which pid_alive would take for another process.
    kill -0 "$pid" 2>/dev/null || die "$1 exited during start-up, see $RUN_DIR/logs/$1.out"
    (( SECONDS < deadline )) || die "$1 not listening on $2 after ${START_TIMEOUT_S}s, see $RUN_DIR/logs/$1.out"
    sleep 0.2
  done
}

launch() { # $1 = name, $2 = heap, $3 = main class, $4 = conf, $5 = port, $6 = logback file
  # Both JVMs share one classpath: name each one's logback file, or the name server picks rmq.broker.logback.xml
  # and writes into the broker's log files.
  local pidfile="$RUN_DIR/$1.pid"
  if pid_alive "$pidfile"; then
    log "$1 already running (pid $(cat "$pidfile"))"
    return 0
  fi
  ! port_open "$5" || die "port $5 for $1 is already in use by another process"
  ensure_classpath
  (
    cd "$RUN_DIR"
    ROCKETMQ_HOME="$RUN_DIR/home" nohup "$JAVA" \
      "-Xms$2" "-Xmx$2" -XX:+UseG1GC -XX:MaxDirectMemorySize=256m -XX:-OmitStackTraceInFastThrow \
      "-Duser.home=$RUN_DIR" "-Drocketmq.home.dir=$RUN_DIR/home" -Djava.net.preferIPv4Stack=true \
      "-Drmq.logback.configurationFile=$6" \
      $(tls_opts) ${ROCKETMQ_JAVA_OPTS:-} \
      -cp "@$CLASSPATH_FILE" "$3" -c "$4" \
      > "$RUN_DIR/logs/$1.out" 2>&1 < /dev/null &
    echo $! > "$pidfile"
  )
}

stop_one() { # $1 = name
  local pidfile="$RUN_DIR/$1.pid" pid
  if ! pid_alive "$pidfile"; then
    rm -f "$pidfile"
    return 0
  fi
  pid="$(cat "$pidfile")"
  if (( STOP_GRACE_S > 0 )); then
    kill "$pid" 2>/dev/null || true
  else
    kill -9 "$pid" 2>/dev/null || true
  fi
  local deadline=$((SECONDS + STOP_GRACE_S))
  while kill -0 "$pid" 2>/dev/null; do
    if (( SECONDS >= deadline )); then
      kill -9 "$pid" 2>/dev/null || true
    fi
    sleep 0.1
  done
  rm -f "$pidfile"
  log "$1 stopped"
}

start_namesrv() {
  launch namesrv "$NAMESRV_HEAP" org.apache.rocketmq.namesrv.NamesrvStartup "$RUN_DIR/namesrv.conf" "$NAMESRV_PORT" \
    rmq.namesrv.logback.xml
  wait_port namesrv "$NAMESRV_PORT" "$RUN_DIR/namesrv.pid"
}

start_broker() {
  launch broker "$BROKER_HEAP" org.apache.rocketmq.broker.BrokerStartup "$RUN_DIR/broker.conf" "$BROKER_PORT" \
    "file:$SCRIPT_DIR/broker-logback.xml"
  wait_port broker "$BROKER_PORT" "$RUN_DIR/broker.pid"
}

# A user of the broker with exactly these rights (RESOURCE=ACTIONS, e.g. Topic:order-paid=Pub), made as the super
# user through the broker's admin API (BrokerUsers.java, run from source: what mqadmin's createUser and createAcl
# do, in one JVM instead of one per command), over TLS when it is on.
add_user() { # $1 = name, $2 = password, rest = grants
  [[ -n "$ACL_ADMIN_USER" ]] || die "add-user needs ACL on (ACL_ADMIN_USER)"
  ensure_classpath
  "$JAVA" -Xmx128m "-Duser.home=$RUN_DIR" "-Dnamesrv=127.0.0.1:$NAMESRV_PORT" \
    "-Drmq.logback.configurationFile=$SCRIPT_DIR/broker-logback.xml" $(tls_opts) \
    -cp "@$CLASSPATH_FILE" "$SCRIPT_DIR/BrokerUsers.java" \
    "127.0.0.1:$BROKER_PORT" "$ACL_ADMIN_USER" "$ACL_ADMIN_PASSWORD" "$@" \
    || die "could not create user $1"
}

status_one() { # $1 = name, $2 = port
  if pid_alive "$RUN_DIR/$1.pid"; then
    echo "$1: running (pid $(cat "$RUN_DIR/$1.pid"), port $2)"
  else
    echo "$1: stopped"
    return 1
  fi
}

# Everything runs from main, read in full before it starts: editing this file while an instance runs is safe.
main() {
  case "${1:-}" in
    start)
      write_conf
      start_namesrv
      start_broker
      if [[ -n "$ACL_SERVICE_USER" ]]; then
        # shellcheck disable=SC2086 # one grant per word
        add_user "$ACL_SERVICE_USER" "$ACL_SERVICE_PASSWORD" $SERVICE_GRANTS
      fi
      log "name server 127.0.0.1:$NAMESRV_PORT, broker 127.0.0.1:$BROKER_PORT (state $RUN_DIR)"
      ;;
    add-user)
      shift
      (( $# >= 2 )) || die "usage: add-user NAME PASSWORD [RESOURCE=ACTIONS ...]"
      add_user "$@"
      ;;
    start-broker)
      # Reuses broker.conf as written by "start" (the broker itself rewrites it, keeping a .bak, when its config
      # is changed at run time, e.g. by LocalRocketMq's registration nudge).
      [[ -f "$RUN_DIR/broker.conf" ]] || write_conf
      start_broker
      log "broker 127.0.0.1:$BROKER_PORT"
      ;;
    stop)
      stop_one broker
      stop_one namesrv
      ;;
    stop-broker)
      stop_one broker
      ;;
    status)
      local rc=0
      status_one namesrv "$NAMESRV_PORT" || rc=1
      status_one broker "$BROKER_PORT" || rc=1
      return $rc
      ;;
    *)
      echo "usage: $(basename "$0") start|stop|start-broker|stop-broker|status|add-user" >&2
      return 2
      ;;
  esac
}

main "$@"; exit $?

#!/usr/bin/env bash
# The whole service on this machine, for trying it out and developing it: one command on a machine with
# a JDK 17+ and root (or sudo).
#
#   ./run-dev.sh [-Dproperty=value ...]      (passed to quarkus:dev, e.g. -Dshop.alipay.sign-mode=certificate)
#
# 1. MariaDB and Redis (.ci/services.sh installs them from Debian's packages when missing, starts them
#    when they are not running, creates the databases);
# 2. the RocketMQ name server and broker (deployment/rocketmq-local, jars from Maven Central);
# 3. the service in dev mode: demo catalog, Alipay sandbox, generated keys, live reload.
# It waits until each part answers, prints the URLs, and on Ctrl-C stops what it started, and only that:
# a database, Redis or broker that was already running is left running.
#
# With Docker or Podman, `./mvnw quarkus:dev -Dquarkus.profile=dev,compose` starts the same services in
# containers instead (compose-devservices.yml).
#
# Environment: READY_TIMEOUT_S (default 900: the first run downloads Maven and the dependencies).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

HTTP_PORT=8080
MANAGEMENT_PORT=9000
DB_PORT=3306
REDIS_PORT=6379
NAMESRV_PORT=9876
BROKER_PORT=10911
READY_TIMEOUT_S="${READY_TIMEOUT_S:-900}"
ROCKETMQ=deployment/rocketmq-local/rocketmq-local.sh

log() { echo "run-dev: $*"; }
die() { echo "run-dev: $*" >&2; exit 1; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# The status code of a GET, without curl (a fresh machine may lack it); empty when nothing answers.
http_status() { # $1 = port, $2 = path
  (
    exec 3<>"/dev/tcp/127.0.0.1/$1" || exit 0
    printf 'GET %s HTTP/1.0\r\nHost: localhost\r\n\r\n' "$2" >&3
    timeout 5 head -n 1 <&3 | awk '{print $2}'
  ) 2>/dev/null
}

http_body() { # $1 = port, $2 = path
  (
    exec 3<>"/dev/tcp/127.0.0.1/$1" || exit 0
    printf 'GET %s HTTP/1.0\r\nHost: localhost\r\n\r\n' "$2" >&3
    timeout 5 cat <&3
  ) 2>/dev/null
}

# ---- stopping exactly what was started ------------------------------------------------------------
started_mariadb=false
started_redis=false
started_namesrv=false
started_broker=false
service_pid=

stop_all() {
  trap - EXIT INT TERM
  if [[ -n "$service_pid" ]] && kill -0 "$service_pid" 2>/dev/null; then
    log "stopping the service"
    # Its own process group (setsid below): Maven and the dev-mode JVM it forked, nothing else.
    kill -TERM -- "-$service_pid" 2>/dev/null || true
    for _ in $(seq 1 300); do
      kill -0 -- "-$service_pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL -- "-$service_pid" 2>/dev/null || true
  fi
  if $started_broker && $started_namesrv; then
    "$ROCKETMQ" stop || true
  elif $started_broker; then
    "$ROCKETMQ" stop-broker || true
  fi
  if $started_redis; then
    log "stopping Redis"
    redis-cli -h 127.0.0.1 -p "$REDIS_PORT" shutdown nosave >/dev/null 2>&1 || true
  fi
  if $started_mariadb; then
    log "stopping MariaDB"
    as_root mysqladmin --protocol=socket -uroot shutdown || true
  fi
}
trap stop_all EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---- checks before starting anything --------------------------------------------------------------
command -v java >/dev/null 2>&1 || die "no java on the PATH: install a JDK 17 or newer"
for port in "$HTTP_PORT" "$MANAGEMENT_PORT"; do
  ! port_open "$port" || die "port $port is in use: is the service running already?"
done
if port_open "$BROKER_PORT" && ! port_open "$NAMESRV_PORT"; then
  die "a broker listens on $BROKER_PORT but no name server on $NAMESRV_PORT: stop that broker first"
fi

# ---- 1. MariaDB and Redis -------------------------------------------------------------------------
port_open "$DB_PORT" || started_mariadb=true
port_open "$REDIS_PORT" || started_redis=true
bash .ci/services.sh

# ---- 2. RocketMQ ----------------------------------------------------------------------------------
if port_open "$NAMESRV_PORT" && port_open "$BROKER_PORT"; then
  log "using the RocketMQ name server and broker already running on $NAMESRV_PORT and $BROKER_PORT"
elif port_open "$NAMESRV_PORT"; then
  started_broker=true
  "$ROCKETMQ" start-broker
else
  started_namesrv=true
  started_broker=true
  "$ROCKETMQ" start
fi

# ---- 3. The service in dev mode -------------------------------------------------------------------
log "starting the service in dev mode (the first run downloads Maven and the dependencies)"
# setsid: a process group of its own, so that Ctrl-C reaches this script, which then stops the group.
# No console: nobody types into it here, and it would wait for the terminal.
# No analytics question either: it would wait for an answer nobody can type.
setsid ./mvnw -B quarkus:dev -Dquarkus.console.enabled=false -Dquarkus.analytics.disabled=true "$@" < /dev/null &
service_pid=$!

deadline=$((SECONDS + READY_TIMEOUT_S))
until [[ "$(http_status "$MANAGEMENT_PORT" /q/health/ready)" == 200 ]]; do
  kill -0 "$service_pid" 2>/dev/null || die "dev mode ended during start-up (see its output above)"
  (( SECONDS < deadline )) || die "the service was not ready after ${READY_TIMEOUT_S}s"
  sleep 1
done
# The broker registers at the name server a few seconds after it listens; orders placed before that are
# still closed in time (by the sweep), but the prompt path needs the broker.
for _ in $(seq 1 30); do
  http_body "$MANAGEMENT_PORT" /q/health/group/dependencies | grep -q '"rocketmq" *: *"UP"' && break
  sleep 1
done
http_body "$MANAGEMENT_PORT" /q/health/group/dependencies | grep -q '"rocketmq" *: *"UP"' \
  || log "warning: the service does not reach RocketMQ yet (see /q/health/group/dependencies)"

cat <<URLS

  Order service in dev mode
  -------------------------
  API                  http://localhost:$HTTP_PORT/api/skus
  Checkout page        http://localhost:$HTTP_PORT/checkout/
  Alipay sandbox       http://localhost:$HTTP_PORT/sandbox/alipay   (the buyer's side: scan and pay)
  Swagger UI           http://localhost:$HTTP_PORT/q/swagger-ui
  OpenAPI document     http://localhost:$HTTP_PORT/q/openapi
  Dev UI               http://localhost:$HTTP_PORT/q/dev-ui
  Health               http://localhost:$MANAGEMENT_PORT/q/health
  Metrics              http://localhost:$MANAGEMENT_PORT/q/metrics
  A member token       curl -s -XPOST localhost:$HTTP_PORT/dev/token -H 'Content-Type: application/json' -d '{"memberId":"alice"}'

  Ctrl-C stops the service and whatever of MariaDB, Redis and RocketMQ this script started.

URLS

wait "$service_pid" || true
log "dev mode ended"

#!/usr/bin/env bash
# Starts MariaDB and Redis when they are not running (installing them from Debian's packages
# when absent, with chromium and its driver for the browser test, mysqlslap and wrk for the
# benchmark, and promtool for the alert rules' tests), then creates the application's databases and user. Safe to run again.
set -euo pipefail

DB_USER=${DB_USER:-orders}
DB_PASSWORD=${DB_PASSWORD:-orders}

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

install_if_missing() {
  local missing=()
  command -v mariadbd >/dev/null 2>&1 || [ -x /usr/sbin/mariadbd ] || missing+=(mariadb-server)
  command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
  # The checkout page's browser test drives these (a browser download at test time cannot work here).
  [ -x /usr/bin/chromium ] || missing+=(chromium)
  [ -x /usr/bin/chromedriver ] || missing+=(chromium-driver)
  # The benchmark's database limit and closed-model load (bench/run.sh, BenchmarkIT).
  command -v mysqlslap >/dev/null 2>&1 || missing+=(mariadb-client)
  command -v wrk >/dev/null 2>&1 || missing+=(wrk)
  # The alert rules' unit tests (promtool ships with Prometheus).
  command -v promtool >/dev/null 2>&1 || missing+=(prometheus)
  if [ ${#missing[@]} -gt 0 ]; then
    echo "installing ${missing[*]}"
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

start_mariadb() {
  if mysqladmin --protocol=socket -uroot ping >/dev/null 2>&1 || mysqladmin -h127.0.0.1 -uroot ping >/dev/null 2>&1; then
    return
  fi
  echo "starting MariaDB"
  as_root install -d -o mysql -g mysql /run/mysqld
  if [ ! -d /var/lib/mysql/mysql ]; then
    as_root mariadb-install-db --user=mysql --datadir=/var/lib/mysql >/dev/null
  fi
  as_root start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd -- --user=mysql
  for _ in $(seq 1 60); do
    mysqladmin --protocol=socket -uroot ping >/dev/null 2>&1 && return
    sleep 0.5
  done
  echo "MariaDB did not start" >&2
  exit 1
}

start_redis() {
  if redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
    return
  fi
  echo "starting Redis"
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no >/dev/null
  for _ in $(seq 1 40); do
    redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && return
    sleep 0.25
  done
  echo "Redis did not start" >&2
  exit 1
}

mysql_root() {
  # The socket works where root is socket-only; TCP where root has an empty password.
  mysql --protocol=socket -uroot "$@" 2>/dev/null || mysql -h127.0.0.1 -uroot "$@"
}

create_databases() {
  mysql_root <<SQL
CREATE DATABASE IF NOT EXISTS orders CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
CREATE DATABASE IF NOT EXISTS orders_test CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
CREATE DATABASE IF NOT EXISTS orders_it CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
CREATE USER IF NOT EXISTS '${DB_USER}'@'localhost' IDENTIFIED BY '${DB_PASSWORD}';
CREATE USER IF NOT EXISTS '${DB_USER}'@'127.0.0.1' IDENTIFIED BY '${DB_PASSWORD}';
CREATE USER IF NOT EXISTS '${DB_USER}'@'%' IDENTIFIED BY '${DB_PASSWORD}';
GRANT ALL PRIVILEGES ON orders.* TO '${DB_USER}'@'localhost', '${DB_USER}'@'127.0.0.1', '${DB_USER}'@'%';
GRANT ALL PRIVILEGES ON orders_test.* TO '${DB_USER}'@'localhost', '${DB_USER}'@'127.0.0.1', '${DB_USER}'@'%';
GRANT ALL PRIVILEGES ON orders_it.* TO '${DB_USER}'@'localhost', '${DB_USER}'@'127.0.0.1', '${DB_USER}'@'%';
FLUSH PRIVILEGES;
SQL
}

install_if_missing
start_mariadb
start_redis
create_databases
echo "MariaDB and Redis ready"

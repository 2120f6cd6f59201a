#!/usr/bin/env bash
# Idle memory of native executables side by side:  bench/idle-rss.sh <executable> [<executable> ...]
# e.g. the executable of this build against one built from another commit (copied out of its target/ first).
# Starts each in turn, alternating, on one stack of the benchmark's own (MariaDB, Redis, RocketMQ, the Alipay
# sandbox), with the deployment's options (-Xmx256m -Xmn32m), and measures each start 10 s after it is ready: VmRSS,
# the resident pages of the executable's code, read-only and writable image heap, and anonymous memory, and its page
# faults; then each executable's median. BENCH_JAVA_OPTS: -Dbench.idle-rss.rounds=4, -Dbench.idle-rss.settle-seconds=10.
# Needs the test classes and their classpath: run bench/run.sh once before (it builds them).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || { echo "usage: bench/idle-rss.sh <native executable> [<native executable> ...]" >&2; exit 2; }
[ -f target/test-classpath.txt ] || { echo "no target/test-classpath.txt: run bench/run.sh once first" >&2; exit 2; }
# The JBoss log manager (on the classpath through the sandbox) must be the JDK logging manager from the start.
# shellcheck disable=SC2086
exec java -Djava.util.logging.manager=org.jboss.logmanager.LogManager ${BENCH_JAVA_OPTS:-} \
  -cp "target/test-classes:target/classes:$(cat target/test-classpath.txt)" com.shop.orders.bench.IdleRss "$@"

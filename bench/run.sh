#!/usr/bin/env bash
# The benchmark in one command:  bench/run.sh [full|quick] [phases]
# (phases: a comma-separated choice of watch, notify, wallets, placement, flash, tracing, cold, tls and soak; all but
# soak by default; wallets: Alipay and WeChat Pay side by side in interleaved rounds, notify to PAID, CPU per prepay
# and per notify, lost-notify detection; -Dbench.wallets-rounds=N sets its counted rounds)
# The soak alone:  bench/run.sh soak [full|quick] [minutes]
# (an hour at the full size, a minute at the quick one; minutes, or -Dbench.soak-minutes=N in BENCH_JAVA_OPTS, sets
# its length: mixed traffic at a fixed rate, per minute requests, errors, p99, RSS and GC, then the invariants)
# Whether a phase holds on its own:  bench/run.sh isolation <flash|placement> [pairs] [full|quick]
# (the phase alone and after the phases before it, interleaved, pairs times each; medians against the noise)
# BENCH_JAVA_OPTS is passed to the benchmark's JVM: -Dbench.watch-levels=10000 holds one watch level only,
# -Dbench.concurrencies=32 runs placement at one concurrency only (for before-and-after comparisons),
# -Dbench.cold-variants=default,appcds,c1-only,jdk25,jdk25-aot compares JVM options in the cold-start phase,
# -Dbench.cold-rounds=2 sets its rounds.
# BENCH_ARTIFACT=native benchmarks the native executable instead of the jar (built with the shared toolchain,
# ../shared/tools/native-image, or the GraalVM/Mandrel that GRAALVM_HOME names).
# The native executable beside the jar in one run:  bench/run.sh compare [full|quick] [phases|all] [rounds]
# (builds both; each round runs the benchmark on each, in alternating order; medians and native/JVM ratios; "all" is
# the default phases, without the soak).
# The comparison of runs already made:  bench/run.sh compare-from bench/results/<run>.json...
# (each run's artifact is the one its results name; e.g. rounds run on another day, or a comparison stopped early;
# writes compare-<timestamp>.json and .html beside the first run's results).
# BENCH_PREBUILT=1 builds no service and runs what target/ holds: the jar of the last ./mvnw package and, for
# native or compare, an executable target/*-runner (e.g. copied from another checkout's native build of the same
# main sources, when only tests changed); the test classes and the load scenarios are still built.
#
# Builds the packaged service, the load scenarios (bench/gatling) and the test classpath, makes sure the tools
# are there (MariaDB for the benchmark's own server, mysqlslap, wrk), then runs com.shop.orders.bench.Benchmark:
# it starts its own MariaDB, Redis, RocketMQ broker, Alipay and WeChat Pay sandboxes and the service as its own
# process, and writes bench/results/<timestamp>.json and .html. "full" takes about half an hour on 2 cores (the soak,
# when named, an hour more); "quick" runs each phase for a few seconds (the soak, when named, for a minute; CI runs
# every phase, the soak too, through BenchmarkIT).
set -euo pipefail
cd "$(dirname "$0")/.."
size="${1:-full}"
main=com.shop.orders.bench.Benchmark
args=("$size" ${2:+"$2"})
if [ "$size" = isolation ]; then
  main=com.shop.orders.bench.PhaseIsolation
  args=("${4:-full}" "${2:?isolation needs a phase: flash or placement}" "${3:-2}")
elif [ "$size" = soak ]; then
  args=("${2:-full}" soak)
  if [ -n "${3:-}" ]; then
    BENCH_JAVA_OPTS="${BENCH_JAVA_OPTS:-} -Dbench.soak-minutes=$3"
  fi
elif [ "$size" = compare-from ]; then
  main=com.shop.orders.bench.ArtifactComparison
  args=(from "${@:2}")
  # It only reads results files: the test classes and their classpath are all it needs.
  report_only=1
elif [ "$size" = compare ]; then
  main=com.shop.orders.bench.ArtifactComparison
  args=("${2:-full}" "${3:-all}" "${4:-2}")
  BENCH_ARTIFACT=both
fi

if [ -n "${report_only:-}" ]; then
  ./mvnw -q -B test-compile
  ./mvnw -q -B dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/test-classpath.txt
else
  as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
  missing=()
  command -v wrk >/dev/null 2>&1 || missing+=(wrk)
  command -v mysqlslap >/dev/null 2>&1 || missing+=(mariadb-client)
  command -v mariadbd >/dev/null 2>&1 || [ -x /usr/sbin/mariadbd ] || missing+=(mariadb-server)
  command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
  if [ ${#missing[@]} -gt 0 ]; then
    echo "installing ${missing[*]}"
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "${missing[@]}" >/dev/null
  fi

  native_build() {
    if [ -z "${GRAALVM_HOME:-}" ]; then
      GRAALVM_HOME=$(SMOKE=0 bash ../shared/tools/native-image/build.sh --home)
      export GRAALVM_HOME
    fi
    ./mvnw -q -B package -Dnative -DskipTests
  }
  if [ -n "${BENCH_PREBUILT:-}" ]; then
    echo "BENCH_PREBUILT: the service as target/ holds it ($(ls target/quarkus-app/quarkus-run.jar target/*-runner 2>/dev/null | tr '\n' ' '))"
    ./mvnw -q -B test-compile
    BENCH_ARTIFACT=prebuilt
  fi
  echo "building the service (${BENCH_ARTIFACT:-jvm}), the load scenarios and the test classpath"
  case "${BENCH_ARTIFACT:-jvm}" in
    prebuilt) ;;
    jvm) ./mvnw -q -B package -DskipTests ;;
    native) native_build ;;
    # The executable first, then the jar: target/ keeps both, and the jar is what the build records last.
    both) native_build && ./mvnw -q -B package -DskipTests ;;
    *) echo "BENCH_ARTIFACT is jvm, native or both, not ${BENCH_ARTIFACT}" >&2; exit 2 ;;
  esac
  ./mvnw -q -B dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/test-classpath.txt
  (cd bench/gatling && ../../mvnw -q -B package)
fi

# The JBoss log manager (on the classpath through the sandbox) must be the JDK logging manager from the start.
exec java -Djava.util.logging.manager=org.jboss.logmanager.LogManager ${BENCH_JAVA_OPTS:-} -cp "target/test-classes:target/classes:$(cat target/test-classpath.txt)" \
  "$main" "${args[@]}"

#!/usr/bin/env bash
# The benchmark's service, read twice a second while a run goes on:  bench/poll-meters.sh [native|jvm] [out-dir]
# Run it beside bench/run.sh. Each service process the benchmark starts (the executable, or the jar) gets a file
# <out-dir>/meters-<pid>.tsv (default out-dir target/bench-meters) with one line per reading: the time, the collections
# and their pauses (young, full), the check-backs answered and the orders placed, all as running totals from the
# service's management port (/q/metrics). Differences between lines show what each half second held, e.g. whether a
# tail in the open model lines up with a collection or with a pass of the broker's check-backs (docs/native.md).
# Stop it with Ctrl-C once the run is over.
set -euo pipefail
artifact="${1:-native}"
out="${2:-target/bench-meters}"
case "$artifact" in
  native) pattern='-runner -X' ;;
  jvm) pattern='quarkus-run.jar' ;;
  *) echo "usage: bench/poll-meters.sh [native|jvm] [out-dir]" >&2; exit 2 ;;
esac
mkdir -p "$out"

total() { # a regex for the start of a sample's line, metrics text on stdin: the sum of those samples
  grep -E "^$1" | awk '{ s += $NF } END { printf "%.3f", s }'
}

metrics_port() { # pid: the port that answers /q/metrics
  local port
  for port in $(ss -ltnp 2>/dev/null | grep "pid=$1," | awk '{ print $4 }' | sed 's/.*://'); do
    if curl -s -m 1 "http://127.0.0.1:$port/q/metrics" | grep -q '^gc_collections_total'; then
      echo "$port"
      return
    fi
  done
}

while true; do
  pid=$(pgrep -f -- "$pattern" | head -1 || true)
  port=${pid:+$(metrics_port "$pid")}
  if [ -z "${port:-}" ]; then sleep 1; continue; fi
  file="$out/meters-$pid.tsv"
  echo "$(date +%T) polling pid $pid on port $port into $file"
  printf 'time\tyoung\tyoung_pause_s\tfull\tfull_pause_s\tcheck_backs\tplaced\n' > "$file"
  while kill -0 "$pid" 2>/dev/null; do
    if m=$(curl -s -m 1 "http://127.0.0.1:$port/q/metrics"); then
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date +%T.%3N)" \
        "$(total 'gc_collections_total\{[^}]*kind="young"' <<< "$m")" \
        "$(total 'gc_pause_seconds_total\{[^}]*kind="young"' <<< "$m")" \
        "$(total 'gc_collections_total\{[^}]*kind="full"' <<< "$m")" \
        "$(total 'gc_pause_seconds_total\{[^}]*kind="full"' <<< "$m")" \
        "$(total 'expiry_checks_seconds_count\{' <<< "$m")" \
        "$(total 'orders_placed_total ' <<< "$m")" >> "$file"
    fi
    sleep 0.5
  done
done

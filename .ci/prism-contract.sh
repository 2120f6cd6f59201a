#!/usr/bin/env bash
# The API contract held from outside: Stoplight Prism in proxy mode in front of the test instance while the
# @QuarkusTests that call /api run through it (testsupport.ThroughContractProxy sends them and writes down Prism's
# verdict on each answer). Prints the requests proxied, the operations the run left out, the violations (answers the
# document does not allow) by operation and field, the requests the document forbids, and the tests that failed
# through the proxy; exits 1 on any violation, 2 when Prism did not start or stopped. Not part of .ci/run: CI's
# budget is full.
#
#   .ci/prism-contract.sh [document]     the OpenAPI document Prism holds the answers to (default docs/openapi.yaml)
#
# Needs Node.js 18.20+ (npx fetches the pinned Prism once) and what the tests need (.ci/services.sh). Extra Maven
# options go in MAVEN_ARGS (-o for offline). On a shared host run it under the host's Maven lock as a whole.
set -euo pipefail
cd "$(dirname "$0")/.."

DOCUMENT=${1:-docs/openapi.yaml}
# 5.14.2: the newest Prism that runs on Node 18 and 20 (5.15 and later want Node 24).
PRISM=@stoplight/prism-cli@5.14.2
PORT=${PRISM_PORT:-4010}
# The @QuarkusTests' instance (quarkus.http.test-port).
UPSTREAM=http://127.0.0.1:18089
# Every package whose tests call /api (the flows of orders, payments, refunds, reconciliation, stock, tokens, live
# status), the bad-input and contract tests, and the closing of orders.
TESTS='BadInputTest,ApiContractTest,OrderCloserTest,com/shop/orders/order/**/*Test,com/shop/orders/payment/**/*Test,'\
'com/shop/orders/refund/**/*Test,com/shop/orders/reconciliation/**/*Test,com/shop/orders/inventory/**/*Test,'\
'com/shop/orders/member/**/*Test,com/shop/orders/live/**/*Test'
OUT=target/prism

[ -f "$DOCUMENT" ] || { echo "no OpenAPI document at $DOCUMENT" >&2; exit 2; }
rm -rf "$OUT" && mkdir -p "$OUT"
started=$(date +%s)

# A process group of its own, so that stopping it stops npx's node child too. --errors=false: Prism names what it
# finds in each answer's sl-violations header (which the filter writes down) instead of answering 422 or 500 in the
# service's place, which would break the tests; its log is no better a source (requests interleave in it).
SCARF_ANALYTICS=false setsid npx --yes "$PRISM" proxy "$DOCUMENT" "$UPSTREAM" --host 127.0.0.1 --port "$PORT" \
  --cors=false --errors=false >"$OUT/prism.log" 2>&1 &
prism=$!
trap 'kill -- -$prism 2>/dev/null || true' EXIT
for _ in $(seq 240); do
  grep -q 'Prism is listening' "$OUT/prism.log" && break
  kill -0 $prism 2>/dev/null || { cat "$OUT/prism.log" >&2; echo "Prism did not start" >&2; exit 2; }
  sleep 0.5
done
grep -q 'Prism is listening' "$OUT/prism.log" || { cat "$OUT/prism.log" >&2; echo "Prism did not start" >&2; exit 2; }

tests=0
echo "running the API tests through Prism on port $PORT (log: $OUT/maven.log)"
./mvnw -B -ntp test -Dtest="$TESTS" -Dsurefire.failIfNoSpecifiedTests=false \
  -Dapi-contract.proxy="http://127.0.0.1:$PORT" >"$OUT/maven.log" 2>&1 || tests=$?
alive=yes
kill -0 $prism 2>/dev/null || alive=no
kill -- -$prism 2>/dev/null || true
trap - EXIT
seconds=$(( $(date +%s) - started ))

touch "$OUT/requests.tsv" "$OUT/violations.tsv" "$OUT/operations.txt"
received=$(grep -c 'Request received' "$OUT/prism.log" || true)
sent=$(wc -l <"$OUT/requests.tsv")
# The contract is the service's: an answer the document does not allow is a violation. Prism judges the tests'
# requests too, and the bad-input tests send what the document forbids on purpose; those the service refused
# (4xx) are counted, those it took (a wallet's notify answered "failure" with 200, as the wallet's protocol has it)
# are listed for a person to look at.
violations=$(awk -F'\t' '$3 ~ /^response/' "$OUT/violations.tsv")
count=$(printf '%s' "$violations" | grep -c . || true)
refused=$(awk -F'\t' '$3 !~ /^response/ && $2 ~ /^4/' "$OUT/violations.tsv" | wc -l)
taken=$(awk -F'\t' '$3 !~ /^response/ && $2 !~ /^4/' "$OUT/violations.tsv")

echo "Prism ${PRISM##*@} on $DOCUMENT, $seconds s: $received requests proxied ($sent sent by the tests)," \
  "$(cut -f1 "$OUT/requests.tsv" | sort -u | wc -l) operations called"
missing=$(comm -23 <(sort -u "$OUT/operations.txt") <(cut -f1 "$OUT/requests.tsv" | sort -u))
[ -z "$missing" ] || { echo "operations the run did not call:"; echo "$missing" | sed 's/^/  /'; }
echo "requests the document forbids: $refused refused by the service (4xx), $(printf '%s' "$taken" | grep -c . || true)" \
  "answered otherwise"
[ -z "$taken" ] || printf '%s\n' "$taken" | sort | uniq -c | sed 's/^/  /'
echo "violations: $count"
if [ "$count" -gt 0 ]; then
  echo "by operation and field (count, operation, status, where, severity, what):"
  printf '%s\n' "$violations" | sort | uniq -c | sort -k2 | sed 's/^/  /'
fi
if [ "$tests" -ne 0 ]; then
  # Prism re-sends what it proxies: JSON re-serialised (10.00 arrives as 10), binary bodies as text.
  echo "tests that failed through the proxy (exit $tests; $OUT/maven.log):"
  grep -oE '^\[ERROR\] [a-zA-Z0-9_.]+Test\.[^ (]+' "$OUT/maven.log" | cut -d' ' -f2 | sort | uniq -c | sed 's/^/  /'
fi
if [ "$alive" = no ] || [ "$sent" -eq 0 ]; then
  echo "Prism stopped during the run, or nothing went through it:" >&2
  tail -20 "$OUT/prism.log" >&2
  exit 2
fi
[ "$count" -eq 0 ]

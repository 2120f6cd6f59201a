#!/usr/bin/env bash
# Where the service's CPU goes, native executable against jar:  bench/cpu-profile.sh [native|jvm ...]
# (default: native, then jvm). For each, runs the benchmark's placement phase (bench/run.sh builds what it needs
# first: run it once before, then build the executable with symbols, below), samples the service process with
# perf (cpu-clock, 499 Hz) for 25 s of the phase's open-model run (200 orders/s, so that samples compare CPU per
# order directly), and prints the samples by where they ran: Java code, the collector, the JIT compiler, the
# kernel, libc. The executable's symbols are needed to tell its collector from its other code:
#   ./mvnw package -Dnative -DskipTests "-Dquarkus.native.additional-build-args-append=-H:-StripDebugInfo,-H:-DeleteLocalSymbols"
#   ./mvnw package -DskipTests     # the jar beside it; target/ keeps both
# The jar's JIT-compiled code is named through the perf map the JVM writes at exit (-XX:+DumpPerfMapAtExit).
# PERF_CALL_GRAPH=1 records call stacks too (perf record -g; the executable needs -H:+PreserveFramePointer added to
# the arguments above): `perf script -i <data>` then shows who calls a hot method.
# Needs perf (Debian's linux-perf); software sampling works where the hardware counters are not supported.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v perf >/dev/null || { echo "perf is missing: apt-get install linux-perf" >&2; exit 2; }
out=$(mktemp -d /tmp/cpu-profile.XXXXXX)

profile() {
  local kind=$1 log="$out/bench-$1.log"
  java -Djava.util.logging.manager=org.jboss.logmanager.LogManager -Dbench.concurrencies=32 \
    -Dharness.service.artifact="$kind" \
    "-Dharness.service.jvm-options=-Xms512m -Xmx512m -XX:+ExitOnOutOfMemoryError -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit" \
    -cp "target/test-classes:target/classes:$(cat target/test-classpath.txt)" com.shop.orders.bench.Benchmark full placement \
    >"$log" 2>&1 &
  local bench=$! pid
  until grep -q "open model: 200" "$log"; do sleep 1; kill -0 $bench 2>/dev/null || { tail "$log"; return 1; }; done
  pid=$(grep -o "pid [0-9]*" "$log" | head -1 | cut -d' ' -f2)
  sleep 3
  # perf gives up when one of the threads it enumerates ends meanwhile: try again.
  for _ in 1 2 3; do
    perf record -q ${PERF_CALL_GRAPH:+-g} -F 499 -e cpu-clock -p "$pid" -o "$out/$kind.data" -- sleep 25 \
      >/dev/null 2>&1 && break
  done
  wait $bench
  echo "== $kind ($(grep -m1 'CPU ms per order' "$log" | sed 's/.*(median of rounds): //'))"
  categories "$out/$kind.data"
}

# Symbols of the collector (SubstrateVM's genscavenge, with the stack walks it does) and of HotSpot's parts.
categories() {
  perf report -i "$1" --no-children --sort dso,sym --stdio 2>/dev/null | grep "%" | awk '
  { p = $1; sub("%", "", p); dso = $2; s = $0; sub(/^[^]]*\] /, "", s); c = "java code";
    if (dso ~ /kernel/) c = "kernel";
    else if (dso ~ /libc|ld-linux|vdso|libnio|libm/) c = "libc and JDK natives";
    else if (dso ~ /libjvm/) {
      if (s ~ /^(G1|HeapRegion|Card|OopOopIterate|ObjArrayKlass::oop|InstanceKlass::oop|WorkerThread|SpinPause|PLAB|BarrierSet|ReferenceProcessor|MemAllocator|ThreadLocalAllocBuffer|CollectedHeap|WeakProcessor|TaskTerminator)/) c = "collector";
      else if (s ~ /^(Phase|Compile|Node|Matcher|IndexSet|Dict|LRG|Block|Mach|Type|ci[A-Z]|GraphKit|Parse|CallGenerator|LinearScan|IR|GraphBuilder|Interval|Arena|Chunk|ConnectionGraph|RegMask|Unique_Node_List|VectorSet|IdealLoopTree|SuperWord|CodeBuffer|Assembler|MacroAssembler|Relocation|JVMState|PhaseCFG|PhaseOutput|OopFlow|Dependencies|DebugInformationRecorder|CompileBroker)/) c = "jit compiler";
      else c = "jvm runtime, other";
    }
    else if (s ~ /GreyTo|copyLongs|RememberedSet|GreyObjects|GCImpl|YoungGeneration|OldGeneration|HeapChunk|CardTable|ImageHeap|ObjectHeaderImpl|Space_|ReferenceObjectProcessing|AlignedChunk|UnalignedChunk|HeapImpl|CommittedMemory|Discoverable|CodeInfo|JavaStackWalker|StackFrameVisitor|FrameInfo|ThreadLocalAllocation|ObjectVisitor|ObjectReferenceVisitor|CollectionPolicy|Generation/) c = "collector";
    t[c] += p; total += p }
  END { for (k in t) printf "  %5.1f %%  %s\n", t[k] * 100 / total, k }' | sort -rn
  echo "  $(perf script -i "$1" 2>/dev/null | wc -l) samples in 25 s at 200 orders/s"
}

kinds=("$@")
[ ${#kinds[@]} -gt 0 ] || kinds=(native jvm)
for kind in "${kinds[@]}"; do profile "$kind"; done
echo "perf data and the benchmark's logs: $out"

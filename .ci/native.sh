#!/usr/bin/env bash
# The native executable, built with the shared toolchain (shared/tools/native-image: it returns at once when it is
# already built), then the ITs that start the packaged service as a process, against the executable.
#
# Everything that is the project's part of a native build fails here: class initialization, reflection, resources,
# substitutions, analysis and compilation. The shared toolchain links JDK 17's native libraries under JDK 25's class
# library and lacks some of JDK 25's natives (its README); a build that fails only there, with undefined JDK natives
# (Java_* symbols) at the final link, is reported with the symbols and does not fail CI, since Mandrel has them all.
# Every other failure does.
set -euo pipefail
cd "$(dirname "$0")/.."

# Without the toolchain's own hello-world smoke test (2 minutes here): the project's build below exercises it fully,
# and CI's budget is 30 minutes in all.
# The toolchain lies in ../shared beside the checkout; a clone made elsewhere (a temporary directory) finds it beside
# the repository it was cloned from. NATIVE_IMAGE_TOOL names it outright.
tool=${NATIVE_IMAGE_TOOL:-../shared/tools/native-image}
origin=$(git remote get-url origin 2>/dev/null || true)
if [ ! -f "$tool/build.sh" ] && [ -n "$origin" ] && [ -f "$origin/../shared/tools/native-image/build.sh" ]; then
  tool="$origin/../shared/tools/native-image"
fi
if [ ! -f "$tool/build.sh" ]; then
  echo "native build: no toolchain at $tool (set NATIVE_IMAGE_TOOL to shared/tools/native-image)" >&2
  exit 1
fi
GRAALVM_HOME=$(SMOKE=0 bash "$tool/build.sh" --home)
export GRAALVM_HOME
log=target/native-build.log
mkdir -p target
if ./mvnw -B -ntp package -Dnative -DskipTests >"$log" 2>&1; then
  grep -E '^\[[0-9]/8\]|Finished generating|Peak RSS' "$log" || true
  ./mvnw -B -ntp verify -Dnative -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
      -Dit.test='PackagedServiceIT,ProductionStartupIT,ReplicaFaultsIT,NativeExecutableIT'
  exit 0
fi

grep -E '^\[[0-9]/8\]|Peak RSS' "$log" || true
missing=$(grep -o "undefined reference to \`Java_[A-Za-z0-9_]*'" "$log" | sed "s/undefined reference to \`//; s/'//" | sort -u || true)
others=$(grep "undefined reference to" "$log" | grep -v "undefined reference to \`Java_\|undefined reference to \`JNI_OnLoad" || true)
if grep -q "There was an error linking the native image" "$log" && [ -n "$missing" ] && [ -z "$others" ]; then
  echo "native build: initialization, analysis and compilation passed; the final link lacks $(echo "$missing" | wc -l)" \
       "JDK natives that the shared toolchain does not provide (not the project's; see its README):"
  echo "$missing" | sed 's/^/  /'
  echo "native ITs not run: there is no executable"
  exit 0
fi
echo "native build failed (see $log):" >&2
grep -E "^Error|Fatal error|\[ERROR\]" "$log" | head -40 >&2
exit 1

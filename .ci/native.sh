#!/usr/bin/env bash
# The native executable, built once with the shared toolchain (shared/tools/native-image: it returns at once when it
# is already built), then the ITs that start the packaged service as a process, against that executable, in the same
# Maven run. Any failure fails CI: the build (initialization, reflection, resources, analysis, compilation, the link)
# or any IT.
set -euo pipefail
cd "$(dirname "$0")/.."

# Without the toolchain's own hello-world smoke test (2 minutes here): the project's build and ITs below exercise it
# fully.
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

# One Maven run: package builds the executable, verify runs the ITs on it (no unit tests: the JVM suite ran them).
# The system tests (the fault suite, secured connections, the reduced benchmark) run on the executable only, the
# shipped artifact: on the jar as well they would take CI past its 40 minutes (the README's system-test command runs
# them on the jar).
./mvnw -B -ntp verify -Dnative -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
    -Dit.test='PackagedServiceIT,ProductionStartupIT,ReplicaFaultsIT,SecuredConnectionsIT,NativeExecutableIT,BenchmarkIT'
# What the build made, for the log: the executable's size and what its image holds (the build's own report).
ls -l target/*-runner

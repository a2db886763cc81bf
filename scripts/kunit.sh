#!/usr/bin/env bash
# usage: scripts/kunit.sh {x86_64|i386|arm64|sanitizers}
# Run the series' KUnit suite (7.3: the suite timespec64_timeout of
# kernel/time/time_test.c, with kernel/time/.kunitconfig)
# with the tree's kunit.py under QEMU (lib.sh: qemu_accel, the only
# accelerator scripts/kunit-qemu/ lets kunit.py's QEMU use), keep kunit.py's
# JSON in $TS_RESULTS/kunit-<variant>/results.json, and judge it with
# scripts/kunit_rows.py: every row the suite's source generates must pass;
# a failed, crashed, skipped, missing or unknown row fails the run, named.
#   x86_64      the main run
#   i386        32-bit x86: long, and so tv_nsec, is 32 bits
#   arm64       built with clang and lld (LLVM=1, or LLVM=-19 where the
#               tree wants a newer LLVM than Debian's clang: lib.sh's
#               llvm_option), run on qemu-system-aarch64
#   sanitizers  x86_64 with kunit-tests/sanitizers.config (KASAN, UBSAN)
#               as a second --kunitconfig
# Each variant has its build directory, $TS_OUT/kunit-<variant>.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

usage="usage: scripts/kunit.sh {x86_64|i386|arm64|sanitizers}"
[ $# -eq 1 ] || die "$usage"
variant=$1
# The series adds its suite to kernel/time/time_test.c (suite
# timespec64_timeout, run alone by its name).
suite=$TS_SRC/kernel/time source=$TS_SRC/kernel/time/time_test.c filter=(timespec64_timeout)
[ -f "$suite/.kunitconfig" ] || die "$suite/.kunitconfig not found (run make tree)"
grep -q 'timespec64_timeout' "$source" ||
	die "$source has no timeout family suite (is patches/series applied? run make tree)"
args=(--kunitconfig="$suite")
case $variant in
x86_64) args+=(--arch=x86_64) ;;
i386) args+=(--arch=i386) ;;
arm64) args+=(--arch=arm64 --make_options "LLVM=$(llvm_option)") ;;
sanitizers) args+=(--arch=x86_64 --kunitconfig="$TS_REPO/kunit-tests/sanitizers.config") ;;
*) die "unknown variant '$variant' ($usage)" ;;
esac
accel=$(qemu_accel)
[ "$variant" != arm64 ] || accel=tcg # KVM cannot run an arm64 guest here

build_dir=$(ts_path kunit-build "$variant")
results=$(ts_path kunit-results "$variant")
json=$(ts_path result "$results" kunit-json)
klog=$(ts_path result "$results" kunit-log)
mkdir -p "$build_dir" "$results" "$(dirname "$TS_BUILD_LOCK")"
rm -f "$json"

log "kunit.py run ($variant) in $build_dir"
rc=0
# kunit.py's QEMU through scripts/kunit-qemu/: 7.x's kunit.py asks for
# KVM first, and only $accel may run.
(cd "$TS_SRC" && PATH="$TS_REPO/scripts/kunit-qemu:$PATH" KUNIT_QEMU_ACCEL=$accel \
	ccache_env flock "$TS_BUILD_LOCK" python3 tools/testing/kunit/kunit.py run \
	"${args[@]}" --build_dir="$build_dir" --jobs="$TS_JOBS" --timeout=600 \
	--qemu_args="-accel $accel" --json="$json" ${filter[@]+"${filter[@]}"}) \
	>"$klog" 2>&1 || rc=$?
# kunit.py's own summary: the closing lines of its parsed output.
sed -n '/=* \[\(PASSED\|FAILED\|CRASHED\|SKIPPED\)\]/,$p' "$klog" | tail -n 8
[ -f "$json" ] ||
	{ tail -n 30 "$klog" >&2; die "kunit.py run ($variant) wrote no JSON (exit $rc): see $klog"; }
python3 "$TS_REPO/scripts/kunit_rows.py" "$json" "$source" "$variant" ||
	die "KUnit ($variant): the run does not pass every row of the suite: see $klog"
[ "$rc" -eq 0 ] || die "kunit.py run ($variant) exited $rc: see $klog"
echo "kunit ($variant): JSON in $json"

#!/usr/bin/env bash
# usage: scripts/kunit.sh [plain|sanitizers|i386|arm64]
# Run the series' KUnit suite (its .kunitconfig: the tree's kernel/time/tests)
# with the tree's kunit.py under QEMU (TCG; TS_KVM=1 to opt in to KVM), keep
# kunit.py's JSON, and fail on any failed, crashed, skipped or missing row.
#   plain       x86_64
#   sanitizers  x86_64 with kunit-tests/sanitizers.config (KASAN, UBSAN)
#   i386        32-bit x86: long, and so tv_nsec, is 32 bits
#   arm64       built with LLVM=1 (Debian's clang and lld), run on
#               qemu-system-aarch64
# Each variant has a build directory of its own.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

usage="usage: scripts/kunit.sh [plain|sanitizers|i386|arm64]"
variant=${1:-plain}
[ $# -le 1 ] || die "$usage"
args=(--kunitconfig="$TS_SRC/kernel/time/tests")
[ -f "$TS_SRC/kernel/time/tests/.kunitconfig" ] ||
	die "$TS_SRC/kernel/time/tests/.kunitconfig not found (is patches/series applied?)"
case $variant in
plain) args+=(--arch=x86_64) ;;
sanitizers)
	args+=(--arch=x86_64)
	while read -r line; do
		case $line in ''|'#'*) continue ;; esac
		args+=(--kconfig_add "$line")
	done < "$TS_REPO/kunit-tests/sanitizers.config"
	;;
i386) args+=(--arch=i386) ;;
arm64) args+=(--arch=arm64 --make_options LLVM=1) ;;
*) die "unknown variant '$variant' ($usage)" ;;
esac

# Rows the suite must report, at least: four parameterised cases over the
# 126 rows of its boundary table (9 tv_sec x 7 tv_nsec values, relative
# and absolute).
min_params=${TS_KUNIT_MIN_PARAMS:-504}

build_dir=$TS_OUT/kunit-$variant
results=$TS_RESULTS/kunit-$variant
mkdir -p "$build_dir" "$results" "$(dirname "$TS_BUILD_LOCK")"
accel=tcg
[ "${TS_KVM:-0}" = 1 ] && [ "$variant" != arm64 ] && accel=kvm

log "kunit.py run ($variant) in $build_dir"
rc=0
(cd "$TS_SRC" && flock "$TS_BUILD_LOCK" python3 tools/testing/kunit/kunit.py run \
	"${args[@]}" --build_dir="$build_dir" --jobs="$TS_JOBS" --timeout=600 \
	--qemu_args="-accel $accel" --json="$results/results.json") \
	>"$results/kunit.log" 2>&1 || rc=$?
# kunit.py's own summary: the closing lines of its parsed output.
sed -n '/=* \[\(PASSED\|FAILED\|CRASHED\|SKIPPED\)\]/,$p' "$results/kunit.log" | tail -n 8
grep -E '\[(FAILED|CRASHED)\]' "$results/kunit.log" >&2 || [ $? -eq 1 ]
[ "$rc" -eq 0 ] || die "kunit.py run ($variant) failed (exit $rc): see $results/kunit.log"

# Count what ran from the JSON, and insist that nothing is missing.
python3 - "$results/results.json" "$min_params" "$TS_REPO/scripts" "$variant" <<'PY'
import sys
sys.path.insert(0, sys.argv[3])
import kunit_json
counts = {}
for path, status in kunit_json.load(sys.argv[1]):
    counts[status] = counts.get(status, 0) + 1
    if status != "PASS":
        print(f"error: KUnit row {'.'.join(path)}: {status}", file=sys.stderr)
total = sum(counts.values())
bad = total - counts.get("PASS", 0)
print(f"kunit ({sys.argv[4]}): {total} rows in all")
print(f"kunit ({sys.argv[4]}): {counts.get('PASS', 0)} passed, {bad} failed")
if bad:
    sys.exit(1)
if total < int(sys.argv[2]):
    print(f"error: only {total} KUnit rows ran, expected at least {sys.argv[2]}", file=sys.stderr)
    sys.exit(1)
PY
echo "kunit ($variant): JSON in $results/results.json"

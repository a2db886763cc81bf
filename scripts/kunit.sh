#!/usr/bin/env bash
# usage: scripts/kunit.sh [plain|sanitizers]
# Run our KUnit suite with the tree's kunit.py under QEMU (TCG; TS_KVM=1 to
# opt in to KVM), keep kunit.py's JSON, and fail on any failed, crashed or
# missing test.  "sanitizers" adds kunit-tests/sanitizers.config (KASAN,
# UBSAN) in a build directory of its own.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

variant=${1:-plain}
kunitconfig=$TS_REPO/kunit-tests/.kunitconfig
case $variant in
plain) extra=() ;;
sanitizers)
	extra=()
	while read -r line; do
		case $line in ''|'#'*) continue ;; esac
		extra+=(--kconfig_add "$line")
	done < "$TS_REPO/kunit-tests/sanitizers.config"
	;;
*) die "unknown variant '$variant' (usage: scripts/kunit.sh [plain|sanitizers])" ;;
esac

# Rows the suite must report, at least: the 126 boundary rows of the table
# run by three parameterised cases, and the 23 rows of the call-site tables
# (clock_nanosleep flags, itimerspec slots).
min_params=${TS_KUNIT_MIN_PARAMS:-401}

build_dir=$TS_OUT/kunit-$variant
results=$TS_RESULTS/kunit-$variant
mkdir -p "$build_dir" "$results" "$(dirname "$TS_BUILD_LOCK")"
accel=tcg
[ "${TS_KVM:-0}" = 1 ] && accel=kvm

log "kunit.py run ($variant) in $build_dir"
rc=0
(cd "$TS_SRC" && flock "$TS_BUILD_LOCK" python3 tools/testing/kunit/kunit.py run \
	--arch=x86_64 --build_dir="$build_dir" --kunitconfig="$kunitconfig" \
	--jobs="$TS_JOBS" --timeout=600 --qemu_args="-accel $accel" \
	--json="$results/results.json" "${extra[@]}") >"$results/kunit.log" 2>&1 || rc=$?
# kunit.py's own summary: the closing lines of its parsed output.
sed -n '/=* \[\(PASSED\|FAILED\|CRASHED\|SKIPPED\)\]/,$p' "$results/kunit.log" | tail -n 8
grep -E '\[(FAILED|CRASHED)\]' "$results/kunit.log" >&2 || [ $? -eq 1 ]
[ "$rc" -eq 0 ] || die "kunit.py run ($variant) failed (exit $rc): see $results/kunit.log"

# Count what ran from the JSON, and insist that nothing is missing.
python3 - "$results/results.json" "$min_params" "$TS_REPO/scripts" <<'PY'
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
print(f"kunit: {total} rows in all")
print(f"kunit: {counts.get('PASS', 0)} passed, {bad} failed")
if bad:
    sys.exit(1)
if total < int(sys.argv[2]):
    print(f"error: only {total} KUnit rows ran, expected at least {sys.argv[2]}", file=sys.stderr)
    sys.exit(1)
PY
echo "kunit ($variant): JSON in $results/results.json"

#!/usr/bin/env bash
# usage: scripts/tests/run.sh
# The host scripts' own tests (make check-scripts): every test_*.py with
# Python's unittest, then every test_*.sh.  Each test builds its inputs in
# a temporary directory; none builds or boots a kernel.  test_lib.sh needs
# the patched tree (make tree) for its kunit_config.  Prints how many tests
# ran and how many were skipped; exits 1 if any test failed or was skipped,
# naming it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ts-check-scripts.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failed=()
echo "==> python3 scripts/tests/run_unittests.py: $here/test_*.py"
python3 "$here/run_unittests.py" || failed+=("python unittest (see above)")
# The shell tests print one "ok [N] - ..." or "not ok [N] - ..." line per test.
nsh=0
nskip=0
for t in "$here"/test_*.sh; do
	echo "==> $t"
	"$t" | tee "$tmp/out" || failed+=("$(basename "$t")")
	ran=$(awk '/^(not )?ok( [0-9]+)? - / { n++ } END { print n + 0 }' "$tmp/out")
	plan=$(sed -n 's/^1\.\.\([0-9][0-9]*\)$/\1/p' "$tmp/out")
	nsh=$((nsh + ran))
	[ "$ran" -gt 0 ] || failed+=("$(basename "$t") ran no test")
	[ -z "$plan" ] || [ "$plan" -eq "$ran" ] || failed+=("$(basename "$t") planned $plan tests, ran $ran")
	skipped=$(awk 'tolower($0) ~ /^ok.* # *skip/ { n++ } END { print n + 0 }' "$tmp/out")
	nskip=$((nskip + skipped))
	[ "$skipped" -eq 0 ] || failed+=("$(basename "$t") skipped $skipped test(s)")
done
echo "shell tests: $nsh ran, $nskip skipped"
if [ ${#failed[@]} -gt 0 ]; then
	echo "error: check-scripts: failed: ${failed[*]}" >&2
	exit 1
fi
echo "check-scripts: all passed"

#!/usr/bin/env bash
# usage: scripts/tests/run.sh
# The host scripts' own tests (make check-scripts): every test_*.py with
# Python's unittest, then every test_*.sh, then shellcheck and mypy.  Each test builds its inputs in
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

# The linters, Debian's (make deps installs them): shellcheck on every
# shell script (each *.sh, and each executable whose first line names sh or
# bash), following what a script sources; mypy on the package, with
# --check-untyped-defs (functions without type hints are checked too).
repo=$(cd "$here/../.." && pwd)
shells=()
while IFS= read -r f; do
	case $f in
	*.sh) shells+=("$f") ;;
	*) [ -x "$repo/$f" ] && head -n 1 "$repo/$f" | grep -qE '^#!.*(/|env )(ba)?sh\b' &&
		shells+=("$f") ;;
	esac
done < <(cd "$repo" && find scripts qemu-config .ci -type f ! -path '*/__pycache__/*' \
	! -path 'scripts/tests/fixtures/*' | sort)
echo "==> shellcheck: ${#shells[@]} shell scripts"
if ! command -v shellcheck >/dev/null; then
	failed+=("shellcheck not found (Debian package shellcheck; make deps)")
elif ! (cd "$repo" && shellcheck -x -P SCRIPTDIR "${shells[@]}"); then
	failed+=("shellcheck (see above)")
fi
echo "==> mypy: the package scripts/tsanity"
if ! command -v mypy >/dev/null; then
	failed+=("mypy not found (Debian package mypy; make deps)")
elif ! (cd "$repo/scripts" && mypy --cache-dir "$tmp/mypy" --check-untyped-defs tsanity); then
	failed+=("mypy (see above)")
fi
if [ ${#failed[@]} -gt 0 ]; then
	echo "error: check-scripts: failed: ${failed[*]}" >&2
	exit 1
fi
echo "check-scripts: all passed"

#!/usr/bin/env bash
# usage: scripts/tests/run.sh
# The host scripts' own tests (make check-scripts): every test_*.py with
# Python's unittest, then every test_*.sh.  Each test builds its inputs in
# a temporary directory; none builds or boots a kernel.  test_lib.sh needs
# the patched tree (make tree) for its kunit_config; test_report.py's
# real-data cases run only where an earlier run's results were kept, and
# skip, saying so, elsewhere.  Exits 1 if any test failed, naming it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
failed=()
echo "==> python3 -m unittest: $here/test_*.py"
python3 -m unittest discover -s "$here" -p 'test_*.py' || failed+=("python unittest (see above)")
for t in "$here"/test_*.sh; do
	echo "==> $t"
	"$t" || failed+=("$(basename "$t")")
done
if [ ${#failed[@]} -gt 0 ]; then
	echo "error: check-scripts: failed: ${failed[*]}" >&2
	exit 1
fi
echo "check-scripts: all passed"

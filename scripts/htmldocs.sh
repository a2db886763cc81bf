#!/usr/bin/env bash
# usage: scripts/htmldocs.sh
# The tree's `make htmldocs SPHINXDIRS=timers` (Debian's python3-sphinx and
# the alabaster theme that Documentation/sphinx/requirements.txt asks for)
# on base and on patched, each in $TS_OUT/htmldocs-<kernel>; fails on any
# warning or error of patched that base lacks (compared per file and
# message, line numbers aside).  The pages are in
# $TS_OUT/htmldocs-patched/Documentation/output/timers/; the warnings in
# $TS_RESULTS/htmldocs/.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -eq 0 ] || die "usage: scripts/htmldocs.sh"
command -v sphinx-build >/dev/null || die "sphinx-build not found (Debian package python3-sphinx; run scripts/deps.sh)"
results=$(ts_path named-results htmldocs)
mkdir -p "$results"
for k in base patched; do
	src=$(src_of "$k")
	out=$(ts_path htmldocs-build "$k")
	log "make htmldocs SPHINXDIRS=timers on $k"
	rm -rf "$out/Documentation/output/timers"
	kmake "$src" "$out" SPHINXDIRS=timers htmldocs >"$results/$k.log" 2>&1 ||
		{ tail -n 30 "$results/$k.log" >&2; die "make htmldocs SPHINXDIRS=timers failed on $k: see $results/$k.log"; }
	# "file:line: WARNING: message" and sphinx's own "WARNING: message".
	grep -E '(WARNING|ERROR|CRITICAL|[Ww]arning:)' "$results/$k.log" |
		sed -E "s#$src/##; s#:[0-9]+:#:#" | sort >"$results/$k.warnings" || [ $? -eq 1 ]
done
new=$(awk 'NR==FNR {b[$0]++; next} {if (b[$0] > 0) b[$0]--; else print}' \
	"$results/base.warnings" "$results/patched.warnings")
nbase=$(wc -l <"$results/base.warnings")
npatched=$(wc -l <"$results/patched.warnings")
if [ -n "$new" ]; then
	echo "$new" | sed 's/^/  /' >&2
	die "htmldocs (timers): $(echo "$new" | wc -l) warning(s) that base lacks (base $nbase, patched $npatched)"
fi
# The page's table of the other timeout forms is the audit's table
# (scripts/forms_table.py --rst), generated, never edited by hand.
page=$TS_SRC/Documentation/timers/timeouts.rst
python3 "$TS_REPO/scripts/forms_table.py" --check-doc "$page" ||
	die "htmldocs (timers): $page does not hold scripts/forms_table.py --rst (regenerate the table in patch $(grep -l 'timers/timeouts.rst' "$TS_PATCHES"/0*.patch | sed 's#.*/##' | sed -n 1p))"
pages=$(ts_path htmldocs-build patched)/Documentation/output/timers/
echo "htmldocs (timers): no new warning (base $nbase, patched $npatched); pages in $pages"

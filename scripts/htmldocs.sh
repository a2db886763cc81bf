#!/usr/bin/env bash
# usage: scripts/htmldocs.sh
# The tree's `make htmldocs SPHINXDIRS=<dirs>` (Debian's python3-sphinx and
# the alabaster theme that Documentation/sphinx/requirements.txt asks for)
# on base and on patched, each in $TS_OUT/htmldocs-<kernel>, where <dirs>
# are the Documentation directories that hold a file the series adds or
# changes (userspace-api on 7.3); fails on any warning or
# error of patched that base lacks (compared per file and message, line
# numbers aside).  The pages are in
# $TS_OUT/htmldocs-patched/Documentation/output/<dir>/; the warnings in
# $TS_RESULTS/htmldocs/.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -eq 0 ] || die "usage: scripts/htmldocs.sh"
command -v sphinx-build >/dev/null || die "sphinx-build not found (Debian package python3-sphinx; run scripts/deps.sh)"
results=$(ts_path named-results htmldocs)
mkdir -p "$results"
# The directories of the series' Documentation files, and its page.
list=$(series_patches "$TS_PATCHES/series") || exit 1
mapfile -t patches <<<"$list"
patches=("${patches[@]/#/$TS_PATCHES/}")
mapfile -t dirs < <(sed -n 's#^+++ b/Documentation/\([^/]*\)/.*#\1#p' "${patches[@]}" | sort -u)
[ ${#dirs[@]} -gt 0 ] || die "htmldocs: no patch of $TS_PATCHES/series adds or changes a file under Documentation/"
sphinxdirs=${dirs[*]}
page=$(sed -n 's#^+++ b/\(Documentation/.*/timeouts.rst\)$#\1#p' "${patches[@]}" | sort -u)
[ "$(echo "$page" | grep -c .)" -eq 1 ] || die "htmldocs: the series should add one Documentation/*/timeouts.rst, found: ${page:-none}"
# Each kernel's warnings, by kernel.
declare -A warnings
for k in base patched; do
	src=$(src_of "$k")
	out=$(ts_path htmldocs-build "$k")
	log "make htmldocs SPHINXDIRS=\"$sphinxdirs\" on $k"
	for d in "${dirs[@]}"; do rm -rf "$out/Documentation/output/$d"; done
	klog=$(ts_path result "$results" htmldocs-log kernel="$k")
	warnings[$k]=$(ts_path result "$results" htmldocs-warnings kernel="$k")
	kmake "$src" "$out" SPHINXDIRS="$sphinxdirs" htmldocs >"$klog" 2>&1 ||
		{ tail -n 30 "$klog" >&2; die "make htmldocs SPHINXDIRS=\"$sphinxdirs\" failed on $k: see $klog"; }
	# "file:line: WARNING: message" and sphinx's own "WARNING: message".
	grep -E '(WARNING|ERROR|CRITICAL|[Ww]arning:)' "$klog" |
		sed -E "s#$src/##g; s#:[0-9]+:#:#g" | sort >"${warnings[$k]}" || [ $? -eq 1 ]
done
new=$(awk 'NR==FNR {b[$0]++; next} {if (b[$0] > 0) b[$0]--; else print}' \
	"${warnings[base]}" "${warnings[patched]}")
nbase=$(wc -l <"${warnings[base]}")
npatched=$(wc -l <"${warnings[patched]}")
if [ -n "$new" ]; then
	printf '  %s\n' "${new//$'\n'/$'\n'  }" >&2
	die "htmldocs ($sphinxdirs): $(echo "$new" | wc -l) warning(s) that base lacks (base $nbase, patched $npatched)"
fi
pages=$(ts_path htmldocs-build patched)/Documentation/output/
echo "htmldocs ($sphinxdirs): no new warning (base $nbase, patched $npatched); pages in $pages"

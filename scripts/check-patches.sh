#!/usr/bin/env bash
# usage: scripts/check-patches.sh [SERIES_DIR]
# checkpatch.pl --strict (the base tree's) on every patch of
# SERIES_DIR/series (default: $TS_PATCHES, the kernel's series or the
# user's): no error, warning or check except those waived in
# SERIES_DIR/checkpatch.waivers ("<patch file> <MESSAGE_TYPE> <reason>",
# read by `scripts/ts waivers`, which refuses a bad line, a duplicate and
# a patch the series does not list); an unused waiver fails too.  Needs
# no tree with the series applied.  make stable and make mbox name their
# series as SERIES_DIR.
# Prints a table; exits 1 if a check failed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/check-lib.sh"

[ $# -le 1 ] || die "usage: scripts/check-patches.sh [SERIES_DIR]"
series_dir=${1:-$TS_PATCHES}
[ -n "$series_dir" ] || die "no patch set: Linux $TS_KERNEL has no series in the repository (set TS_PATCHES)"
[ -d "$series_dir" ] || die "$series_dir: not a directory (usage: scripts/check-patches.sh [SERIES_DIR])"
series_dir=$(cd "$series_dir" && pwd) # checkpatch runs in the base tree
check_series=$series_dir
series_file=$series_dir/series
waiver_file=$series_dir/checkpatch.waivers
checkpatch=$TS_BASE_SRC/scripts/checkpatch.pl
[ -f "$checkpatch" ] || die "$checkpatch not found (run make tree)"
series_stamp "$series_dir" >/dev/null # every listed patch exists
list=$(series_patches "$series_file") || exit 1
[ -n "$list" ] || die "$series_file lists no patch"
mapfile -t patches <<<"$list"
check_state patches

declare -A waiver_used=() waiver_line=()
if [ -r "$waiver_file" ]; then
	# The one parser of the waivers (scripts/tsanity/waivers.py), strict:
	# it names the file and line of a waiver it refuses, and exits 1.
	waivers=$(ts waivers "$waiver_file" "$series_file") || exit 1
	while IFS=$'\t' read -r ln wp wt; do
		[ -n "$ln" ] || continue
		waiver_line["$wp $wt"]=$ln
		waiver_used["$wp $wt"]=0
	done <<<"$waivers"
fi

log "checkpatch --strict on ${#patches[@]} patches"
for i in "${!patches[@]}"; do
	p=${patches[$i]}
	num=$((i + 1))
	out=$logs/checkpatch-$p.log
	rc=0
	# checkpatch runs scripts/spdxcheck.py with the python3 first in PATH;
	# it needs python3-ply and python3-git, which deps.sh installs for
	# Debian's /usr/bin/python3, not for another python3 (pyenv's, say).
	(cd "$TS_BASE_SRC" && PATH=/usr/bin:$PATH perl scripts/checkpatch.pl --strict \
		--show-types --color=never "$series_dir/$p") >"$out" 2>&1 || rc=$?
	grep -q '^total: [0-9]* errors, [0-9]* warnings, [0-9]* checks' "$out" ||
		{ cat "$out" >&2; die "checkpatch.pl did not run on patch $num ($p): see $out"; }
	# A helper that failed (spdxcheck.py's imports) is a check not done.
	! grep -q '^Traceback' "$out" ||
		{ cat "$out" >&2; die "a checkpatch.pl helper failed on patch $num ($p): see $out"; }
	bad=0 waived=0
	while read -r typ; do
		if [ -n "${waiver_line["$p $typ"]+x}" ]; then
			waiver_used["$p $typ"]=1
			waived=$((waived + 1))
		else
			bad=$((bad + 1))
		fi
	done < <(sed -n 's/^\(ERROR\|WARNING\|CHECK\):\([A-Z0-9_]*\):.*/\2/p' "$out")
	if [ "$bad" -gt 0 ]; then
		echo "--- checkpatch: patch $num ($p)" >&2
		cat "$out" >&2
		row checkpatch "$num $p" "FAIL: $bad unwaived message(s)"
	elif [ "$rc" -ne 0 ] && [ "$waived" -eq 0 ]; then
		cat "$out" >&2
		row checkpatch "$num $p" "FAIL: checkpatch.pl exited $rc"
	else
		row checkpatch "$num $p" "ok$([ "$waived" -eq 0 ] || echo " ($waived waived)")"
	fi
done
for w in "${!waiver_used[@]}"; do
	[ "${waiver_used[$w]}" = 1 ] ||
		row checkpatch "waiver '$w'" "FAIL: unused ($waiver_file:${waiver_line[$w]})"
done
print_table

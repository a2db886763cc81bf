#!/usr/bin/env bash
# usage: scripts/check-warnings.sh
# No warning that the base tree lacks, on what the series ($TS_PATCHES, as lib.sh's
# patches_tree holds it) touches:
#   1. sparse (C=1) and W=1 on the objects of the full series and the users
#      of its headers (check-lib.sh: objects), built at the base and at the
#      full series in the worktree $TS_WORK/warnings-src, O=$TS_OUT/check-
#      warnings (tinyconfig + qemu-config/guest.config + the suite's
#      .kunitconfig: check-lib.sh, suite_kunitconfig);
#   2. scripts/kernel-doc -none -Wall on the touched .c and .h files (outside
#      tools/), the changed headers and the header users, at both revisions.
# A warning counts once per file and message, line numbers aside.  Results
# are cached by tree and configuration.  Prints a table; exits 1 if a
# check failed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/check-lib.sh"

[ $# -eq 0 ] || die "usage: scripts/check-warnings.sh"
command -v sparse >/dev/null || die "sparse not found (Debian package sparse; run scripts/deps.sh)"
tree=$(patches_tree)
full=$(series_commits "$tree" | tail -n 1)
check_state warnings
cache=$state/cache
mkdir -p "$cache"
src=$(ts_path worktree warnings)
out=$(ts_path check-build warnings)
worktree "$src" "$full"
trap 'git -C "$src" checkout -q -f --detach "$full" || echo "warning: could not check $full out in $src" >&2' EXIT
kunitconfig=$(suite_kunitconfig "$src") ||
	die "no KUnit suite of the series in $src (the suite timespec64_timeout in kernel/time/time_test.c with kernel/time/.kunitconfig)"
check_config "$src" "$out" "$TS_REPO/qemu-config/guest.config" "$kunitconfig"
use_config "$src" "$out"
mapfile -t objs < <(objects "$src" "$out")
[ "${#objs[@]}" -gt 0 ] || die "no object of the series is enabled in $out (the probe of check-lib.sh found none)"
# Headers whose kernel-doc is checked in any case.
kdoc_fixed=(include/linux/time64.h include/linux/time.h include/linux/futex.h)

# normalise LOG: "file: severity: message", line and column numbers
# stripped, one line per distinct diagnostic (a header's warning counts
# once, not once per .c file that includes it).
normalise() {
	sed -n -E '/^[^ :]+:[0-9]+(:[0-9]+)?: (warning|error): /p' "$1" | sed "s#^$src/##" |
		sort -u | sed -E 's#^([^ :]+):[0-9]+(:[0-9]+)?: #\1: #' | sort
}
# new_lines BASE SERIES: the lines of SERIES more often than in BASE.
new_lines() {
	awk 'NR==FNR {b[$0]++; next} {if (b[$0] > 0) b[$0]--; else print}' "$1" "$2"
}

# sparse_warnings REV NAME: normalised sparse/W=1 warnings at REV, cached.
sparse_warnings() {
	local rev=$1 name=$2 k slog have=() o
	k=$(key sparse "$(kernel_tree_of "$src" "$rev")" "$(cat "$out/.config.check")" "${objs[*]}")
	if [ ! -r "$cache/sparse-$k" ]; then
		worktree "$src" "$rev"
		use_config "$src" "$out"
		# The objects this tree has (the series may add some), rebuilt so
		# that every warning shows up.
		for o in "${objs[@]}"; do
			[ ! -e "$src/${o%.o}.c" ] || have+=("$o")
			rm -f "$out/$o"
		done
		slog=$logs/sparse-$name.log
		log "sparse + W=1 on $name: ${have[*]}"
		kmake "$src" "$out" ARCH=x86_64 W=1 C=1 "${have[@]}" >"$slog" 2>&1 ||
			{ show_errors "$slog"; die "sparse/W=1 build failed on $name (see $slog)"; }
		normalise "$slog" >"$cache/sparse-$k"
	fi
	cp "$cache/sparse-$k" "$state/sparse-$name.txt"
}
log "sparse and W=1, base vs series"
sparse_warnings "$TS_BASE_TAG" base
sparse_warnings "$full" series
new_lines "$state/sparse-base.txt" "$state/sparse-series.txt" >"$state/sparse-new.txt"
nbase=$(wc -l <"$state/sparse-base.txt") nnew=$(wc -l <"$state/sparse-new.txt")
if [ "$nnew" -gt 0 ]; then
	echo "--- sparse/W=1 warnings the series adds:" >&2
	sed 's/^/  /' "$state/sparse-new.txt" >&2
	row "sparse+W=1" "${#objs[@]} objects" "FAIL: $nnew new warning(s) (base has $nbase)"
else
	row "sparse+W=1" "${#objs[@]} objects" "ok (0 new; base has $nbase)"
fi

log "kernel-doc -none -Wall, base vs series"
mapfile -t kdoc_files < <({
	printf '%s\n' "${kdoc_fixed[@]}" "${header_users[@]}"
	git -C "$src" diff --name-only "$TS_BASE_TAG" "$full" -- '*.c' '*.h' ':!tools/'
} | sort -u)
kdoc() { # kdoc REV NAME: normalised kernel-doc warnings of kdoc_files at REV
	local rev=$1 name=$2 dir=$state/kdoc-$2 f n=0
	rm -rf "$dir"
	for f in "${kdoc_files[@]}"; do
		git -C "$src" cat-file -e "$rev:$f" 2>/dev/null || continue
		mkdir -p "$dir/$(dirname "$f")"
		git -C "$src" show "$rev:$f" >"$dir/$f"
		n=$((n + 1))
	done
	(cd "$dir" && find . -type f -printf '%P\n' | sort |
		xargs perl "$src/scripts/kernel-doc" -none -Wall) >"$logs/kernel-doc-$name.log" 2>&1 ||
		{ cat "$logs/kernel-doc-$name.log" >&2; die "kernel-doc failed on $name"; }
	sed -E -n 's#^([^ :]+):[0-9]+: (warning|error): #\1: \2: #p' "$logs/kernel-doc-$name.log" |
		sort >"$state/kdoc-$name.txt"
	echo "$n"
}
kdoc "$TS_BASE_TAG" base >/dev/null
nk=$(kdoc "$full" series)
new_lines "$state/kdoc-base.txt" "$state/kdoc-series.txt" >"$state/kdoc-new.txt"
nnew=$(wc -l <"$state/kdoc-new.txt")
if [ "$nnew" -gt 0 ]; then
	echo "--- kernel-doc warnings the series adds:" >&2
	sed 's/^/  /' "$state/kdoc-new.txt" >&2
	row kernel-doc "$nk files" "FAIL: $nnew new warning(s)"
else
	row kernel-doc "$nk files" "ok (0 new; base has $(wc -l <"$state/kdoc-base.txt"))"
fi
print_table

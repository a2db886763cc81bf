#!/usr/bin/env bash
# usage: scripts/check-bisect.sh [VARIANT...]
# Every prefix of the series ($TS_PATCHES/series, as lib.sh's patches_tree
# holds it) compiles, without a warning, the objects it touches and the
# users of the changed headers (check-lib.sh: objects), in each
# configuration VARIANT (qemu-config/variants/<name>.config on top of
# tinyconfig, qemu-config/guest.config and the suite's .kunitconfig;
# default: the user's TS_CHECK_VARIANTS, integration unless set; make
# check-full names every variant).
# Prefixes are checked out in the worktree $TS_WORK/bisect-src and built in
# $TS_OUT/check-<variant>; a (configuration, tree) pair that passed is not
# built again.  Prints a table; exits 1 if a check failed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/check-lib.sh"

if [ $# -gt 0 ]; then
	variants=("$@")
else
	read -r -a variants <<<"$TS_CHECK_VARIANTS"
fi
[ "${#variants[@]}" -gt 0 ] || die "TS_CHECK_VARIANTS names no configuration"
for v in "${variants[@]}"; do
	[ -f "$TS_REPO/qemu-config/variants/$v.config" ] ||
		die "no configuration '$v' (qemu-config/variants/$v.config; usage: scripts/check-bisect.sh [VARIANT...])"
done
tree=$(patches_tree)
list=$(series_patches "$TS_PATCHES/series") || exit 1
mapfile -t patches <<<"$list"
list=$(series_commits "$tree") || exit 1
mapfile -t commits <<<"$list"
n=${#commits[@]}
full=${commits[$((n - 1))]}
check_state bisect
src=$(ts_path worktree bisect)
worktree "$src" "$full"
# Leave the worktree at the full series, whatever happens below.
trap 'git -C "$src" checkout -q -f --detach "$full" || echo "warning: could not check $full out in $src" >&2' EXIT

# The series' KUnit suite where the series has one (check-lib.sh:
# suite_kunitconfig; a stable series, the backports alone, has none:
# patches/stable/X.Y).
kunitconfig=()
if k=$(suite_kunitconfig "$src"); then
	kunitconfig=("$k")
else
	log "no KUnit suite of the series in ${TS_PATCHES#"$TS_REPO/"} (the suite timespec64_timeout in kernel/time/time_test.c): built without it"
fi
for v in "${variants[@]}"; do
	out=$(ts_path check-build "$v")
	check_config "$src" "$out" "$TS_REPO/qemu-config/guest.config" \
		"${kunitconfig[@]}" "$TS_REPO/qemu-config/variants/$v.config"
done

log "building every prefix (1..$n) in ${#variants[@]} configuration(s): ${variants[*]}"
declare -A v_fail=() v_built=() v_cached=()
for v in "${variants[@]}"; do v_built[$v]=0 v_cached[$v]=0; done
for i in "${!commits[@]}"; do
	num=$((i + 1)) p=${patches[$i]} c=${commits[$i]}
	ktree=$(kernel_tree_of "$src" "$c")
	for v in "${variants[@]}"; do
		[ -z "${v_fail[$v]:-}" ] || continue
		out=$(ts_path check-build "$v")
		k=$(key build "$v" "$ktree" "$(cat "$out/.config.check")")
		if is_passed "$k"; then
			v_cached[$v]=$((v_cached[$v] + 1))
			continue
		fi
		worktree "$src" "$c"
		use_config "$src" "$out"
		mapfile -t objs < <(objects "$src" "$out")
		[ "${#objs[@]}" -gt 0 ] || die "no object to build at patch $num ($p) for variant $v"
		blog=$logs/build-$v-$num.log
		log "patch $num/$n ($p), $v: ${objs[*]}"
		if ! kmake "$src" "$out" ARCH=x86_64 "${objs[@]}" >"$blog" 2>&1; then
			echo "--- patch $num ($p) does not compile in variant $v:" >&2
			show_errors "$blog"
			v_fail[$v]="FAIL at patch $num $p: compile error (see $blog)"
		elif grep -qE ': warning:' "$blog"; then
			echo "--- patch $num ($p) compiles with warnings in variant $v:" >&2
			show_errors "$blog"
			v_fail[$v]="FAIL at patch $num $p: compiler warning (see $blog)"
		else
			mark_passed "$k"
			v_built[$v]=$((v_built[$v] + 1))
		fi
	done
done
for v in "${variants[@]}"; do
	row build "$v: prefixes 1..$n" \
		"${v_fail[$v]:-ok (${v_built[$v]} built, ${v_cached[$v]} unchanged)}"
done
print_table

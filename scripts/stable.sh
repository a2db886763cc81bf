#!/usr/bin/env bash
# usage: scripts/stable.sh [X.Y ...]   (make stable; default: every patches/stable/X.Y/)
# The fixes on the stable kernels Debian ships.  For each stable kernel X.Y
# (run again with TS_KERNEL=X.Y, so that everything lives under its own
# linux-X.Y/):
#   1. its base tree, Debian's linux-source-X.Y (scripts/ts tree base), and
#      the stable tree, a worktree at the base commit with
#      patches/stable/X.Y/series applied by git am ($TS_STABLE_SRC);
#   2. checkpatch --strict on the backports (scripts/check-patches.sh
#      patches/stable/X.Y);
#   3. the base and stable guest kernels (scripts/ts guest);
#   4. both booted with mainline's selftests and liburing's tests of the
#      backported io_uring fixes: the initramfs "stable" of the mainline
#      series' kernel ($TS_MAINLINE; scripts/ts initramfs stable: the tests
#      initramfs, built once from that tree with its own uapi headers, and
#      the programs of qemu-config/stable, staged by scripts/suites.sh),
#      copied as the suite "mainline" (scripts/ts boot K mainline);
#   5. judged by scripts/report.py --stable: the kernels differ by exactly
#      the rules of the backported fixes, and a case of a fix that is not
#      backported is one the kernel predates (the rules and the mapping are
#      mainline's: scripts/tsanity/stable.py); a test fails only as
#      patches/stable/X.Y/expected-failures says (the base fails the tests
#      of every fix, base + backports those of the fixes not backported:
#      liburing's tests of the backports fail on the base and must pass
#      with them); the other timeout forms by scripts/forms.py, which
#      allows no difference (no backported fix changes a form).
# Every kernel is built, booted and judged even if one fails; exits 1 if
# any step failed, each named.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

if [ "${1:-}" = --one ]; then
	# One stable kernel: TS_KERNEL=X.Y scripts/stable.sh --one INITRAMFS_DIR
	[ $# -eq 2 ] || die "usage: TS_KERNEL=X.Y scripts/stable.sh --one INITRAMFS_DIR"
	mainline_initramfs=$2
	[ -n "$TS_STABLE_SERIES" ] || die "Linux $TS_KERNEL has no stable series (patches/stable/$TS_KERNEL/series)"
	ts tree base || die "the base tree of $TS_KERNEL (see above)"
	[ -e "$TS_STABLE_SRC/.git" ] || worktree "$TS_STABLE_SRC" "$TS_BASE_TAG"
	series_tree "$TS_STABLE_SERIES" "$TS_STABLE_SRC"
	n=$(series_patches "$TS_STABLE_SERIES/series" | wc -l)
	echo "stable: $TS_STABLE_SRC, $n backports of ${TS_STABLE_SERIES#"$TS_REPO/"}/series on $TS_BASE_TAG"
	rc=0
	"$TS_REPO/scripts/check-patches.sh" "$TS_STABLE_SERIES" || rc=1
	ts guest base stable >/dev/null || die "the guest kernels of $TS_KERNEL did not build"
	# Mainline's selftests, as the mainline tree built them.
	b=$(ts_path initramfs mainline)
	mkdir -p "$b"
	for f in initramfs.cpio tests; do
		cmp -s "$mainline_initramfs/$f" "$b/$f" || cp "$mainline_initramfs/$f" "$b/$f"
	done
	for k in base stable; do
		ts boot "$k" mainline || rc=1
	done
	d=$(ts_path boot-results mainline)
	python3 "$TS_REPO/scripts/report.py" --stable "$d" base stable || rc=1
	python3 "$TS_REPO/scripts/forms.py" --intended /dev/null "$d" base stable || rc=1
	exit "$rc"
fi

versions=("$@")
if [ ${#versions[@]} -eq 0 ]; then
	list=$(ts stable) || die "scripts/ts stable failed"
	[ -z "$list" ] || mapfile -t versions <<<"$list"
fi
[ ${#versions[@]} -gt 0 ] || die "no stable series in $TS_REPO/patches/stable/"
# Mainline's selftests, built once from the mainline tree, and liburing's
# tests of the backported fixes.
TS_KERNEL=$TS_MAINLINE "$TS_REPO/scripts/suites.sh" liburing >/dev/null ||
	die "scripts/suites.sh liburing failed (liburing's tests for qemu-config/stable)"
mainline_initramfs=$(TS_KERNEL=$TS_MAINLINE ts initramfs stable) ||
	die "the stable initramfs of Linux $TS_MAINLINE did not build"
mainline_initramfs=$(dirname "$mainline_initramfs")
failed=()
for v in "${versions[@]}"; do
	start=$SECONDS
	TS_KERNEL=$v "$0" --one "$mainline_initramfs" || failed+=("$v")
	log "stable $v: $((SECONDS - start)) s"
done
[ ${#failed[@]} -eq 0 ] || die "make stable failed on ${failed[*]} (the errors above name each step)"
echo "stable: ${versions[*]}: backports apply, build, and boot mainline's selftests as mainline's rules say"

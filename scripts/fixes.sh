#!/usr/bin/env bash
# usage: scripts/fixes.sh
# The two parts of the series, each proven on its own (patches/series):
#  1. the fixes part alone (6.12 + fixes): its guest kernel, booted with the
#     same initramfs as the main run, must differ from 6.12 by exactly the
#     cases of patches/intended-differences, with their outcomes;
#  2. the refactor on top of it: the main run's patched kernel must answer
#     every case exactly as 6.12 + fixes does (no intended difference,
#     TS_INTENDED=/dev/null).
# The fixes live in the worktree $TS_WORK/fixes-src at the fixes' last
# commit of $TS_SRC, with their own O= directory $TS_WORK/out-fixes;
# results go to $TS_WORK/results-fixes (6.12 against the fixes) and
# $TS_WORK/results-refactor (the fixes against the whole series).  The 6.12
# guest kernel, the initramfs and the patched boot are the main run's
# (make boot).  That the fixes build in every configuration, alone and
# with each prefix of the series, is scripts/check.sh's job.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -eq 0 ] || die "usage: scripts/fixes.sh"
series_file=$TS_REPO/patches/series
[ -d "$TS_SRC/.git" ] || die "$TS_SRC is not a git tree (run scripts/tree.sh)"

nfixes=$(series_patches "$series_file" fixes | wc -l)
nrefactor=$(series_patches "$series_file" refactor | wc -l)
total=$(series_patches "$series_file" | wc -l)
[ "$nfixes" -gt 0 ] || die "$series_file has no patch in '# part: fixes'"
[ "$nrefactor" -gt 0 ] || die "$series_file has no patch in '# part: refactor'"
[ $((nfixes + nrefactor)) -eq "$total" ] ||
	die "$series_file: $total patches, but fixes ($nfixes) and refactor ($nrefactor) make $((nfixes + nrefactor))"
[ "$(series_patches "$series_file" | head -n "$nfixes")" = "$(series_patches "$series_file" fixes)" ] ||
	die "$series_file: the fixes part must come first"
applied=$(git -C "$TS_SRC" rev-list --count "$TS_BASE_TAG"..HEAD)
[ "$applied" -eq "$total" ] ||
	die "$TS_SRC has $applied patches applied, patches/series lists $total (run scripts/tree.sh)"
commit=$(git -C "$TS_SRC" rev-list --reverse "$TS_BASE_TAG"..HEAD | sed -n "${nfixes}p")
echo "fixes: patches 1-$nfixes of $total, up to $(git -C "$TS_SRC" log -1 --format='%h %s' "$commit")"

main_results=$TS_RESULTS/tests
for k in base patched; do
	[ -f "$main_results/$k/verdict.json" ] ||
		die "$main_results/$k/verdict.json not found: the main boot must run first (make boot)"
done
initramfs=$TS_OUT/initramfs-tests
[ -f "$initramfs/initramfs.cpio" ] || die "$initramfs/initramfs.cpio not found (make initramfs)"

# The worktree; checked out again only when the fixes moved, so that make
# stays incremental.
fixes_src=$TS_WORK/fixes-src
if [ ! -e "$fixes_src/Makefile" ]; then
	rm -rf "$fixes_src"
	git -C "$TS_SRC" worktree prune
	git -C "$TS_SRC" worktree add -q --detach "$fixes_src" "$commit"
elif [ "$(git -C "$fixes_src" rev-parse HEAD)" != "$commit" ]; then
	git -C "$fixes_src" checkout -q --detach "$commit"
fi

# 1. 6.12 against 6.12 + fixes: the fixes kernel takes the place of
# "patched"; the 6.12 kernel and the initramfs are the main run's.
fixes_out=$TS_WORK/out-fixes
fixes_results=$TS_WORK/results-fixes
mkdir -p "$fixes_out"
ln -sfn "$TS_OUT/guest-base" "$fixes_out/guest-base"
ln -sfn "$initramfs" "$fixes_out/initramfs-tests"
fixenv=(env TS_SRC="$fixes_src" TS_OUT="$fixes_out" TS_RESULTS="$fixes_results")
rm -f "$TS_WORK/results-fixes/series.sha"
"${fixenv[@]}" "$TS_REPO/scripts/guest-kernel.sh" patched >/dev/null ||
	die "the guest kernel of the fixes alone (patches 1-$nfixes) does not build in $fixes_out"
rc=0
"${fixenv[@]}" "$TS_REPO/scripts/boot.sh" base || rc=1
"${fixenv[@]}" "$TS_REPO/scripts/boot.sh" patched || rc=1
"${fixenv[@]}" "$TS_REPO/scripts/report.py" "$fixes_results/tests" || rc=1
[ "$rc" -eq 0 ] ||
	die "the fixes alone (patches 1-$nfixes) do not differ from 6.12 by exactly patches/intended-differences: see $fixes_results/tests/report.md"
echo "fixes: patches 1-$nfixes against 6.12: exactly the intended differences"

# 2. 6.12 + fixes against the whole series: no difference allowed.  The
# boots are those just made and the main run's.
refactor_results=$TS_WORK/results-refactor/tests
mkdir -p "$refactor_results"
ln -sfn "$fixes_results/tests/patched" "$refactor_results/base"
ln -sfn "$main_results/patched" "$refactor_results/patched"
TS_INTENDED=/dev/null "$TS_REPO/scripts/report.py" "$refactor_results" ||
	die "the refactor (patches $((nfixes + 1))-$total) changes what 6.12 + fixes answers: see $refactor_results/report.md"
echo "fixes: the refactor (patches $((nfixes + 1))-$total) on top of the fixes: no difference"
# Which series these two verdicts are of (scripts/mbox.py quotes them).
git -C "$TS_SRC" rev-parse HEAD >"$TS_WORK/results-fixes/series.sha"

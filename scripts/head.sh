#!/usr/bin/env bash
# usage: scripts/head.sh
# The series without its tail must build and pass on its own: boot the
# kernel of the head (the patches of patches/series above the line
# "# tail: ...") against 6.12 and require that the two answer every case
# of the head's own timeout_classes alike, with no intended difference
# (TS_INTENDED=/dev/null).  The head lives in the worktree $TS_WORK/head-src
# at the head's last commit of $TS_SRC, with its own O= directories in
# $TS_WORK/out-head and results in $TS_WORK/results-head; the 6.12 guest
# kernel is shared with the main run.  The head's KUnit suite runs too
# (the tail adds rows to it).  Every prefix of the series, the head
# included, is compiled by scripts/check.sh.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -eq 0 ] || die "usage: scripts/head.sh"
series_file=$TS_REPO/patches/series
[ -d "$TS_SRC/.git" ] || die "$TS_SRC is not a git tree (run scripts/tree.sh)"

# Patches before the "# tail:" line, and in all.
grep -q '^# tail:' "$series_file" || die "$series_file has no '# tail:' line: no tail to leave out"
head=$(series_patches "$series_file" head | wc -l)
total=$(series_patches "$series_file" | wc -l)
[ "$head" -lt "$total" ] || die "$series_file: the tail after '# tail:' is empty"
applied=$(git -C "$TS_SRC" rev-list --count "$TS_BASE_TAG"..HEAD)
[ "$applied" -eq "$total" ] ||
	die "$TS_SRC has $applied patches applied, patches/series lists $total (run scripts/tree.sh)"
commit=$(git -C "$TS_SRC" rev-list --reverse "$TS_BASE_TAG"..HEAD | sed -n "${head}p")
echo "head: patches 1-$head of $total, $(git -C "$TS_SRC" log -1 --format='%h %s' "$commit")"

# The worktree; checked out again only when the head moved, so that make
# stays incremental.
head_src=$TS_WORK/head-src
if [ ! -e "$head_src/Makefile" ]; then
	rm -rf "$head_src"
	git -C "$TS_SRC" worktree prune
	git -C "$TS_SRC" worktree add -q --detach "$head_src" "$commit"
elif [ "$(git -C "$head_src" rev-parse HEAD)" != "$commit" ]; then
	git -C "$head_src" checkout -q --detach "$commit"
fi

# The 6.12 guest is the main run's; the head gets the place of "patched".
"$TS_REPO/scripts/guest-kernel.sh" base >/dev/null
head_out=$TS_WORK/out-head
head_results=$TS_WORK/results-head
mkdir -p "$head_out"
ln -sfn "$TS_OUT/guest-base" "$head_out/guest-base"
export TS_SRC=$head_src TS_OUT=$head_out TS_RESULTS=$head_results TS_INTENDED=/dev/null
# The floor of kunit.sh counts the tail's rows; the head has 126 fewer.
TS_KUNIT_MIN_PARAMS=$(( ${TS_KUNIT_MIN_PARAMS:-504} - 126 )) "$TS_REPO/scripts/kunit.sh" plain
"$TS_REPO/scripts/guest-kernel.sh" patched >/dev/null
"$TS_REPO/scripts/initramfs.sh" tests >/dev/null
rc=0
"$TS_REPO/scripts/boot.sh" base || rc=1
"$TS_REPO/scripts/boot.sh" patched || rc=1
"$TS_REPO/scripts/report.py" "$head_results/tests" || rc=1
[ "$rc" -eq 0 ] || die "the series without its tail (patches 1-$head) does not pass: see $head_results/tests/report.md"
echo "head: patches 1-$head pass without the tail"

#!/usr/bin/env bash
# usage: scripts/tree.sh [base]
# The three kernel trees, outside the repository (scripts/lib.sh):
#   $TS_SRC        patched: linux-source-$TS_KERNEL as a git base commit (tag
#                  base-$TS_KERNEL) with patches/series applied by git am;
#   $TS_BASE_SRC   base: a worktree of the same repository at the base commit;
#   $TS_FIXES_SRC  fixes: a worktree at the last commit of the fixes part.
# Re-runs are incremental: nothing happens if the series did not change, and
# when it did, files whose content ends up unchanged keep their mtime, so
# that make rebuilds only what the change touched (lib.sh: series_tree).
# With "base", only the extraction and $TS_BASE_SRC (make base): what
# make check-patches needs, whether the series applies or not.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

{ [ $# -le 1 ] && [ "${1:-base}" = base ]; } || die "usage: scripts/tree.sh [base]"
root=$(ts_path root)
# The kernel's source package, installed from the machine's own suites
# where they have it (scripts/deps.sh --kernel; a no-op when it is there or
# fetched).  make stable and make check-full reach a stable kernel's
# linux-source-X.Y only through here.
"$TS_REPO/scripts/deps.sh" --kernel || die "scripts/deps.sh failed for Linux $TS_KERNEL ($TS_KERNEL_PACKAGE; see above)"
# The kernel's source: the installed package, or one from a newer suite
# (scripts/tsanity/kernel.py: source).  What the trees were extracted
# from is recorded ($root/kernel.json) for the results and the mbox.
source=$(ts kernel source) || die "no source for $TS_KERNEL_PACKAGE (see above)"
IFS=$'\t' read -r _ pkgver tarball origin <<<"$source"
[ -r "$tarball" ] || die "kernel tarball $tarball not found (package $TS_KERNEL_PACKAGE; run scripts/deps.sh as root)"

extract() {
	local tmp
	tmp=$(ts_path extract-tmp)
	log "extracting $tarball ($TS_KERNEL_PACKAGE $pkgver, $origin) into $TS_SRC"
	rm -rf "$tmp"
	mkdir -p "$tmp"
	tar -xJf "$tarball" -C "$tmp" --strip-components=1
	git -C "$tmp" init -q -b main
	git -C "$tmp" config user.name "Timespec Sanity Project"
	git -C "$tmp" config user.email "timespec-sanity@example.org"
	git -C "$tmp" config core.autocrlf false
	git -C "$tmp" config gc.auto 0
	# Debian's tarball ignores everything at the top level: add by force.
	git -C "$tmp" add -f -A
	[ -n "$(git -C "$tmp" diff --cached --name-only | sed -n 1p)" ] ||
		die "nothing staged from $tarball: the base commit would be empty"
	git -C "$tmp" commit -q -m "$TS_KERNEL_PACKAGE $pkgver (Debian), unmodified"
	git -C "$tmp" tag "$TS_BASE_TAG"
	rm -f "$TS_SRC.stamp"
	mv "$tmp" "$TS_SRC"
	ts kernel source --write >/dev/null || die "recording the source of $TS_SRC failed"
}

mkdir -p "$(dirname "$TS_SRC")"
[ -d "$TS_SRC/.git" ] || extract

worktree "$TS_BASE_SRC" "$TS_BASE_TAG"
kver=$(make -s -C "$TS_BASE_SRC" kernelversion) || die "make kernelversion failed in $TS_BASE_SRC"
case $kver in
"$TS_KERNEL".*) ;;
*) die "the tree in $TS_SRC is Linux $kver, not $TS_KERNEL.x: refusing (remove $root to start over)" ;;
esac
# The trees stay what they were extracted from: a newer package is named,
# not taken (remove $root to take it).
extracted=$(git -C "$TS_SRC" log -1 --format=%s "$TS_BASE_TAG") || die "no commit $TS_BASE_TAG in $TS_SRC"
record=$(ts_path kernel-record)
if [ "$extracted" != "$TS_KERNEL_PACKAGE $pkgver (Debian), unmodified" ]; then
	echo "warning: the tree in $TS_SRC is '$extracted'; the source is now $TS_KERNEL_PACKAGE $pkgver (remove $root to take it)" >&2
elif [ ! -e "$record" ]; then
	ts kernel source --write >/dev/null || die "recording the source of $TS_SRC failed"
fi
echo "tree: ${extracted% (Debian), unmodified}, Linux $kver, in $TS_SRC"
if [ $# -eq 1 ]; then
	echo "base: $TS_BASE_SRC at $TS_BASE_TAG"
	exit 0
fi

[ -n "$TS_SERIES" ] || die "Linux $TS_KERNEL has no series in the repository (scripts/tsanity/kernel.py: SERIES); make base works without one"
series_tree "$TS_SERIES" "$TS_SRC"
echo "patched: $TS_SRC, $(series_commits "$TS_SRC" | wc -l) patches of ${TS_SERIES#"$TS_REPO/"}/series"
echo "base: $TS_BASE_SRC at $TS_BASE_TAG"
fixes=$(series_commits "$TS_SRC" fixes | tail -n 1)
worktree "$TS_FIXES_SRC" "$fixes"
echo "fixes: $TS_FIXES_SRC at $(git -C "$TS_SRC" log -1 --format='%h %s' "$fixes")"

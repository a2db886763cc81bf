#!/usr/bin/env bash
# usage: scripts/tree.sh
# Prepare the kernel trees outside the repository:
#   $TS_SRC       linux-source-6.12 as a git base commit (tag base-6.12) with
#                 patches/series applied on top by git am;
#   $TS_BASE_SRC  a worktree of the same repository at the base commit (the
#                 unpatched 6.12 that the integration boot compares against).
# Re-runs are incremental: nothing happens if the series did not change, and
# when it did, files whose content ends up unchanged keep their mtime so that
# make rebuilds only what the edit really touched.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

series_file=$TS_REPO/patches/series
[ -r "$TS_TARBALL" ] || die "kernel tarball $TS_TARBALL not found (package linux-source-6.12; run scripts/deps.sh as root)"
[ -r "$series_file" ] || die "$series_file not found"

pkgver=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null) ||
	die "package linux-source-6.12 is not installed"

extract() {
	local tmp=$TS_WORK/src.tmp
	log "extracting $TS_TARBALL (linux-source-6.12 $pkgver) into $TS_SRC"
	rm -rf "$tmp"
	mkdir -p "$tmp"
	tar -xJf "$TS_TARBALL" -C "$tmp" --strip-components=1
	git -C "$tmp" init -q -b main
	git -C "$tmp" config user.name "Timespec Sanity Project"
	git -C "$tmp" config user.email "timespec-sanity@example.org"
	git -C "$tmp" config core.autocrlf false
	git -C "$tmp" config gc.auto 0
	# Debian's tarball ignores everything at the top level: add by force.
	git -C "$tmp" add -f -A
	[ -n "$(git -C "$tmp" diff --cached --name-only | head -n 1)" ] ||
		die "nothing staged from $TS_TARBALL: the base commit would be empty"
	git -C "$tmp" commit -q -m "linux-source-6.12 $pkgver (Debian), unmodified"
	git -C "$tmp" tag "$TS_BASE_TAG"
	mv "$tmp" "$TS_SRC"
}

kernel_version() {
	make -s -C "$1" kernelversion
}

mkdir -p "$TS_WORK"
[ -d "$TS_SRC/.git" ] || extract

kver=$(git -C "$TS_SRC" show "$TS_BASE_TAG:Makefile" |
	awk -F' = ' '$1=="VERSION"{v=$2} $1=="PATCHLEVEL"{p=$2} $1=="SUBLEVEL"{s=$2} END{print v"."p"."s}')
case $kver in
6.12.*) ;;
*) die "the tree in $TS_SRC is Linux $kver, not 6.12.x: refusing (remove $TS_WORK to start over)" ;;
esac
echo "tree: linux-source-6.12 $pkgver, Linux $kver, in $TS_SRC"

# The state of the series: the content of every listed patch, in order.
stamp=$(
	cd "$TS_REPO/patches"
	series_patches "$series_file" | while read -r p; do
		[ -r "$p" ] || { echo "missing:$p"; continue; }
		sha256sum "$p"
	done | sha256sum | cut -d' ' -f1
)
while read -r p; do
	[ -r "$TS_REPO/patches/$p" ] || die "patch $p is listed in patches/series but does not exist"
done < <(series_patches "$series_file")

stamp_file=$TS_WORK/series.stamp
if [ -r "$stamp_file" ] && [ "$(cat "$stamp_file")" = "$stamp" ] &&
	[ -z "$(git -C "$TS_SRC" status --porcelain --untracked-files=no)" ]; then
	echo "series: unchanged, $(git -C "$TS_SRC" rev-list --count "$TS_BASE_TAG"..HEAD) patches applied"
else
	rm -f "$stamp_file"
	# Remember content and mtime of everything the old series touched.
	saved=$TS_WORK/mtimes
	git -C "$TS_SRC" diff --name-only "$TS_BASE_TAG" HEAD | while read -r f; do
		[ -e "$TS_SRC/$f" ] || continue
		printf '%s %s %s\n' "$(git -C "$TS_SRC" hash-object "$f")" \
			"$(stat -c %.9Y "$TS_SRC/$f")" "$f"
	done > "$saved"

	# An earlier run may have stopped inside git am.
	if [ -d "$(git -C "$TS_SRC" rev-parse --path-format=absolute --git-path rebase-apply)" ]; then
		git -C "$TS_SRC" am --abort
	fi
	git -C "$TS_SRC" reset -q --hard "$TS_BASE_TAG"
	git -C "$TS_SRC" clean -q -fdx -e /.git >/dev/null
	n=0
	while read -r p; do
		n=$((n + 1))
		if ! git -C "$TS_SRC" am -q --whitespace=nowarn "$TS_REPO/patches/$p" >"$TS_WORK/am.log" 2>&1; then
			cat "$TS_WORK/am.log" >&2
			git -C "$TS_SRC" am --abort
			die "patch $n ($p) does not apply to linux-source-6.12 $pkgver"
		fi
	done < <(series_patches "$series_file")

	# Unchanged content keeps its old mtime, so make does not rebuild it.
	while read -r blob mtime f; do
		[ -e "$TS_SRC/$f" ] || continue
		[ "$(git -C "$TS_SRC" hash-object "$f")" = "$blob" ] || continue
		touch -m -d "@$mtime" "$TS_SRC/$f"
	done < "$saved"
	echo "$stamp" > "$stamp_file"
	echo "series: $n patches applied with git am"
fi

if [ ! -e "$TS_BASE_SRC/Makefile" ]; then
	log "checking out the unpatched base in $TS_BASE_SRC"
	rm -rf "$TS_BASE_SRC"
	git -C "$TS_SRC" worktree prune
	git -C "$TS_SRC" worktree add -q --detach "$TS_BASE_SRC" "$TS_BASE_TAG"
fi
echo "base: $TS_BASE_SRC at $TS_BASE_TAG"

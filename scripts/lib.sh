# shellcheck shell=bash
# The one library of the host scripts: every TS_* variable, the kernel trees
# and their worktrees, the series and its stamp, and
# how we fail.  Sourced, never run.

###############################################################################
# Variables.  Every TS_* variable, its default and what it is for, is
# scripts/tsanity/config.py's (`scripts/ts variables` lists them; the
# README too); every path of $TS_WORK is scripts/tsanity/layout.py's.
# They are evaluated here from `scripts/ts env`: a variable set in the
# environment overrides its default.  TS_KERNEL (X.Y) names the kernel,
# Debian's linux-source-X.Y; everything built from it lives in
# $TS_WORK/linux-X.Y.  The three kernels of a tree are base (Debian's
# source, tag $TS_BASE_TAG), fixes (base + the fixes part of the series),
# patched (base + the whole series).
###############################################################################
TS_REPO=${TS_REPO:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
# The command line beside this library (not $TS_REPO's, which a test may
# point elsewhere).
_ts_cli=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/ts
# ts ARG...: scripts/ts with every TS_* variable this shell has set,
# exported or not.
ts() {
	local v vars=()
	for v in $(compgen -v TS_); do vars+=("$v=${!v}"); done
	env "${vars[@]}" python3 "$_ts_cli" "$@"
}
_ts_env=$(ts env) ||
	{ echo "error: scripts/ts env failed: the TS_* configuration is not usable (see above)" >&2; exit 1; }
eval "$_ts_env"
unset _ts_env

die() {
	echo "error: $*" >&2
	exit 1
}

log() {
	echo "==> $*" >&2
}

# ts_path NAME [ARG...]: one path of the layout (scripts/tsanity/layout.py),
# e.g. ts_path guest patched sanitized.
ts_path() {
	ts path "$@" || die "scripts/ts path $* failed"
}

# src_of KERNEL: the tree of a kernel (base, fixes, patched, stable).
src_of() {
	ts_path tree "$1"
}

# ccache_env CMD...: CMD with Debian's ccache in front of the compilers
# (/usr/lib/ccache holds gcc, cc, clang and clang-19 as ccache), its cache
# in $TS_CCACHE_DIR, so that a kernel rebuilt after a change, each prefix
# of check-bisect, and a KUnit or guest build of the same sources compile
# only what changed.  The base directory makes absolute paths under
# $TS_WORK relative, and the cwd is not hashed, so that compile commands
# equal but for the tree's place can hit too.  Its twin for the Python
# stages is tsanity.build.ccache_env (scripts/tests/test_lib.sh: equal).
ccache_env() {
	[ -x /usr/lib/ccache/gcc ] ||
		die "/usr/lib/ccache/gcc not found: install Debian's ccache (make deps)"
	mkdir -p "$TS_CCACHE_DIR"
	PATH="/usr/lib/ccache:$PATH" CCACHE_DIR="$TS_CCACHE_DIR" CCACHE_BASEDIR="$TS_WORK" \
		CCACHE_NOHASHDIR=1 "$@"
}

# kmake SRC OUT ARGS...: make in SRC with O=OUT, through ccache_env,
# serialised by the build lock.
kmake() {
	local src=$1 out=$2
	shift 2
	mkdir -p "$out" "$(dirname "$TS_BUILD_LOCK")"
	ccache_env flock "$TS_BUILD_LOCK" make -C "$src" O="$out" -j"$TS_JOBS" "$@"
}

###############################################################################
# The series

###############################################################################
# series_patches FILE [PART]: the patches a series file lists, in order
# (comments and blank lines skipped); with PART, only those of the part
# that a "# part: PART" line opens (patches/series: fixes, refactor).
series_patches() {
	ts series "$@" || die "reading the series file $1 failed"
}

# The git work of the trees is tsanity.trees' (scripts/ts): these name it
# for the shell.  Each but series_stamp ends the script (or the command
# substitution it runs in, where set -e does not hold) when it fails, as
# die did; it says why.
# series_stamp DIR: the state of DIR/series: the content of every patch it
# lists, in order; names a listed patch that does not exist.
series_stamp() {
	ts series-stamp "$1"
}

# series_tree PATCHES TREE [BASE]: TREE holds BASE (default the base
# commit, $TS_BASE_TAG) with PATCHES/series applied by git am, one commit
# per patch; nothing happens when it already does, and files whose content
# ends up unchanged keep their mtime.  The one git am of the project.
series_tree() {
	ts series-tree "$@" || exit 1
}

# series_commits TREE [PART]: the commits of the series in TREE ($TS_SRC:
# the kernel's series; another: $TS_PATCHES), oldest first (PART: only
# those of patches/series' part, fixes or refactor).
series_commits() {
	ts series-commits "$@" || exit 1
}

# worktree DIR REV: DIR is a worktree of $TS_SRC's repository with REV
# checked out (detached); made if missing, checked out if elsewhere.
worktree() {
	ts worktree "$@" || exit 1
}

# patches_tree: the tree that holds $TS_PATCHES applied: $TS_SRC for the
# repository's own patches (make tree), else the worktree
# $TS_WORK/other-src, brought up to date with series_tree.
patches_tree() {
	if [ -n "$TS_SERIES" ] && [ "$(cd "$TS_PATCHES" && pwd)" = "$(cd "$TS_SERIES" && pwd)" ]; then
		[ "$(cut -d' ' -f1 "$TS_SRC.stamp" 2>/dev/null)" = "$(series_stamp "$TS_PATCHES")" ] ||
			die "$TS_SRC does not hold ${TS_SERIES#"$TS_REPO/"}/series as it is now (run make tree)"
		echo "$TS_SRC"
	else
		local other
		other=$(ts_path worktree other)
		[ -e "$other/.git" ] || worktree "$other" "$TS_BASE_TAG"
		series_tree "$TS_PATCHES" "$other"
		echo "$other"
	fi
}


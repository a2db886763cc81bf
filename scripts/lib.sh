# shellcheck shell=bash
# Shared settings for the host scripts: where things live, and how we fail.
# Sourced, never run.  Every path can be overridden from the environment.

TS_REPO=${TS_REPO:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
TS_WORK=${TS_WORK:-${XDG_CACHE_HOME:-$HOME/.cache}/timespec-sanity}
TS_SRC=${TS_SRC:-$TS_WORK/src}            # patched tree (git, base commit + series)
TS_BASE_SRC=${TS_BASE_SRC:-$TS_WORK/base-src} # unpatched tree (worktree at the base)
TS_OUT=${TS_OUT:-$TS_WORK/out}            # O= build directories
TS_RESULTS=${TS_RESULTS:-$TS_WORK/results}
TS_TARBALL=${TS_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
TS_BASE_TAG=base-6.12
TS_JOBS=${TS_JOBS:-$(nproc)}
# One kernel build at a time on this machine: every build takes this lock.
TS_BUILD_LOCK=${TS_BUILD_LOCK:-$TS_WORK/build.lock}

# series_patches FILE [PART]: the patches a series file lists, in order
# (comments and blank lines skipped); with PART, only those of the part
# that a "# part: PART" line opens (patches/series: fixes, refactor).
series_patches() {
	awk -v want="${2:-}" '/^# part: / { part = $3; next }
		{ sub(/#.*/, ""); gsub(/[ \t]+$/, "") }
		NF && (want == "" || part == want)' "$1"
}

die() {
	echo "error: $*" >&2
	exit 1
}

log() {
	echo "==> $*" >&2
}

# kmake SRC OUT ARGS...: make in SRC with O=OUT, serialised by the build lock.
kmake() {
	local src=$1 out=$2
	shift 2
	mkdir -p "$out" "$(dirname "$TS_BUILD_LOCK")"
	flock "$TS_BUILD_LOCK" make -C "$src" O="$out" -j"$TS_JOBS" "$@"
}

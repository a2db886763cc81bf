# shellcheck shell=bash
# The one library of the host scripts: every TS_* variable, the kernel trees
# and their worktrees, the series and its stamp, the one kconfig step, and
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
# apt_offers PACKAGE: the machine's apt lists offer PACKAGE (a candidate
# version).  apt-cache's answer is read whole before grep: under pipefail,
# a `grep -q` that stops at the first match kills apt-cache with SIGPIPE,
# and the pipeline fails although the package is there (every time on a
# fresh machine, where linux-source-6.12 has six versions).
apt_offers() {
	local policy
	policy=$(apt-cache policy "$1" 2>/dev/null)
	grep -q '^ *Candidate: [^(]' <<<"$policy"
}

###############################################################################
# series_patches FILE [PART]: the patches a series file lists, in order
# (comments and blank lines skipped); with PART, only those of the part
# that a "# part: PART" line opens (patches/series: fixes, refactor).
series_patches() {
	ts series "$@" || die "reading the series file $1 failed"
}

# series_stamp DIR: the state of DIR/series: the content of every patch it
# lists, in order.  Dies naming a listed patch that does not exist.
series_stamp() {
	local dir=$1 p
	[ -r "$dir/series" ] || die "$dir/series not found"
	series_patches "$dir/series" | while read -r p; do
		[ -r "$dir/$p" ] || die "patch $p is listed in $dir/series but does not exist"
		sha256sum "$dir/$p"
	done | sed "s# $dir/# #" | sha256sum | cut -d' ' -f1
}

# series_tree PATCHES TREE [BASE]: the git tree TREE holds BASE (default
# the base commit, $TS_BASE_TAG) with PATCHES/series applied by git am, one
# commit per patch (an mbox's empty cover letter is dropped).  Nothing
# happens when TREE already holds exactly that series (its stamp is
# TREE.stamp).  Otherwise the series is applied again; files whose content
# ends up unchanged keep their mtime, so that make rebuilds only what the
# change touched.  The one git am of the project.
series_tree() {
	local patches=$1 tree=$2 base=${3:-$TS_BASE_TAG} stamp n=0 p saved blob mtime f list
	stamp=$(series_stamp "$patches") || exit 1
	stamp="$stamp $(git -C "$tree" rev-parse "$base")" || exit 1
	# The stamp's last word is the commit the series ended at: a tree
	# checked out elsewhere since is applied again.
	if [ -r "$tree.stamp" ] && [ "$(cat "$tree.stamp")" = "$stamp $(git -C "$tree" rev-parse HEAD)" ] &&
		[ -z "$(git -C "$tree" status --porcelain --untracked-files=no)" ]; then
		return 0
	fi
	rm -f "$tree.stamp"
	saved=$tree.mtimes
	git -C "$tree" diff --name-only "$base" HEAD | while read -r f; do
		[ -e "$tree/$f" ] || continue
		printf '%s %s %s\n' "$(git -C "$tree" hash-object "$f")" \
			"$(stat -c %.9Y "$tree/$f")" "$f"
	done >"$saved"
	# An earlier run may have stopped inside git am.
	if [ -d "$(git -C "$tree" rev-parse --path-format=absolute --git-path rebase-apply)" ]; then
		git -C "$tree" am --abort || die "git am --abort in $tree failed"
	fi
	git -C "$tree" reset -q --hard "$base" || die "git reset --hard $base in $tree failed"
	git -C "$tree" clean -q -fdx -e /.git >/dev/null || die "git clean in $tree failed"
	list=$(series_patches "$patches/series") || exit 1
	while read -r p; do
		[ -n "$p" ] || continue
		n=$((n + 1))
		if ! git -C "$tree" am -q --whitespace=nowarn --empty=drop "$patches/$p" >"$tree.am.log" 2>&1; then
			cat "$tree.am.log" >&2
			git -C "$tree" am --abort
			die "patch $n ($p) of $patches/series does not apply to $base"
		fi
	done <<<"$list"
	while read -r blob mtime f; do
		[ -e "$tree/$f" ] || continue
		[ "$(git -C "$tree" hash-object "$f")" = "$blob" ] || continue
		touch -m -d "@$mtime" "$tree/$f"
	done <"$saved"
	echo "$stamp $(git -C "$tree" rev-parse HEAD)" >"$tree.stamp"
	log "$n patches of $patches/series applied in $tree with git am"
}

# series_commits TREE [PART]: the commits of the series in TREE, oldest
# first (PART: only those of patches/series' part, fixes or refactor).
# Dies if TREE does not hold its series as series_tree left it.
series_commits() {
	local tree=$1 part=${2:-} patches n nfixes
	[ -r "$tree.stamp" ] || die "$tree holds no series (run make tree)"
	patches=$TS_PATCHES
	[ "$tree" != "$TS_SRC" ] || patches=$TS_SERIES
	n=$(series_patches "$patches/series" | wc -l)
	[ "$(git -C "$tree" rev-list --count "$TS_BASE_TAG"..HEAD)" -eq "$n" ] ||
		die "$tree does not hold the $n patches of $patches/series (run make tree)"
	case $part in
	'') git -C "$tree" rev-list --reverse "$TS_BASE_TAG"..HEAD ;;
	fixes | refactor)
		nfixes=$(series_patches "$patches/series" fixes | wc -l)
		[ "$nfixes" -gt 0 ] || die "$patches/series has no patch in '# part: fixes'"
		[ "$(series_patches "$patches/series" | sed -n "1,${nfixes}p")" = \
			"$(series_patches "$patches/series" fixes)" ] ||
			die "$patches/series: the fixes part must come first"
		if [ "$part" = fixes ]; then
			git -C "$tree" rev-list --reverse "$TS_BASE_TAG"..HEAD | sed -n "1,${nfixes}p"
		else
			git -C "$tree" rev-list --reverse "$TS_BASE_TAG"..HEAD | tail -n +"$((nfixes + 1))"
		fi
		;;
	*) die "series_commits: unknown part '$part'" ;;
	esac
}

# worktree DIR REV: DIR is a worktree of $TS_SRC's repository with REV
# checked out (detached); made if missing, moved if elsewhere.  Only the
# files that differ are rewritten, so make stays incremental.
worktree() {
	local dir=$1 rev
	rev=$(git -C "$TS_SRC" rev-parse --verify -q "$2^{commit}") ||
		die "worktree $dir: no commit $2 in $TS_SRC"
	if [ ! -e "$dir/.git" ]; then
		log "creating the worktree $dir at $(git -C "$TS_SRC" log -1 --format='%h %s' "$rev")"
		rm -rf "$dir"
		git -C "$TS_SRC" worktree prune
		git -C "$TS_SRC" worktree add -q --detach "$dir" "$rev" ||
			die "git worktree add $dir failed"
	elif [ "$(git -C "$dir" rev-parse HEAD)" != "$rev" ] ||
		[ -n "$(git -C "$dir" status --porcelain --untracked-files=no)" ]; then
		git -C "$dir" checkout -q -f --detach "$rev" || die "git checkout $rev failed in $dir"
	fi
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

###############################################################################
# Kernel configurations
###############################################################################
# kconfig [-a MAKEARG]... SRC OUT BASE FRAGMENT...: OUT/.config is BASE (a
# make target such as tinyconfig) with every FRAGMENT merged in by the
# tree's merge_config.sh -m (a later fragment wins), then olddefconfig;
# then every symbol the fragments ask for must have its value (the tree's
# kunit_config module compares; scripts/kconfig_check.py), else it dies
# naming the symbol.  Redone only when the inputs changed (OUT/.ts-kconfig).
# The one kconfig step of every kernel we build but KUnit's.
kconfig() {
	local margs=() src out base key
	while [ "${1:-}" = -a ]; do
		margs+=("$2")
		shift 2
	done
	src=$1 out=$2 base=$3
	shift 3
	[ $# -gt 0 ] || die "kconfig: no fragment"
	mkdir -p "$out"
	key=$({
		echo "${margs[*]} $base"
		cat "$@"
		# The Kconfig files: a patch that adds a symbol reconfigures.
		git -C "$src" ls-tree -r HEAD | grep -P '\tKconfig|/Kconfig[^/]*$'
	} | sha256sum | cut -d' ' -f1)
	if [ ! -f "$out/.config" ] || [ "$(cat "$out/.ts-kconfig" 2>/dev/null)" != "$key" ]; then
		rm -f "$out/.ts-kconfig"
		log "configuring $out: $base + ${*#"$TS_REPO/"}"
		{
			kmake "$src" "$out" "${margs[@]}" -s "$base" &&
				(cd "$src" && scripts/kconfig/merge_config.sh -m -O "$out" "$out/.config" "$@") &&
				kmake "$src" "$out" "${margs[@]}" -s olddefconfig
		} >"$out/kconfig.log" 2>&1 ||
			{ tail -n 20 "$out/kconfig.log" >&2; die "configuring $out failed: see $out/kconfig.log"; }
		echo "$key" >"$out/.ts-kconfig"
	fi
	local rc=0
	python3 "$TS_REPO/scripts/kconfig_check.py" "$src" "$out/.config" "$@" || rc=$?
	case $rc in
	0) ;;
	1) die "$out/.config lacks what its fragments ask for (a dependency is missing?)" ;;
	*) die "scripts/kconfig_check.py could not check $out/.config (exit $rc)" ;;
	esac
}

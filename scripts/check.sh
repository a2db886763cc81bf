#!/usr/bin/env bash
# usage: scripts/check.sh
# The static review checks of the series, in order:
#   1. checkpatch.pl --strict on every patch of $TS_PATCHES/series: no error,
#      warning or check except those waived in $TS_PATCHES/checkpatch.waivers
#      (an unused waiver is an error too);
#   2. every prefix of the series compiles, without a warning, the objects it
#      touches and the users of the changed headers, in the configurations
#      of TS_CHECK_VARIANTS (default: integration; `make check-full`: also
#      FUTEX=n, POSIX_TIMERS=n and TIMERFD=n);
#   3. sparse (C=1) and W=1 on those objects: no warning that 6.12 lacks;
#   4. scripts/kernel-doc -none -Wall on the touched headers and .c files: no
#      warning that 6.12 lacks.
# It applies $TS_PATCHES (default: the repository's patches/) with git am in a
# worktree of its own, $TS_WORK/check-src, of the $TS_SRC repository (make
# tree), builds in $TS_OUT/check-<variant>, and remembers in $TS_WORK/check
# which (configuration, tree) pairs already passed: a second run rebuilds
# nothing that did not change.  It prints a table of results and exits non-zero
# if any check failed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

TS_PATCHES=${TS_PATCHES:-$TS_REPO/patches}
series_file=$TS_PATCHES/series
waiver_file=$TS_PATCHES/checkpatch.waivers
check_src=$TS_WORK/check-src
state=$TS_WORK/check
logs=$state/logs
cache=$state/cache
passed=$state/passed

# Users of the headers the series changes (include/linux/time64.h, time.h,
# futex.h), compiled at every prefix even when the series does not touch them.
# Each is built only where it exists and its configuration enables it.
header_users=(kernel/time/time.c kernel/time/hrtimer.c kernel/time/posix-timers.c
	kernel/time/posix-stubs.c kernel/futex/syscalls.c fs/timerfd.c
	kernel/time/tests/timespec64_kunit.c)
# Headers whose kernel-doc is checked in any case (and whatever .h/.c the
# series touches outside tools/).
kdoc_fixed=(include/linux/time64.h include/linux/time.h include/linux/futex.h
	kernel/time/tests/timespec64_kunit.c)

# The integration fragment: the guest kernel's, or a minimal stand-in while
# qemu-config/guest.config does not exist.
guest_fragment=$TS_REPO/qemu-config/guest.config
fallback_fragment='CONFIG_64BIT=y
CONFIG_FUTEX=y
CONFIG_TIMERFD=y
CONFIG_POSIX_TIMERS=y
CONFIG_HIGH_RES_TIMERS=y
CONFIG_COMPAT_32BIT_TIME=y
CONFIG_IA32_EMULATION=y'
kunit_fragment='CONFIG_KUNIT=y
CONFIG_TIMESPEC64_KUNIT_TEST=y'
# Variants: name and the symbols added on top of the integration fragment.
# FUTEX, POSIX_TIMERS and TIMERFD are only settable with EXPERT=y.
read -r -a variants <<<"${TS_CHECK_VARIANTS:-integration}"
declare -A variant_extra=(
	[integration]=''
	[futex-off]=$'CONFIG_EXPERT=y\nCONFIG_FUTEX=n'
	[posix-timers-off]=$'CONFIG_EXPERT=y\nCONFIG_POSIX_TIMERS=n'
	[timerfd-off]=$'CONFIG_EXPERT=y\nCONFIG_TIMERFD=n'
)
karch=ARCH=x86_64
for v in "${variants[@]}"; do
	[ -n "${variant_extra[$v]+set}" ] ||
		die "TS_CHECK_VARIANTS: unknown configuration '$v' (known: ${!variant_extra[*]})"
done

[ -r "$series_file" ] || die "$series_file not found (TS_PATCHES=$TS_PATCHES)"
[ -d "$TS_SRC/.git" ] || die "no patched tree in $TS_SRC: run make tree first"
git -C "$TS_SRC" rev-parse -q --verify "$TS_BASE_TAG^{commit}" >/dev/null ||
	die "tag $TS_BASE_TAG missing in $TS_SRC: run make tree first"
command -v sparse >/dev/null || die "sparse not found (Debian package sparse; run scripts/deps.sh)"
mkdir -p "$logs" "$cache"
touch "$passed"
# One check at a time: they share the check worktree.
exec 9>"$state/check.lock"
flock -n 9 || die "another scripts/check.sh holds $state/check.lock"

mapfile -t patches < <(series_patches "$series_file")
n_patches=${#patches[@]}
[ "$n_patches" -gt 0 ] || die "$series_file lists no patch"
for p in "${patches[@]}"; do
	[ -r "$TS_PATCHES/$p" ] || die "patch $p is listed in $series_file but does not exist"
done

# Results: one row per line, "check|scope|result"; any FAIL makes the exit 1.
rows=()
failed=0
row() { rows+=("$1|$2|$3"); case $3 in FAIL*) failed=1 ;; esac; }
print_table() {
	echo
	echo "Static checks ($n_patches patches from $TS_PATCHES):"
	printf '%s\n' "check|scope|result" "${rows[@]}" | column -t -s '|' | sed 's/^/  /'
	if [ "$failed" -ne 0 ]; then
		echo "static checks: FAILED" >&2
		exit 1
	fi
	echo "static checks: all passed"
}

# Everything the result cache keys on besides the tree and the config.
tool_key=$(
	{
		sha256sum "$0"
		gcc --version | head -n 1
		sparse --version
	} | sha256sum | cut -c1-16
)
key() { printf '%s\n' "$tool_key" "$@" | sha256sum | cut -c1-32; }
is_passed() { grep -qx "$1" "$passed"; }
mark_passed() { echo "$1" >>"$passed"; }

###############################################################################
# 1. checkpatch
###############################################################################
# Waivers: "<patch file> <MESSAGE_TYPE> <reason...>", # comments.
declare -A waiver_used=()
declare -A waiver_line=()
if [ -r "$waiver_file" ]; then
	ln=0
	while IFS= read -r line || [ -n "$line" ]; do
		ln=$((ln + 1))
		line=${line%%#*}
		[ -n "${line//[[:space:]]/}" ] || continue
		read -r wp wt wr <<<"$line"
		[ -n "${wr:-}" ] || die "$waiver_file:$ln: a waiver needs a patch file, a checkpatch type and a reason"
		[[ $wt =~ ^[A-Z0-9_]+$ ]] || die "$waiver_file:$ln: '$wt' is not a checkpatch message type"
		waiver_line["$wp $wt"]=$ln
		waiver_used["$wp $wt"]=0
	done <"$waiver_file"
fi

log "1/4 checkpatch --strict on $n_patches patches"
for i in "${!patches[@]}"; do
	p=${patches[$i]}
	num=$((i + 1))
	out=$logs/checkpatch-$p.log
	rc=0
	(cd "$TS_SRC" && PATH=/usr/bin:$PATH perl scripts/checkpatch.pl --strict --show-types \
		--color=never "$TS_PATCHES/$p") >"$out" 2>&1 || rc=$?
	grep -q '^total: [0-9]* errors, [0-9]* warnings, [0-9]* checks' "$out" ||
		{ cat "$out" >&2; die "checkpatch.pl did not run on patch $num ($p): see $out"; }
	bad=0 waived=0
	while read -r typ; do
		if [ -n "${waiver_line["$p $typ"]+x}" ]; then
			waiver_used["$p $typ"]=1
			waived=$((waived + 1))
		else
			bad=$((bad + 1))
		fi
	done < <(sed -n 's/^\(ERROR\|WARNING\|CHECK\):\([A-Z0-9_]*\):.*/\2/p' "$out")
	if [ "$bad" -gt 0 ]; then
		echo "--- checkpatch: patch $num ($p)" >&2
		cat "$out" >&2
		row checkpatch "$num $p" "FAIL: $bad unwaived message(s)"
	elif [ "$rc" -ne 0 ] && [ "$waived" -eq 0 ]; then
		cat "$out" >&2
		row checkpatch "$num $p" "FAIL: checkpatch.pl exited $rc"
	else
		row checkpatch "$num $p" "ok$([ "$waived" -eq 0 ] || echo " ($waived waived)")"
	fi
done
for w in "${!waiver_used[@]}"; do
	[ "${waiver_used[$w]}" = 1 ] ||
		row checkpatch "waiver '$w'" "FAIL: unused ($waiver_file:${waiver_line[$w]})"
done

###############################################################################
# The check worktree, and the series applied in it with git am
###############################################################################
if [ ! -e "$check_src/.git" ]; then
	log "creating the check worktree $check_src"
	rm -rf "$check_src"
	git -C "$TS_SRC" worktree prune
	git -C "$TS_SRC" worktree add -q --detach "$check_src" "$TS_BASE_TAG" ||
		die "git worktree add $check_src failed"
fi
g() { git -C "$check_src" "$@"; }
goto() { # goto REV: check REV out in the check worktree (only changed files)
	g checkout -q --detach "$1" || die "git checkout $1 failed in $check_src"
}

am_abort() { # abort a git am left in progress in the check worktree, if any
	[ ! -d "$(g rev-parse --path-format=absolute --git-path rebase-apply)" ] || g am --abort ||
		die "git am --abort failed in $check_src"
}
series_stamp=$(cd "$TS_PATCHES" && sha256sum "${patches[@]}" | sha256sum | cut -d' ' -f1)
commits_file=$state/commits
commits=()
if [ -r "$commits_file" ] && [ "$(head -n 1 "$commits_file")" = "$series_stamp" ]; then
	mapfile -t commits < <(tail -n +2 "$commits_file")
	for c in "${commits[@]}"; do
		g cat-file -e "$c^{commit}" 2>/dev/null || { commits=(); break; }
	done
	[ "${#commits[@]}" -eq "$n_patches" ] || commits=()
fi
if [ -n "$(g status --porcelain --untracked-files=no)" ]; then
	log "resetting local changes in $check_src"
	g reset -q --hard
fi
if [ "${#commits[@]}" -eq 0 ]; then
	log "applying the series in $check_src"
	rm -f "$commits_file"
	am_abort
	goto "$TS_BASE_TAG"
	for i in "${!patches[@]}"; do
		p=${patches[$i]}
		if ! g am -q --whitespace=nowarn "$TS_PATCHES/$p" >"$logs/am.log" 2>&1; then
			cat "$logs/am.log" >&2
			am_abort
			row apply "$((i + 1)) $p" "FAIL: does not apply (git am)"
			print_table
		fi
		commits+=("$(g rev-parse HEAD)")
	done
	printf '%s\n' "$series_stamp" "${commits[@]}" >"$commits_file"
fi
full=${commits[$((n_patches - 1))]}
# Leave the worktree at the full series, whatever happens below.
trap 'g checkout -q --detach "$full" 2>/dev/null || echo "warning: could not check $full out in $check_src" >&2' EXIT

tree_of() { g rev-parse "$1^{tree}"; }
# The part of a tree that kernel objects can depend on: all but tools/ and
# Documentation/ (a selftest-only patch does not rebuild the kernel objects).
kernel_tree_of() { g ls-tree "$1" | grep -v -P '\t(tools|Documentation)$' | sha256sum | cut -c1-40; }

# Which directories' kbuild files list which objects, for a given .config.
probe_mk=$state/probe.mk
cat >"$probe_mk" <<'EOF'
# make -s -f probe.mk srctree=SRC objtree=OUT dir=DIR: the objects DIR's kbuild
# file builds (obj-y, obj-m, lib-y and their composite parts) under OUT's config.
.DEFAULT_GOAL := probe
include $(objtree)/include/config/auto.conf
include $(srctree)/scripts/Kbuild.include
obj := $(dir)
src := $(srctree)/$(dir)
include $(or $(wildcard $(srctree)/$(dir)/Kbuild),$(srctree)/$(dir)/Makefile)
objs := $(obj-y) $(obj-m) $(lib-y)
probe:
	@echo $(objs) $(foreach o,$(filter %.o,$(objs)),$($(o:.o=-y)) $($(o:.o=-objs)) $($(o:.o=-m)))
EOF
# enabled OUT FILE.c: true if OUT's config builds FILE.o (its directory chain
# included), for the tree checked out in $check_src.
enabled() {
	local out=$1 f=$2 d b parent
	d=$(dirname "$f") b=$(basename "$f" .c).o
	while :; do
		make -s -f "$probe_mk" srctree="$check_src" objtree="$out" dir="$d" 2>/dev/null |
			tr ' ' '\n' | grep -qx "$b" || return 1
		[ "$d" != . ] || return 0
		parent=$(dirname "$d")
		b=$(basename "$d")/
		d=$parent
	done
}
# objects OUT REV: the .o files to build at REV: the .c files the series
# changed up to REV plus the header users, where they exist and are enabled.
objects() {
	local out=$1 rev=$2 f
	{
		g diff --name-only "$TS_BASE_TAG" "$rev" -- '*.c'
		printf '%s\n' "${header_users[@]}"
	} | sort -u | while read -r f; do
		[ -e "$check_src/$f" ] || continue
		enabled "$out" "$f" || continue
		echo "${f%.c}.o"
	done
}

###############################################################################
# Configurations
###############################################################################
if [ -r "$guest_fragment" ]; then
	integration_fragment=$(cat "$guest_fragment")
	fragment_name=qemu-config/guest.config
else
	integration_fragment=$fallback_fragment
	fragment_name="minimal fragment (no qemu-config/guest.config yet)"
fi
# Configure OUT for VARIANT at the full series, once per fragment: the result
# is kept in OUT/.config.check and copied to OUT/.config before each build.
configure() {
	local v=$1 out=$2 frag ckey sym val
	frag=$out/check.fragment
	mkdir -p "$out"
	# Later lines win: the variant's symbols override the integration ones.
	printf '%s\n' "$integration_fragment" "$kunit_fragment" "${variant_extra[$v]}" |
		sed -n 's/^\(CONFIG_[A-Za-z0-9_]*\)=\(.*\)/\1=\2/p; s/^# \(CONFIG_[A-Za-z0-9_]*\) is not set/\1=n/p' |
		awk -F= '{v[$1]=$0; if (!($1 in o)) o[$1]=++n} END {for (s in o) print o[s], v[s]}' |
		sort -n | cut -d' ' -f2- >"$frag.new"
	ckey=$(key config "$v" "$kconfig_tree" "$(cat "$frag.new")")
	if [ -r "$out/.config.check" ] && [ "$(cat "$out/.check.key" 2>/dev/null)" = "$ckey" ]; then
		rm -f "$frag.new"
		return 0
	fi
	mv "$frag.new" "$frag"
	log "configuring $v in $out (tinyconfig + $fragment_name + KUnit${variant_extra[$v]:+ + ${variant_extra[$v]//$'\n'/ }})"
	goto "$full"
	kmake "$check_src" "$out" $karch -s tinyconfig >"$logs/config-$v.log" 2>&1 ||
		{ cat "$logs/config-$v.log" >&2; die "make tinyconfig failed for variant $v in $out"; }
	(cd "$check_src" && scripts/kconfig/merge_config.sh -m -O "$out" "$out/.config" "$frag") \
		>>"$logs/config-$v.log" 2>&1 ||
		{ cat "$logs/config-$v.log" >&2; die "merge_config.sh failed for variant $v"; }
	kmake "$check_src" "$out" $karch -s olddefconfig >>"$logs/config-$v.log" 2>&1 ||
		{ cat "$logs/config-$v.log" >&2; die "make olddefconfig failed for variant $v"; }
	while IFS='=' read -r sym val; do
		case $val in
		n) ! grep -q "^$sym=" "$out/.config" ||
			die "variant $v: $sym=n was requested but .config has $(grep "^$sym=" "$out/.config")" ;;
		*) grep -qxF "$sym=$val" "$out/.config" ||
			die "variant $v: $sym=$val was requested but .config has '$(grep -E "^$sym=|^# $sym is not set" "$out/.config" || echo nothing)' (a dependency is missing?)" ;;
		esac
	done <"$frag"
	log "make prepare for $v"
	kmake "$check_src" "$out" $karch -s prepare >"$logs/prepare-$v.log" 2>&1 ||
		{ tail -n 40 "$logs/prepare-$v.log" >&2; die "make prepare failed for variant $v in $out"; }
	cp "$out/.config" "$out/.config.check"
	echo "$ckey" >"$out/.check.key"
}
# use_config OUT: OUT/.config := the checked configuration, adapted to the
# Kconfig of the tree checked out now (symbols a prefix lacks are dropped).
use_config() {
	local out=$1
	cmp -s "$out/.config.check" "$out/.config" || cp "$out/.config.check" "$out/.config"
	kmake "$check_src" "$out" $karch -s olddefconfig >/dev/null 2>"$logs/olddefconfig.log" ||
		{ cat "$logs/olddefconfig.log" >&2; die "make olddefconfig failed in $out"; }
	# include/config/auto.conf for this prefix: objects() reads it, and a
	# patch that adds a Kconfig symbol must build the objects it enables.
	kmake "$check_src" "$out" $karch -s syncconfig >/dev/null 2>"$logs/syncconfig.log" ||
		{ cat "$logs/syncconfig.log" >&2; die "make syncconfig failed in $out"; }
}
show_errors() { # the compiler's diagnostics in a build log
	if grep -qE ': (fatal )?(error|warning):' "$1"; then
		grep -E -A5 ': (fatal )?(error|warning):' "$1" | head -n 60 >&2
	else
		tail -n 30 "$1" >&2
	fi
}

# The configurations depend on the series only through its Kconfig files.
kconfig_tree=$(g ls-tree -r "$full" | grep -P '\tKconfig|/Kconfig[^/]*$' | sha256sum | cut -c1-40)
for v in "${variants[@]}"; do
	configure "$v" "$TS_OUT/check-$v"
done

###############################################################################
# 2. Every prefix compiles, in every variant
###############################################################################
log "2/4 building every prefix (1..$n_patches) in ${#variants[@]} configurations"
declare -A v_fail=() v_built=() v_cached=()
for v in "${variants[@]}"; do v_built[$v]=0 v_cached[$v]=0; done
for i in "${!patches[@]}"; do
	num=$((i + 1)) p=${patches[$i]} c=${commits[$i]}
	tree=$(kernel_tree_of "$c")
	for v in "${variants[@]}"; do
		[ -z "${v_fail[$v]:-}" ] || continue
		out=$TS_OUT/check-$v
		k=$(key build "$v" "$tree" "$(cat "$out/.config.check")")
		if is_passed "$k"; then
			v_cached[$v]=$((v_cached[$v] + 1))
			continue
		fi
		[ "$(g rev-parse HEAD)" = "$c" ] || goto "$c"
		use_config "$out"
		mapfile -t objs < <(objects "$out" "$c")
		[ "${#objs[@]}" -gt 0 ] || die "no object to build at patch $num ($p) for variant $v"
		blog=$logs/build-$v-$num.log
		log "patch $num/$n_patches ($p), $v: ${objs[*]}"
		if ! kmake "$check_src" "$out" $karch "${objs[@]}" >"$blog" 2>&1; then
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
	row build "$v: prefixes 1..$n_patches" \
		"${v_fail[$v]:-ok (${v_built[$v]} built, ${v_cached[$v]} unchanged)}"
done

###############################################################################
# 3. sparse (C=1) and W=1: no new warning
###############################################################################
# normalise: "file: severity: message", line and column numbers stripped, one
# line per distinct diagnostic (a header's warning counts once, not once per
# .c file that includes it).
normalise() {
	sed -n -E '/^[^ :]+:[0-9]+(:[0-9]+)?: (warning|error): /p' "$1" | sed "s#^$check_src/##" |
		sort -u | sed -E 's#^([^ :]+):[0-9]+(:[0-9]+)?: #\1: #' | sort
}
# new_lines BASE SERIES: the lines of SERIES more often than in BASE.
new_lines() {
	awk 'NR==FNR {b[$0]++; next} {if (b[$0] > 0) b[$0]--; else print}' "$1" "$2"
}
sparse_dir=$TS_OUT/check-sparse
mkdir -p "$sparse_dir"
# sparse_warnings REV NAME: normalised sparse/W=1 warnings at REV, cached.
sparse_warnings() {
	local rev=$1 name=$2 out=$sparse_dir k slog
	cp "$TS_OUT/check-integration/.config.check" "$out/.config.check"
	k=$(key sparse "$(kernel_tree_of "$rev")" "$(cat "$out/.config.check")" "${sparse_objs[*]}")
	if [ -r "$cache/sparse-$k" ]; then
		cp "$cache/sparse-$k" "$state/sparse-$name.txt"
		return 0
	fi
	[ "$(g rev-parse HEAD)" = "$(g rev-parse "$rev^{commit}")" ] || goto "$rev"
	use_config "$out"
	# Objects this tree has (the series may add some); rebuilt so that every
	# warning shows up.
	local have=() o
	for o in "${sparse_objs[@]}"; do
		[ -e "$check_src/${o%.o}.c" ] && have+=("$o")
		rm -f "$out/$o"
	done
	slog=$logs/sparse-$name.log
	log "sparse + W=1 on $name: ${have[*]}"
	if ! kmake "$check_src" "$out" $karch W=1 C=1 "${have[@]}" >"$slog" 2>&1; then
		show_errors "$slog"
		die "sparse/W=1 build failed on $name (see $slog)"
	fi
	normalise "$slog" >"$cache/sparse-$k"
	cp "$cache/sparse-$k" "$state/sparse-$name.txt"
}
log "3/4 sparse and W=1, base vs series"
if [ -n "${v_fail[integration]:-}" ]; then
	row "sparse+W=1" "base vs series" "FAIL: not run, the integration build fails"
else
	# The objects of the full series, under the integration configuration.
	goto "$full"
	use_config "$TS_OUT/check-integration"
	mapfile -t sparse_objs < <(objects "$TS_OUT/check-integration" "$full")
	sparse_warnings "$TS_BASE_TAG" base
	sparse_warnings "$full" series
	new_lines "$state/sparse-base.txt" "$state/sparse-series.txt" >"$state/sparse-new.txt"
	nbase=$(wc -l <"$state/sparse-base.txt") nnew=$(wc -l <"$state/sparse-new.txt")
	if [ "$nnew" -gt 0 ]; then
		echo "--- sparse/W=1 warnings the series adds:" >&2
		sed 's/^/  /' "$state/sparse-new.txt" >&2
		row "sparse+W=1" "base vs series" "FAIL: $nnew new warning(s) (base has $nbase)"
	else
		row "sparse+W=1" "base vs series" "ok (0 new; base has $nbase)"
	fi
fi

###############################################################################
# 4. kernel-doc -Wall: no new warning
###############################################################################
log "4/4 kernel-doc -none -Wall, base vs series"
mapfile -t kdoc_files < <({
	printf '%s\n' "${kdoc_fixed[@]}" "${header_users[@]}"
	g diff --name-only "$TS_BASE_TAG" "$full" -- '*.c' '*.h' ':!tools/'
} | sort -u)
kdoc() { # kdoc REV NAME: normalised kernel-doc warnings of kdoc_files at REV
	local rev=$1 name=$2 dir=$state/kdoc-$2 f n=0
	rm -rf "$dir"
	for f in "${kdoc_files[@]}"; do
		g cat-file -e "$rev:$f" 2>/dev/null || continue
		mkdir -p "$dir/$(dirname "$f")"
		g show "$rev:$f" >"$dir/$f"
		n=$((n + 1))
	done
	(cd "$dir" && find . -type f -printf '%P\n' | sort |
		xargs perl "$check_src/scripts/kernel-doc" -none -Wall) >"$logs/kernel-doc-$name.log" 2>&1 ||
		{ cat "$logs/kernel-doc-$name.log" >&2; die "kernel-doc failed on $name"; }
	sed -E -n 's#^([^ :]+):[0-9]+: (warning|error): #\1: \2: #p' "$logs/kernel-doc-$name.log" | sort \
		>"$state/kdoc-$name.txt"
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

goto "$full"
print_table

# shellcheck shell=bash
# What the review checks share (scripts/check-patches.sh, check-bisect.sh,
# check-warnings.sh): the table of results, the cache of passed checks, and
# which objects a tree builds.  Sourced after lib.sh, never run.

# Users of the headers the series changes (include/linux/time64.h, time.h,
# futex.h), compiled even where the series does not touch them; each only
# where it exists and its configuration enables it.  The KUnit suite:
# the series adds it to kernel/time/time_test.c.
header_users=(kernel/time/time.c kernel/time/hrtimer.c kernel/time/posix-timers.c
	kernel/time/posix-stubs.c kernel/futex/syscalls.c fs/timerfd.c
	kernel/time/time_test.c)

# suite_kunitconfig SRC: the .kunitconfig that builds the series' KUnit
# suite in SRC as checked out: kernel/time/.kunitconfig (it builds
# kernel/time/time_test.c) where time_test.c has the suite
# timespec64_timeout.  Prints nothing and returns 1 where the series has
# no suite (a stable series).
suite_kunitconfig() {
	local src=$1
	if [ -f "$src/kernel/time/.kunitconfig" ] &&
		grep -q '\.name[[:space:]]*=[[:space:]]*"timespec64_timeout"' "$src/kernel/time/time_test.c" 2>/dev/null; then
		echo "$src/kernel/time/.kunitconfig"
	else
		return 1
	fi
}

# check_state NAME: the state directory of a check ($TS_WORK/check-NAME),
# locked for this process: two runs of one check would share its worktree.
check_state() {
	state=$(ts_path check-state "$1")
	logs=$state/logs
	mkdir -p "$logs"
	touch "$state/passed"
	exec 9>"$state/lock"
	flock -n 9 || die "another make check-$1 holds $state/lock"
	check_name=$1
}

# Results: one row per line, "check|scope|result"; any FAIL makes the exit 1.
rows=()
failed=0
row() {
	rows+=("$1|$2|$3")
	case $3 in FAIL*) failed=1 ;; esac
}
print_table() {
	echo
	echo "check-$check_name (${check_series:-$TS_PATCHES}):"
	printf '%s\n' "check|scope|result" "${rows[@]}" | column -t -s '|' | sed 's/^/  /'
	if [ "$failed" -ne 0 ]; then
		echo "check-$check_name: FAILED" >&2
		exit 1
	fi
	echo "check-$check_name: all passed"
}

# The result cache: a key of everything a result depends on besides what
# the caller passes (the tree, the configuration): the script and the tools.
tool_key=$(
	{
		sha256sum "$0" "${BASH_SOURCE[0]}"
		gcc --version | sed -n 1p
		! command -v sparse >/dev/null || sparse --version
	} | sha256sum | cut -c1-16
)
key() { printf '%s\n' "$tool_key" "$@" | sha256sum | cut -c1-32; }
is_passed() { grep -qx "$1" "$state/passed"; }
mark_passed() { echo "$1" >>"$state/passed"; }

# kernel_tree_of SRC REV: the part of REV's tree that kernel objects can
# depend on: all but tools/ and Documentation/.
kernel_tree_of() {
	git -C "$1" ls-tree "$2" | grep -v -P '\t(tools|Documentation)$' | sha256sum | cut -c1-40
}

# enabled SRC OUT FILE.c: true if OUT's configuration builds FILE.o (its
# directory chain included) in the tree SRC.
enabled() {
	local src=$1 out=$2 f=$3 d b parent objs probe=$state/probe.mk
	[ -f "$probe" ] || cat >"$probe" <<'MK'
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
MK
	d=$(dirname "$f") b=$(basename "$f" .c).o
	while :; do
		# Read whole before grep -q (no SIGPIPE under pipefail).
		objs=$(make -s -f "$probe" srctree="$src" objtree="$out" dir="$d" 2>/dev/null |
			tr ' ' '\n') || return 1
		grep -qx "$b" <<<"$objs" || return 1
		[ "$d" != . ] || return 0
		parent=$(dirname "$d")
		b=$(basename "$d")/
		d=$parent
	done
}

# objects SRC OUT: the .o files to build in SRC as checked out: the .c
# files the series changed up to HEAD plus the header users, where they
# exist and OUT's configuration enables them.
objects() {
	local src=$1 out=$2 f
	{
		git -C "$src" diff --name-only "$TS_BASE_TAG" HEAD -- '*.c'
		printf '%s\n' "${header_users[@]}"
	} | sort -u | while read -r f; do
		[ -e "$src/$f" ] || continue
		enabled "$src" "$out" "$f" || continue
		echo "${f%.c}.o"
	done
}

# check_config SRC OUT FRAGMENT...: OUT configured (scripts/ts kconfig) for
# x86_64 with the fragments at SRC as checked out now, and prepared; the
# result is kept in OUT/.config.check, from which use_config starts.
check_config() {
	local src=$1 out=$2
	shift 2
	[ ! -f "$out/.config.check" ] || cp "$out/.config.check" "$out/.config"
	ts kconfig --make-arg ARCH=x86_64 "$src" "$out" tinyconfig "$@" ||
		die "configuring $out failed (see above)"
	if ! cmp -s "$out/.config" "$out/.config.check" || [ ! -f "$out/.ts-prepared" ]; then
		rm -f "$out/.ts-prepared"
		log "make prepare in $out"
		kmake "$src" "$out" ARCH=x86_64 -s prepare >"$out/prepare.log" 2>&1 ||
			{ tail -n 40 "$out/prepare.log" >&2; die "make prepare failed in $out"; }
		cp "$out/.config" "$out/.config.check"
		touch "$out/.ts-prepared"
	fi
}

# use_config SRC OUT: OUT/.config := the checked configuration, adapted to
# the Kconfig of the tree checked out in SRC now (symbols a prefix lacks are
# dropped), with include/config/auto.conf for it (objects reads it, and a
# patch that adds a symbol must build what the symbol enables).
use_config() {
	local src=$1 out=$2
	cmp -s "$out/.config.check" "$out/.config" || cp "$out/.config.check" "$out/.config"
	kmake "$src" "$out" ARCH=x86_64 -s olddefconfig syncconfig >"$logs/syncconfig.log" 2>&1 ||
		{ cat "$logs/syncconfig.log" >&2; die "make olddefconfig syncconfig failed in $out"; }
}

show_errors() { # the compiler's diagnostics in a build log
	if grep -qE ': (fatal )?(error|warning):' "$1"; then
		grep -E -A5 ': (fatal )?(error|warning):' "$1" | sed -n 1,60p >&2
	else
		tail -n 30 "$1" >&2
	fi
}

#!/usr/bin/env bash
# usage: scripts/suites.sh [--all] [liburing|libaio]...   (default: both)
# The user-space suites for the guest, from Debian's source packages:
# liburing's test/ programs and libaio's harness/ cases.  For each suite:
#   1. its source package, from sid through a private apt state (the
#      machine's own suite when the mirror does not serve sid's files),
#      extracted by dpkg-source -x and recorded (scripts/ts suite source;
#      scripts/tsanity/suites.py);
#   2. its library and the programs that qemu-config/suites/NAME.tests
#      chooses (`run` lines; --all: every program of test/ or harness/),
#      built static by the suite's own Makefiles, out of the source tree,
#      once 64-bit and once -m32 (gcc-multilib, scripts/deps.sh);
#      each from a copy of its source with patches/<suite>/*.patch
#      applied by git am (the man pages and the series' new tests);
#   3. the chosen programs, stripped, in the staging directory for an
#      initramfs: <stage>/64/PROG, <stage>/32/PROG, <stage>/tests (one
#      program a line) and <stage>/manifest.json (versions, sizes); the
#      `aux` programs that chosen ones run keep their built name
#      (<stage>/64/exec-target.t: liburing's timeout runs ./exec-target.t).
# Everything is under $TS_WORK/suites (scripts/tsanity/layout.py): the
# suites do not depend on the kernel.  A build is redone from scratch
# when the source version or this script's flags change; make recompiles
# only what changed otherwise.  Prints the staging directories on stdout.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

all=0
names=()
for a in "$@"; do
	case $a in
	--all) all=1 ;;
	liburing | libaio) names+=("$a") ;;
	*) die "usage: scripts/suites.sh [--all] [liburing|libaio]... (unknown: '$a')" ;;
	esac
done
[ ${#names[@]} -gt 0 ] || names=(liburing libaio)
ABIS=(64 32)
# Debian builds libaio with DEB_BUILD_MAINT_OPTIONS=future=+lfs: a 64-bit
# off_t on i386 too (harness case 23 does not compile -m32 without it).
# time_t stays 32-bit on i386: its io_getevents is the time32 syscall.
LIBAIO_CPPFLAGS="-D_LARGEFILE_SOURCE -D_FILE_OFFSET_BITS=64"

# cc_flags ABI: the compiler flags of an ABI.
cc_flags() {
	case $1 in
	64) echo "" ;;
	32) echo "-m32" ;;
	*) die "unknown ABI '$1'" ;;
	esac
}

# The toolchain: a static -m32 program needs gcc-multilib's libc.
check_toolchain() {
	local t abi
	t=$(mktemp -d "${TMPDIR:-/tmp}/ts-suites.XXXXXX")
	printf 'int main(void) { return 0; }\n' >"$t/t.c"
	for abi in "${ABIS[@]}"; do
		# shellcheck disable=SC2046
		gcc $(cc_flags "$abi") -static -o "$t/t" "$t/t.c" 2>"$t/err" || {
			cat "$t/err" >&2
			rm -rf "$t"
			die "gcc $(cc_flags "$abi") -static cannot link a program (ABI $abi): is gcc-multilib installed? (scripts/deps.sh)"
		}
	done
	rm -rf "$t"
}

# fresh_build DIR KEY: DIR is emptied unless it was built with KEY
# (DIR/.ts-key); then it holds KEY.
fresh_build() {
	local dir=$1 key=$2
	if [ "$(cat "$dir/.ts-key" 2>/dev/null)" != "$key" ]; then
		rm -rf "$dir"
		mkdir -p "$dir"
		echo "$key" >"$dir/.ts-key"
		return 0
	fi
	return 1
}

# patch_suite NAME TREE: a copy of TREE with patches/NAME/*.patch applied
# (liburing's man page and new tests, libaio's new harness case) by lib.sh's
# series_tree, the one git am; redone when the source or a patch changes;
# prints the copy's path.  The extracted source stays as Debian ships it.
patch_suite() {
	local name=$1 tree=$2 d key p list f base
	d=$(ts_path suite-patched "$name") || exit 1
	key=$(cat "$TS_REPO"/patches/"$name"/*.patch | sha256sum | cut -c1-16) ||
		die "reading patches/$name/*.patch failed"
	p=$d/$key
	if fresh_build "$d" "$tree $key"; then
		# Written back once the patches applied: a failed run is redone.
		rm -f "$d/.ts-key"
		cp -a "$tree" "$p" || die "$name: copying $tree into $p failed"
		# Tests and man pages only: the copy is its own repository, whose
		# first commit is the source as extracted, every file tracked.
		{ git -C "$p" init -q && git -C "$p" config user.name ts &&
			git -C "$p" config user.email ts@localhost && git -C "$p" add -A -f &&
			git -C "$p" commit -q -m "$(basename "$tree")"; } >"$d/init.log" 2>&1 ||
			{ cat "$d/init.log" >&2; die "$name: making $p a git repository failed"; }
		# series_tree reads a directory with a series file.
		# (patch_suite runs in a command substitution, where set -e does
		# not hold: each step says its failure.)
		list=$d/series
		{ mkdir -p "$list" && : >"$list/series"; } || die "$name: writing $list/series failed"
		for f in "$TS_REPO"/patches/"$name"/*.patch; do
			{ ln -sf "$f" "$list/${f##*/}" && echo "${f##*/}" >>"$list/series"; } ||
				die "$name: listing ${f##*/} in $list/series failed"
		done
		base=$(git -C "$p" rev-parse HEAD) || die "$name: git rev-parse HEAD in $p failed"
		series_tree "$list" "$p" "$base" || exit 1
		echo "$tree $key" >"$d/.ts-key" || die "$name: writing $d/.ts-key failed"
	fi
	echo "$p"
}

# build_liburing TREE ABI PROG...: the library and PROG.t (or every test
# with --all) in the ABI's build directory; prints the directory of the
# programs.
build_liburing() {
	local tree=$1 abi=$2 b f targets=()
	shift 2
	b=$(ts_path suite-build liburing "$abi")
	f=$(cc_flags "$abi")
	if fresh_build "$b" "$tree $f --use-libc"; then
		# As debian/rules: --use-libc.  Out of tree: configure writes the
		# Makefiles of the build directory.  -m32 has no C++ (no
		# g++-multilib): configure then leaves out sq-full-cpp.
		(cd "$b" && "$tree/configure" --cc="gcc${f:+ $f}" --cxx="g++${f:+ $f}" --use-libc) \
			>"$b/configure.log" 2>&1 ||
			{ tail -n 20 "$b/configure.log" >&2; die "liburing: configure ($abi) failed: see $b/configure.log"; }
	fi
	make -C "$b/src" -j"$TS_JOBS" >"$b/src.log" 2>&1 ||
		{ tail -n 20 "$b/src.log" >&2; die "liburing: building the library ($abi) failed: see $b/src.log"; }
	if [ "$all" = 1 ]; then
		targets=(all)
	else
		for p in "$@"; do targets+=("$p.t"); done
	fi
	# The tests link -L../src -luring: with -static, liburing.a.
	make -k -C "$b/test" -j"$TS_JOBS" LDFLAGS=-static "${targets[@]}" >"$b/test.log" 2>&1 ||
		{ grep -E ': error:|\*\*\*' "$b/test.log" | tail -n 20 >&2; die "liburing: building test programs ($abi) failed: see $b/test.log"; }
	echo "$b/test"
}

# build_libaio TREE ABI CASE...: libaio.a and harness/cases/CASE.p (or
# every case with --all); prints the directory of the programs.  libaio
# builds in its tree only: its src/ and harness/ are copied.
build_libaio() {
	local tree=$1 abi=$2 b f targets=()
	shift 2
	b=$(ts_path suite-build libaio "$abi")
	f=$(cc_flags "$abi")
	if fresh_build "$b" "$tree $f $LIBAIO_CPPFLAGS"; then
		cp -a "$tree/src" "$tree/harness" "$b/" || die "libaio: copying $tree into $b failed"
	fi
	make -C "$b/src" -j"$TS_JOBS" CC="gcc${f:+ $f}" CPPFLAGS="$LIBAIO_CPPFLAGS" ENABLE_SHARED=0 libaio.a >"$b/src.log" 2>&1 ||
		{ tail -n 20 "$b/src.log" >&2; die "libaio: building libaio.a ($abi) failed: see $b/src.log"; }
	if [ "$all" = 1 ]; then
		targets=(all)
	else
		for p in "$@"; do targets+=("cases/$p.p"); done
	fi
	make -k -C "$b/harness" -j"$TS_JOBS" CC="gcc${f:+ $f}" CPPFLAGS="$LIBAIO_CPPFLAGS" \
		LDFLAGS=-static "${targets[@]}" \
		>"$b/harness.log" 2>&1 ||
		{ grep -E ': error:|\*\*\*' "$b/harness.log" | tail -n 20 >&2; die "libaio: building harness cases ($abi) failed: see $b/harness.log"; }
	echo "$b/harness/cases"
}

# stage NAME SUFFIX PROG...: the built programs PROG<SUFFIX> of
# both ABIs (in $built_64 and $built_32), stripped, into the suite's
# staging directory as PROG, and the $aux ones as PROG<SUFFIX>, with the
# list of PROGs and the manifest; prints the directory.
stage() {
	local name=$1 suffix=$2 s tmp abi p src out
	shift 2
	s=$(ts_path suite-stage "$name")
	tmp=$s.tmp
	rm -rf "$tmp"
	mkdir -p "$tmp"
	for abi in "${ABIS[@]}"; do
		mkdir -p "$tmp/$abi"
		src=built_$abi
		for p in "$@" $aux; do
			[ -f "${!src}/$p$suffix" ] || die "$name: $p$suffix ($abi) was not built (see the logs in $(dirname "${!src}"))"
			out=$tmp/$abi/$p
			case " $aux " in *" $p "*) out=$out$suffix ;; esac
			strip -o "$out" "${!src}/$p$suffix" || die "$name: strip $p ($abi) failed"
			# Read whole before grep -q (no SIGPIPE under pipefail).
			headers=$(readelf -l "$out") || die "$name: readelf -l $p ($abi) failed"
			if grep -q 'INTERP' <<<"$headers"; then
				die "$name: $p ($abi) is not static"
			fi
		done
	done
	printf '%s\n' "$@" >"$tmp/tests"
	ts suite manifest --stage "$tmp" "$name" "$@" ||
		die "$name: writing the manifest of $tmp failed"
	rm -rf "$s"
	mv "$tmp" "$s"
	echo "$s"
}

check_toolchain
for name in "${names[@]}"; do
	start=$SECONDS
	src=$(ts suite source "$name") || die "fetching the source package of $name failed (see above)"
	IFS=$'\t' read -r package version from tree <<<"$src"
	log "$name: $package $version (from $from), in $tree"
	progs=$(ts suite list "$name") || die "reading qemu-config/suites/$name.tests failed (see above)"
	mapfile -t progs <<<"$progs"
	left=$(ts suite list --left-out "$name" | cut -f1) || die "reading qemu-config/suites/$name.tests failed"
	aux=$(ts suite list --aux "$name") || die "reading qemu-config/suites/$name.tests failed"
	aux=${aux//$'\n'/ }
	tree=$(patch_suite "$name" "$tree") || exit 1
	log "$name: patches/$name applied in $tree"
	case $name in
	liburing)
		for p in "${progs[@]}" $left $aux; do
			[ -f "$tree/test/$p.c" ] || die "liburing: qemu-config/suites/liburing.tests names $p, but $tree has no test/$p.c"
		done
		for abi in "${ABIS[@]}"; do
			# shellcheck disable=SC2086
			d=$(build_liburing "$tree" "$abi" "${progs[@]}" $aux) || exit 1
			printf -v "built_$abi" %s "$d"
		done
		suffix=.t
		;;
	libaio)
		for p in "${progs[@]}" $left $aux; do
			[ -f "$tree/harness/cases/$p.t" ] || die "libaio: qemu-config/suites/libaio.tests names $p, but $tree has no harness/cases/$p.t"
		done
		for abi in "${ABIS[@]}"; do
			# shellcheck disable=SC2086
			d=$(build_libaio "$tree" "$abi" "${progs[@]}" $aux) || exit 1
			printf -v "built_$abi" %s "$d"
		done
		suffix=.p
		;;
	esac
	s=$(stage "$name" "$suffix" "${progs[@]}") || exit 1
	log "$name: ${#progs[@]} programs x ${#ABIS[@]} ABIs staged in $s ($(du -sh "$s" | cut -f1)), $((SECONDS - start)) s"
	echo "$s"
done

#!/usr/bin/env bash
# usage: scripts/initramfs.sh [tests|bench|suites|stable]
# Build the guest initramfs $TS_OUT/initramfs-<suite>/initramfs.cpio: the
# static /init (qemu-config/init.c) and the programs listed in
# qemu-config/<suite> (default: tests), static: the patched tree's
# selftests, built by their own Makefiles against the uapi headers that
# `make headers` exports into the patched guest's O= directory, or
# qemu-config/bench.c; packed by the tree's usr/gen_init_cpio (compiled
# into the build directory) from the list template
# qemu-config/initramfs.list, with fixed mtimes.  No root needed; make
# (qemu-config/initramfs.mk) recompiles only what changed.
# The suite "suites" (make subsystem-tests) holds no selftest: the
# programs that scripts/suites.sh staged (liburing, libaio; 64-bit and
# -m32) under /suites/NAME/ABI/, libaio's testdir/{ro,wo,rw}file beside
# them, and an /etc/tests that runs each SUITES_RUNS times (a round of
# every program, then the next), in its own directory (writable: the
# rootfs is a tmpfs; liburing's timeout runs ./exec-target.t from there),
# with the suite's skip status (liburing 77, libaio 3) and the KTAP name
# NAME/ABI/PROGRAM/RUN.
# The suite "stable" (make stable) is the suite "tests" and the programs
# of qemu-config/stable after its own, staged as for "suites" and run once,
# KTAP name NAME/ABI/PROGRAM: a second archive, appended to the tests'
# (the kernel unpacks both, the second's /etc/tests replacing the first's).
# Prints the path of the archive on stdout.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -le 1 ] || die "usage: scripts/initramfs.sh [tests|bench|suites|stable]"
suite=${1:-tests}
cfg=$TS_REPO/qemu-config
[ -f "$cfg/$suite" ] || [ "$suite" = suites ] ||
	die "no program list $cfg/$suite (usage: scripts/initramfs.sh [tests|bench|suites|stable])"
b=$(ts_path initramfs "$suite")
SUITES_RUNS=3
SUITES_TIMEOUT=120 # seconds, each run of each program

# write_if_changed FILE: stdin to FILE, keeping FILE's mtime if equal.
write_if_changed() {
	local tmp=$1.tmp
	cat >"$tmp"
	if cmp -s "$tmp" "$1"; then
		rm -f "$tmp"
	else
		mv "$tmp" "$1"
	fi
}

# suites_initramfs: the archive of the suite "suites" (see above).
suites_initramfs() {
	local name abi s d f prog skip run files="dir /suites 0755 0 0"$'\n' tests='' deps=()
	mkdir -p "$b"
	printf 'test\n' | write_if_changed "$b/testfile"
	for name in liburing libaio; do
		s=$(ts_path suite-stage "$name")
		[ -f "$s/tests" ] || die "$s/tests not found (run make suites)"
		files+="dir /suites/$name 0755 0 0"$'\n'
		for abi in 64 32; do
			d=/suites/$name/$abi
			files+="dir $d 0755 0 0"$'\n'
			for f in "$s/$abi"/*; do
				files+="file $d/${f##*/} $f 0755 0 0"$'\n'
				deps+=("$f")
			done
			if [ "$name" = libaio ]; then
				# harness/Makefile's partcheck files, "test\n" each
				files+="dir $d/testdir 0755 0 0"$'\n'
				for f in rofile:0400 wofile:0200 rwfile:0600; do
					files+="file $d/testdir/${f%:*} $b/testfile ${f#*:} 0 0"$'\n'
				done
			fi
		done
	done
	for run in $(seq "$SUITES_RUNS"); do
		for name in liburing libaio; do
			case $name in liburing) skip=77 ;; libaio) skip=3 ;; esac
			for abi in 64 32; do
				d=/suites/$name/$abi
				while read -r prog; do
					tests+="$d/$prog $SUITES_TIMEOUT $skip $d $name/$abi/$prog/$run"$'\n'
				done <"$(ts_path suite-stage "$name")/tests"
			done
		done
	done
	printf '%s' "$tests" | write_if_changed "$b/tests"
	awk -v files="$files" '/^#/ { next } $0 == "@TEST_FILES@" { printf "%s", files; next } { print }' \
		"$cfg/initramfs.list" | sed "s|@B@|$b|g" | write_if_changed "$b/initramfs.list"
	make -s -f "$cfg/initramfs.mk" -j"$TS_JOBS" B="$b" TREE="$TS_SRC" HDR=/nonexistent \
		TESTS= EXTRA="${deps[*]}" >&2 || die "building the initramfs in $b failed"
	echo "$b/initramfs.cpio"
}
# stable_initramfs: the archive of the suite "stable" (see above).
stable_initramfs() {
	local tests_cpio name prog secs skip s abi d f lines want got files="dir /suites 0755 0 0"$'\n' deps=()
	tests_cpio=$("$0" tests) || die "the tests initramfs did not build"
	mkdir -p "$b"
	lines=$(cat "$(dirname "$tests_cpio")/tests")$'\n'
	while read -r name prog secs; do
		case $name in liburing) skip=77 ;; libaio) skip=3 ;; *) die "$cfg/stable: no suite '$name' (liburing, libaio)" ;; esac
		[[ $secs =~ ^[1-9][0-9]*$ ]] || die "$cfg/stable: '$name $prog $secs': not SUITE PROGRAM SECONDS"
		s=$(ts_path suite-stage "$name")
		for abi in 64 32; do
			f=$s/$abi/$prog
			[ -f "$f" ] || die "$cfg/stable: $f not found (run scripts/suites.sh $name)"
			d=/suites/$name/$abi
			files+="dir /suites/$name 0755 0 0"$'\n'"dir $d 0755 0 0"$'\n'
			files+="file $d/$prog $f 0755 0 0"$'\n'
			lines+="$d/$prog $secs $skip $d $name/$abi/$prog"$'\n'
			deps+=("$f")
		done
	done < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$cfg/stable")
	[ ${#deps[@]} -gt 0 ] || die "no program listed in $cfg/stable"
	printf '%s' "$lines" | write_if_changed "$b/tests"
	# Each directory once (the kernel would take it twice; the list is read
	# better without).
	{
		printf '%s' "$files" | awk '!seen[$0]++'
		printf 'file /etc/tests %s 0644 0 0\n' "$b/tests"
	} | write_if_changed "$b/overlay.list"
	make -s -f "$cfg/initramfs.mk" B="$b" TREE="$TS_SRC" "$b/gen_init_cpio" >&2 ||
		die "building gen_init_cpio in $b failed"
	"$b/gen_init_cpio" -t 0 "$b/overlay.list" >"$b/overlay.cpio" ||
		die "gen_init_cpio $b/overlay.list failed"
	# The overlay must hold every program and the new /etc/tests.
	want=$(awk '$1 == "file" { print substr($2, 2) }' "$b/overlay.list" | LC_ALL=C sort)
	got=$(cpio -it --quiet <"$b/overlay.cpio" | LC_ALL=C sort) ||
		die "cpio cannot list $b/overlay.cpio"
	got=$(comm -12 <(printf '%s\n' "$want") <(printf '%s\n' "$got"))
	[ "$got" = "$want" ] || die "$b/overlay.cpio lacks files of $b/overlay.list: $(
		comm -23 <(printf '%s\n' "$want") <(printf '%s\n' "$got") | tr '\n' ' ')"
	cat "$tests_cpio" "$b/overlay.cpio" >"$b/initramfs.cpio.tmp"
	if cmp -s "$b/initramfs.cpio.tmp" "$b/initramfs.cpio"; then
		rm -f "$b/initramfs.cpio.tmp"
	else
		mv "$b/initramfs.cpio.tmp" "$b/initramfs.cpio"
	fi
	echo "$b/initramfs.cpio"
}
if [ "$suite" = suites ]; then
	suites_initramfs
	exit 0
fi
if [ "$suite" = stable ]; then
	stable_initramfs
	exit 0
fi
st=$TS_SRC/tools/testing/selftests
[ -d "$st" ] || die "$st not found (run scripts/tree.sh)"
mkdir -p "$b"

[ -f "$st/timers/timeout_classes.c" ] ||
	die "$st/timers/timeout_classes.c not found (is patches/series applied?)"
# The tree's uapi headers, for KHDR_INCLUDES.
hdr_out=$(ts_path guest patched)
kmake "$TS_SRC" "$hdr_out" -s headers >&2 || die "make headers in $hdr_out failed"
# The selftests' Makefiles do not track those headers: a change in them
# rebuilds the selftests.
uapi_sum=$(cd "$hdr_out/usr/include" && find . -type f -name '*.h' | LC_ALL=C sort |
	xargs sha256sum | sha256sum) || die "hashing the uapi headers in $hdr_out/usr/include failed"
old_sum=
if [ -f "$b/uapi.sum" ]; then old_sum=$(cat "$b/uapi.sum"); fi
if [ "$old_sum" != "$uapi_sum" ]; then
	rm -rf "$b/st64" "$b/st32"
	echo "$uapi_sum" >"$b/uapi.sum"
fi

# The programs to run: /etc/tests without comments; each is /bin/NAME.
tests=$(sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$cfg/$suite" | grep -v '^$') ||
	die "no test programs listed in $cfg/$suite"
printf '%s\n' "$tests" | write_if_changed "$b/tests"
names=()
file_lines=
while read -r path _; do
	case $path in
	/bin/?*) ;;
	*) die "$cfg/$suite: '$path' is not /bin/NAME" ;;
	esac
	names+=("${path#/bin/}")
	file_lines+="file $path @B@/${path#/bin/} 0755 0 0"$'\n'
done <<<"$tests"

awk -v files="$file_lines" '/^#/ { next } $0 == "@TEST_FILES@" { printf "%s", files; next } { print }' \
	"$cfg/initramfs.list" | sed "s|@B@|$b|g" | write_if_changed "$b/initramfs.list"
if grep -n '@' "$b/initramfs.list" >&2; then
	die "unreplaced placeholder in $b/initramfs.list"
fi

make -s -f "$cfg/initramfs.mk" -j"$TS_JOBS" B="$b" TREE="$TS_SRC" HDR="$hdr_out/usr/include" \
	TESTS="${names[*]}" >&2 || die "building the initramfs in $b failed"
echo "$b/initramfs.cpio"

#!/usr/bin/env bash
# usage: scripts/initramfs.sh [tests|bench]
# Build the guest initramfs $TS_OUT/initramfs-<suite>/initramfs.cpio: the
# static /init (qemu-config/init.c) and the programs listed in
# qemu-config/<suite> (default: tests), static: the patched tree's
# selftests, built by their own Makefiles against the uapi headers that
# `make headers` exports into the patched guest's O= directory, or
# qemu-config/bench.c; packed by the tree's usr/gen_init_cpio (compiled
# into the build directory) from the list template
# qemu-config/initramfs.list, with fixed mtimes.  No root needed; make
# (qemu-config/initramfs.mk) recompiles only what changed.
# Prints the path of the archive on stdout.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -le 1 ] || die "usage: scripts/initramfs.sh [tests|bench]"
suite=${1:-tests}
cfg=$TS_REPO/qemu-config
[ -f "$cfg/$suite" ] || die "no program list $cfg/$suite (usage: scripts/initramfs.sh [tests|bench])"
b=$(ts_path initramfs "$suite")
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

#!/usr/bin/env bash
# usage: scripts/boot.sh [--list-reports] {base|fixes|patched|stable} [tests|bench|suites|mainline] [sanitized]
# Boot a guest kernel (scripts/guest-kernel.sh) with the initramfs of a
# suite (scripts/initramfs.sh; default tests) under QEMU
# (qemu-config/qemu.sh), bounded by TS_BOOT_TIMEOUT seconds.  The tests
# suite gets TS_SEED and TS_RANDOM on the kernel command line, which the
# kernel hands to /init's environment as TIMEOUT_CLASSES_SEED and
# TIMEOUT_CLASSES_RANDOM (timeout_classes' random inputs), and they are
# recorded in $TS_RESULTS/tests/<kernel>/random.  Keeps the
# serial console in $TS_RESULTS/<suite>/<kernel>/serial.log, with
# verdict.json beside it (scripts/ktap.py, the one reader of the log) and
# commit (what the kernel was built from).  The suite "mainline" is the
# tests initramfs of the mainline series' kernel, copied there by make
# stable (scripts/stable.sh) to boot on a stable kernel.  The boot is
# judged once QEMU is done, by `scripts/ts judge-boot`
# (scripts/tsanity/judge/): it fails on a timeout, a kernel
# splat (the tree's rcutorture console-badness.sh, panics, UBSAN, KASAN), a
# log ktap.py cannot read, an /init that did not finish, ran another number
# of programs than the initramfs lists, or whose count of failed programs
# disagrees with QEMU's exit.  What the results mean is
# scripts/report.py's to judge (the suite "suites", liburing's and libaio's
# own tests: scripts/suites_report.py's, bounded by TS_SUITES_BOOT_TIMEOUT).
#
# With the variant "sanitized" it boots the sanitized guest
# ($TS_OUT/guest-<kernel>-sanitized: KASAN, UBSAN, lockdep, debugobjects),
# with kasan_multi_shot added to the kernel parameters, under QEMU -icount
# (TS_ICOUNT=1: the guest clock counts instructions), bounded by
# TS_SANITIZED_SCALE times TS_BOOT_TIMEOUT, and keeps everything in
# $TS_RESULTS/<suite>-sanitized/<kernel>; the judge lists the kernel's
# reports (scripts/splats.py), each with its program and input, in
# splats.json there (debugobjects' ODEBUG lines count too).  A report
# fails the boot, named, unless --list-reports (sanitized only) makes the
# reports findings to list (make check-sanitized, on base); every other
# check stays.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

usage="usage: scripts/boot.sh [--list-reports] {base|fixes|patched|stable} [tests|bench|suites|mainline] [sanitized]"
list_reports=0
if [ "${1:-}" = --list-reports ]; then
	list_reports=1
	shift
fi
{ [ $# -ge 1 ] && [ $# -le 3 ]; } || die "$usage"
kernel=$1
suite=${2:-tests}
variant=${3:-}
src_of "$kernel" >/dev/null
case $variant in
'')
	[ "$list_reports" = 0 ] || die "--list-reports is for the sanitized variant only ($usage)"
	guest=$(ts_path guest "$kernel")
	boots=$(ts_path boot-results "$suite")
	limit=$TS_BOOT_TIMEOUT
	[ "$suite" != suites ] || limit=$TS_SUITES_BOOT_TIMEOUT
	append=$TS_APPEND
	icount=$TS_ICOUNT
	;;
sanitized)
	guest=$(ts_path guest "$kernel" sanitized)
	boots=$(ts_path boot-results "$suite" sanitized)
	case $TS_SANITIZED_SCALE in
	[1-9] | [1-9][0-9]) ;;
	*) die "TS_SANITIZED_SCALE=$TS_SANITIZED_SCALE: a whole factor from 1 to 99" ;;
	esac
	limit=$((TS_BOOT_TIMEOUT * TS_SANITIZED_SCALE))
	# The guest's clock counts instructions (qemu.sh: -icount
	# shift=0,sleep=off): the checkers slow the emulation, not the guest
	# time a program's work takes, so a selftest's timeout (futex_requeue
	# waits 30 ms) and /init's watchdog mean what they mean on the plain
	# guest, whatever the host's load.
	icount=1
	# Every bad access reported, not the first only.
	append="kasan_multi_shot${TS_APPEND:+ $TS_APPEND}"
	;;
*) die "unknown variant '$variant' ($usage)" ;;
esac
image=$guest/arch/x86/boot/bzImage
initramfs=$(ts_path initramfs "$suite")/initramfs.cpio
programs=$(ts_path initramfs "$suite")/tests
[ -f "$image" ] || die "$image not found (run scripts/guest-kernel.sh $kernel${variant:+ $variant})"
{ [ -f "$initramfs" ] && [ -f "$programs" ]; } || die "$initramfs not found (run scripts/initramfs.sh $suite)"
results=$(ts_path run "$boots" "$kernel")
log=$(ts_path result "$boots" serial kernel="$kernel")
verdict=$(ts_path result "$boots" verdict kernel="$kernel")
commit=$(ts_path result "$boots" commit kernel="$kernel")
random=$(ts_path result "$boots" random kernel="$kernel")
splats=$(ts_path result "$boots" splats kernel="$kernel")
mkdir -p "$results"
# What an earlier boot left (splats.txt is rewritten by a sanitized one).
rm -f "$log" "$verdict" "$commit" "$random" "$splats"
cp "$guest/ts-commit" "$commit"

# The random inputs of timeout_classes: the kernel hands unknown
# parameters of the form NAME=VALUE to /init as its environment.
if [ "$suite" = tests ] || [ "$suite" = mainline ]; then
	[[ $TS_SEED =~ ^[0-9]+$ ]] || die "TS_SEED=$TS_SEED: not a number"
	[[ $TS_RANDOM =~ ^[0-9]+$ ]] || die "TS_RANDOM=$TS_RANDOM: not a number"
	append="${append:+$append }TIMEOUT_CLASSES_SEED=$TS_SEED TIMEOUT_CLASSES_RANDOM=$TS_RANDOM"
	echo "$TS_SEED $TS_RANDOM" >"$random"
fi

log "booting the $kernel${variant:+ $variant} guest kernel (limit $limit s; serial console in $log)"
start=$(date +%s%N)
rc=0
TS_APPEND=$append TS_ICOUNT=$icount timeout -k 5 "$limit" "$TS_REPO/qemu-config/qemu.sh" "$image" "$initramfs" "$log" || rc=$?
wall=$((($(date +%s%N) - start) / 1000000))
wall=$(printf '%d.%03d' $((wall / 1000)) $((wall % 1000)))

# The judge: the problems of the boot, each named, or its summary.
judge=(--rc "$rc" --limit "$limit" --wall "$wall")
[ -z "$variant" ] || judge+=(--sanitized)
[ "$list_reports" = 0 ] || judge+=(--list-reports)
ts judge-boot "${judge[@]}" "$kernel" "$boots" "$programs"

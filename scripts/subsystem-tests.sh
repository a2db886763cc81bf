#!/usr/bin/env bash
# usage: scripts/subsystem-tests.sh   (make subsystem-tests; a TS_KERNEL
# whose row has the suites' expectations: scripts/tsanity/kernels.py)
# Each io_uring and aio fix proven by its subsystem's own test suite:
# liburing's and libaio's tests (scripts/suites.sh staged them, with the
# series' own liburing tests of patches/liburing/), packed into the
# initramfs "suites" (scripts/ts initramfs suites: every program 3 times a
# boot), booted on the base, fixes and patched guest kernels
# (scripts/ts boot K suites; the kernels are scripts/ts guest's, not
# built here) and judged by scripts/suites_report.py against the
# expectations of the kernel's row (qemu-config/suites/intended): one
# verdict per test on all three kernels but the listed differences, no
# flaky test unlisted.  Writes
# $TS_RESULTS/suites/{base,fixes,patched}/ and report.md, report.json.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -eq 0 ] || die "usage: scripts/subsystem-tests.sh"
rules=$(ts row suites) || die "scripts/ts row suites failed"
[ -n "$rules" ] || die "Linux $TS_KERNEL has no expectations for the suites (its row in scripts/tsanity/kernels.py names none): run with the kernel that has them"
[ -f "$TS_REPO/$rules" ] || die "$TS_REPO/$rules not found (the suites of Linux $TS_KERNEL's row)"
for k in base fixes patched; do
	image=$(ts_path guest "$k")/arch/x86/boot/bzImage
	[ -f "$image" ] || die "$image not found (scripts/ts guest $k builds it)"
done
"$TS_REPO/scripts/suites.sh" >/dev/null
ts initramfs suites >/dev/null
times=()
for k in base fixes patched; do
	start=$SECONDS
	ts boot "$k" suites
	times+=("$k $((SECONDS - start)) s")
done
log "boots: ${times[*]}"
python3 "$TS_REPO/scripts/suites_report.py" --rules "$TS_REPO/$rules" "$(ts_path boot-results suites)"

#!/usr/bin/env bash
# usage: scripts/bench.sh
# The cost of the series against 6.12, in one run: scripts/bloat-o-meter on
# the base and patched vmlinux of the integration config, then the guest
# benchmark (qemu-config/bench.c) booted on the base kernel and on the
# patched kernel in turn, TS_BENCH_ROUNDS times each (default 3), so that a
# drift of the host between boots falls on both kernels alike;
# scripts/bench-report.py makes the table ($TS_RESULTS/bench/bench.md) from
# every round.  The kernels and the bench initramfs must be built (make
# bench does both).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -eq 0 ] || die "usage: scripts/bench.sh"
out=$TS_RESULTS/bench
mkdir -p "$out"
for k in base patched; do
	[ -f "$TS_OUT/guest-$k/vmlinux" ] || die "$TS_OUT/guest-$k/vmlinux not found (run scripts/guest-kernel.sh $k)"
done
log "bloat-o-meter: guest-base/vmlinux -> guest-patched/vmlinux"
"$TS_SRC/scripts/bloat-o-meter" "$TS_OUT/guest-base/vmlinux" "$TS_OUT/guest-patched/vmlinux" \
	>"$out/bloat-o-meter.txt" || die "scripts/bloat-o-meter failed"
rounds=$TS_BENCH_ROUNDS
rm -f "$out"/base/serial-*.log "$out"/patched/serial-*.log
for r in $(seq 1 "$rounds"); do
	for k in base patched; do
		"$TS_REPO/scripts/boot.sh" "$k" bench
		cp "$out/$k/serial.log" "$out/$k/serial-$r.log"
	done
done
python3 "$TS_REPO/scripts/bench-report.py" "$out"

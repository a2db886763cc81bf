#!/usr/bin/env bash
# usage: scripts/bench.sh
# The cost of the series in instructions, in one run: scripts/bloat-o-meter
# on the base, fixes and patched vmlinux of the integration config, the
# object code of every function the refactor touches compared between the
# fixes and the patched build (scripts/objdiff.py), then the guest
# benchmark (qemu-config/bench.c, native and -m32: both ABIs) booted under
# QEMU's -icount shift=0,sleep=off (scripts/ts boot --icount: the guest clock counts
# instructions) on base, fixes and patched in turn, TS_BENCH_ROUNDS times
# each (default 2; about 20 s a boot under TCG); scripts/bench-report.py
# makes the table ($TS_RESULTS/bench/bench.md, bench.json) from every
# round and fails on a spread over 0.5 %, a missing line, a wrong answer,
# or a fixes' refusal that fixes or patched does not make; it lists the
# refactor's costs for the object code to explain.  The kernels and the
# bench initramfs must be built (make bench does both).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -eq 0 ] || die "usage: scripts/bench.sh"
out=$(ts_path named-results bench)
mkdir -p "$out"
kernels=(base fixes patched)
declare -A guest
for k in "${kernels[@]}"; do
	guest[$k]=$(ts_path guest "$k")
	[ -f "${guest[$k]}/vmlinux" ] || die "${guest[$k]}/vmlinux not found (run scripts/ts guest $k)"
done
for pair in base:fixes fixes:patched; do
	a=${pair%%:*} b=${pair#*:}
	log "bloat-o-meter: guest-$a/vmlinux -> guest-$b/vmlinux"
	bloat=$(ts_path result "$out" bloat-o-meter old="$a" new="$b")
	"$TS_SRC/scripts/bloat-o-meter" "${guest[$a]}/vmlinux" "${guest[$b]}/vmlinux" \
		>"$bloat" || die "scripts/bloat-o-meter $a -> $b failed"
done
# The C files the refactor changes, whose objects the guest builds.
last_fix=$(series_commits "$TS_SRC" fixes | sed -n '$p')
[ -n "$last_fix" ] || die "no fixes part in $TS_SRC"
objs=()
while read -r f; do
	o=${f%.c}.o
	if [ -f "${guest[fixes]}/$o" ] && [ -f "${guest[patched]}/$o" ]; then objs+=("$o"); fi
done < <(git -C "$TS_SRC" diff --name-only "$last_fix" HEAD -- '*.c')
[ ${#objs[@]} -gt 0 ] || die "no object of the refactor's C files in both guest builds"
log "objdump: ${#objs[@]} objects of the refactor, fixes vs patched"
objdiff=$(ts_path result "$out" objdiff)
python3 "$TS_REPO/scripts/objdiff.py" "${guest[fixes]}" "${guest[patched]}" "${objs[@]}" \
	>"$objdiff" || die "scripts/objdiff.py failed (see $objdiff)"
rounds=$TS_BENCH_ROUNDS
# Each kernel's serial log, which `scripts/ts boot` writes anew each boot,
# is copied to its round's log.
declare -A serial
for k in "${kernels[@]}"; do
	serial[$k]=$(ts_path result "$out" serial kernel="$k")
	run=$(ts_path run "$out" "$k")
	mkdir -p "$run"
	# The rounds of an earlier run: any round (the directory quoted, the
	# name a glob).
	earlier=$(ts_path result "$out" serial-round kernel="$k" round='*')
	earlier_dir=$(dirname "$earlier")
	earlier_glob=$(basename "$earlier")
	# shellcheck disable=SC2086
	rm -f -- "$earlier_dir"/$earlier_glob
done
for r in $(seq 1 "$rounds"); do
	for k in "${kernels[@]}"; do
		ts boot --icount "$k" bench
		round_log=$(ts_path result "$out" serial-round kernel="$k" round="$r")
		cp "${serial[$k]}" "$round_log"
	done
done
python3 "$TS_REPO/scripts/bench-report.py" "$out"

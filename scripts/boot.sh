#!/usr/bin/env bash
# usage: scripts/boot.sh {patched|base} [tests|bench]
# Boot the guest kernel built by scripts/guest-kernel.sh with the initramfs of
# scripts/initramfs.sh for that suite (default tests; QEMU command line:
# qemu-config/qemu.sh; TCG unless TS_KVM=1), bounded by TS_BOOT_TIMEOUT
# seconds (default 60).  Keeps the serial console in
# $TS_RESULTS/<suite>/<kernel>/serial.log, checks it for kernel splats (the
# tree's rcutorture console-badness.sh, and panics), and has
# scripts/ktap.py read its KTAP into verdict.json there.  Fails on a
# timeout, a splat, no verdict from /init, or a log that cannot be read;
# what the results mean is judged by scripts/report.py.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

usage="usage: scripts/boot.sh {patched|base} [tests|bench]"
[ $# -ge 1 ] && [ $# -le 2 ] || die "$usage"
kernel=$1
suite=${2:-tests}
case $kernel in
patched | base) ;;
*) die "unknown kernel '$kernel' ($usage)" ;;
esac
image=$TS_OUT/guest-$kernel/arch/x86/boot/bzImage
initramfs=$TS_OUT/initramfs-$suite/initramfs.cpio
[ -f "$image" ] || die "$image not found (run scripts/guest-kernel.sh $kernel)"
[ -f "$initramfs" ] || die "$initramfs not found (run scripts/initramfs.sh $suite)"
limit=${TS_BOOT_TIMEOUT:-60}
results=$TS_RESULTS/$suite/$kernel
log=$results/serial.log
json=$results/verdict.json
mkdir -p "$results"
rm -f "$log" "$json" "$results/results.json" "$results/parse.log"

log "booting the $kernel guest kernel (limit $limit s; serial console in $log)"
start=$(date +%s%N)
rc=0
timeout -k 5 "$limit" "$TS_REPO/qemu-config/qemu.sh" "$image" "$initramfs" "$log" || rc=$?
wall=$(( ($(date +%s%N) - start) / 1000000 ))
wall=$(printf '%d.%03d' $((wall / 1000)) $((wall % 1000)))
[ -f "$log" ] || die "QEMU (exit $rc) wrote no serial log $log"

# Collect every problem, then report them all.
problems=()
# /init's last word says how many programs failed: none with exit 1 (all
# passed or skipped), some with exit 3 (report.py judges which).
summary=$(grep -E '^# init: [0-9]+ of [0-9]+ programs failed' "$log" | tail -n 1) ||
	[ $? -eq 1 ]
nfailed=${summary#\# init: }
nfailed=${nfailed%% *}
case $rc in
1 | 3)
	if [ -z "$summary" ]; then
		problems+=("QEMU exited $rc, but /init never said how many programs failed: it did not finish")
	elif { [ "$rc" -eq 1 ] && [ "$nfailed" -ne 0 ]; } || { [ "$rc" -eq 3 ] && [ "$nfailed" -eq 0 ]; }; then
		problems+=("QEMU exited $rc, but /init said '${summary#\# }'")
	fi
	;;
124 | 137) problems+=("timeout: the guest did not finish within $limit s") ;;
0) problems+=("no verdict: the guest rebooted or panicked before /init finished (QEMU exit 0)") ;;
*) problems+=("QEMU failed (exit $rc)") ;;
esac

# Kernel splats: the tree's list, and what it leaves to the panic path.
badness=$TS_SRC/tools/testing/selftests/rcutorture/bin/console-badness.sh
[ -x "$badness" ] || die "$badness not found"
splats=$({ "$badness" <"$log" || [ $? -eq 1 ]; } &&
	{ grep -E 'Kernel panic|UBSAN:|KASAN:' "$log" || [ $? -eq 1 ]; }) ||
	die "searching $log for kernel splats failed"
if [ -n "$splats" ]; then
	sed -n 1,5p <<<"$splats" >&2
	problems+=("kernel splat in the serial log (the first lines are above)")
fi

ktap_rc=0
python3 "$TS_REPO/scripts/ktap.py" "$log" "$json" || ktap_rc=$?
[ "$ktap_rc" -eq 0 ] || problems+=("scripts/ktap.py failed (exit $ktap_rc) on the serial log")

if [ ${#problems[@]} -gt 0 ]; then
	for p in "${problems[@]}"; do
		echo "error: $kernel boot: $p" >&2
	done
	die "$kernel boot failed: serial log $log"
fi
python3 - "$json" "$kernel" "$wall" <<'PY'
import json, sys
v = json.load(open(sys.argv[1]))
c = v["counts"]
print(f"{sys.argv[2]} boot: {len(v['tests'])} of {v['plan']} programs reported; "
      f"{c['passed']} tests passed, {c['failed']} failed, {c['skipped']} skipped; "
      f"boot-to-verdict {v['boot_to_verdict_s']} s, wall {sys.argv[3]} s (judged by report.py)")
PY
echo "$kernel boot: serial log $log, verdict $json"

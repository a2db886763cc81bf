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
# stable (scripts/stable.sh) to boot on a stable kernel.  Fails on a timeout, a kernel
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
# $TS_RESULTS/<suite>-sanitized/<kernel>; scripts/splats.py lists the
# kernel's reports, each with its program and input, in splats.json there
# (debugobjects' ODEBUG lines count too).  A report fails the boot, named,
# unless --list-reports (sanitized only) makes the reports findings to list
# (make check-sanitized, on base); every other check stays.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

usage="usage: scripts/boot.sh [--list-reports] {base|fixes|patched|stable} [tests|bench|suites|mainline] [sanitized]"
list_reports=0
if [ "${1:-}" = --list-reports ]; then
	list_reports=1
	shift
fi
[ $# -ge 1 ] && [ $# -le 3 ] || die "$usage"
kernel=$1
suite=${2:-tests}
variant=${3:-}
src_of "$kernel" >/dev/null
case $variant in
'')
	[ "$list_reports" = 0 ] || die "--list-reports is for the sanitized variant only ($usage)"
	guest=$(ts_path guest "$kernel")
	results=$(ts_path boot-results "$suite")/$kernel
	limit=$TS_BOOT_TIMEOUT
	[ "$suite" != suites ] || limit=$TS_SUITES_BOOT_TIMEOUT
	append=$TS_APPEND
	icount=$TS_ICOUNT
	;;
sanitized)
	guest=$(ts_path guest "$kernel" sanitized)
	results=$(ts_path boot-results "$suite" sanitized)/$kernel
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
[ -f "$initramfs" ] && [ -f "$programs" ] || die "$initramfs not found (run scripts/initramfs.sh $suite)"
log=$results/serial.log
json=$results/verdict.json
mkdir -p "$results"
splats_json=$results/splats.json
rm -f "$log" "$json" "$results/commit" "$results/random" "$splats_json"
cp "$guest/ts-commit" "$results/commit"

# The random inputs of timeout_classes: the kernel hands unknown
# parameters of the form NAME=VALUE to /init as its environment.
if [ "$suite" = tests ] || [ "$suite" = mainline ]; then
	[[ $TS_SEED =~ ^[0-9]+$ ]] || die "TS_SEED=$TS_SEED: not a number"
	[[ $TS_RANDOM =~ ^[0-9]+$ ]] || die "TS_RANDOM=$TS_RANDOM: not a number"
	append="${append:+$append }TIMEOUT_CLASSES_SEED=$TS_SEED TIMEOUT_CLASSES_RANDOM=$TS_RANDOM"
	echo "$TS_SEED $TS_RANDOM" >"$results/random"
fi

log "booting the $kernel${variant:+ $variant} guest kernel (limit $limit s; serial console in $log)"
start=$(date +%s%N)
rc=0
TS_APPEND=$append TS_ICOUNT=$icount timeout -k 5 "$limit" "$TS_REPO/qemu-config/qemu.sh" "$image" "$initramfs" "$log" || rc=$?
wall=$((($(date +%s%N) - start) / 1000000))
wall=$(printf '%d.%03d' $((wall / 1000)) $((wall % 1000)))
[ -f "$log" ] || die "QEMU (exit $rc) wrote no serial log $log"

# Collect every problem, then report them all.
problems=()
case $rc in
1 | 3) ;; # /init's verdict: checked against verdict.json below
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
if [ -z "$variant" ]; then
	if [ -n "$splats" ]; then
		sed -n 1,5p <<<"$splats" >&2
		problems+=("kernel splat in the serial log (the first lines are above)")
	fi
else
	# The same lines and more (ODEBUG), grouped into reports, each with
	# its program and input.
	python3 "$TS_REPO/scripts/splats.py" scan --badness "$badness" "$log" "$splats_json" >"$results/splats.txt" ||
		die "scripts/splats.py could not read $log"
	nreports=$(wc -l <"$results/splats.txt")
	# Every line the check above found must be in a report.
	missed=$(python3 -c 'import json, sys
have = {t for r in json.load(open(sys.argv[1]))["reports"] for _, t in r["lines"]}
lines = [l.rstrip("\r") for l in sys.stdin.read().splitlines()]  # the log has CRLF
print("\n".join(l for l in lines if l and l not in have))' "$splats_json" <<<"$splats") ||
		die "reading $splats_json failed"
	if [ -n "$missed" ]; then
		sed -n 1,5p <<<"$missed" >&2
		problems+=("scripts/splats.py left out splat lines that console-badness.sh or the grep found (the first are above)")
	fi
	if [ "$nreports" -gt 0 ] && [ "$list_reports" = 0 ]; then
		sed 's/^/  /' "$results/splats.txt" >&2
		problems+=("$nreports kernel report(s) in the serial log (named above; $splats_json)")
	elif [ "$nreports" -gt 0 ]; then
		log "$kernel: $nreports kernel report(s), listed as findings in $splats_json:"
		sed 's/^/  /' "$results/splats.txt" >&2
	fi
fi

ktap_rc=0
TS_SRC=$TS_SRC python3 "$TS_REPO/scripts/ktap.py" "$log" "$json" || ktap_rc=$?
if [ "$ktap_rc" -ne 0 ]; then
	problems+=("scripts/ktap.py failed (exit $ktap_rc) on the serial log")
elif [ "$rc" = 1 ] || [ "$rc" = 3 ]; then
	# QEMU exits 1 when /init saw no failed program, 3 when it saw some.
	mapfile -t said < <(python3 -c 'import json, sys
i = json.load(open(sys.argv[1]))["init"]
print(*(("-", "-") if i is None else (i["failed"], i["programs"])), sep="\n")' "$json")
	nlisted=$(wc -l <"$programs")
	if [ "${said[0]}" = - ]; then
		problems+=("QEMU exited $rc, but /init never said how many programs failed: it did not finish")
	elif [ "${said[1]}" -ne "$nlisted" ]; then
		problems+=("/init ran ${said[1]} programs, the initramfs lists $nlisted ($programs)")
	elif { [ "$rc" = 1 ] && [ "${said[0]}" -ne 0 ]; } || { [ "$rc" = 3 ] && [ "${said[0]}" -eq 0 ]; }; then
		problems+=("QEMU exited $rc, but /init said ${said[0]} of ${said[1]} programs failed")
	fi
fi

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

#!/usr/bin/env bash
# usage: scripts/boot.sh {patched|base} [tests|bench]
# Boot the guest kernel built by scripts/guest-kernel.sh with the initramfs of
# scripts/initramfs.sh for that suite (default tests; QEMU command line:
# qemu-config/qemu.sh; TCG unless TS_KVM=1), bounded by TS_BOOT_TIMEOUT
# seconds (default 60).  Keeps the serial console in
# $TS_RESULTS/<suite>/<kernel>/serial.log and kunit.py's parse in
# results.json (parse.log: its output), and fails on a timeout, a failed or
# missing result, no verdict from /init, or a kernel splat in the log.
# On the base kernel, the cases that patches/intended-differences (or
# TS_INTENDED) covers fail the contract by design: they, and only they,
# may fail there, with the outcome the list gives for 6.12.
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
json=$results/results.json
mkdir -p "$results"
rm -f "$log" "$json" "$results/parse.log"

log "booting the $kernel guest kernel (limit $limit s; serial console in $log)"
start=$(date +%s%N)
rc=0
timeout -k 5 "$limit" "$TS_REPO/qemu-config/qemu.sh" "$image" "$initramfs" "$log" || rc=$?
wall=$(( ($(date +%s%N) - start) / 1000000 ))
wall=$(printf '%d.%03d' $((wall / 1000)) $((wall % 1000)))
[ -f "$log" ] || die "QEMU (exit $rc) wrote no serial log $log"

# Collect every problem, then report them all.
problems=()
case $rc in
1) ;; # /init: all programs passed or skipped
3) ;; # /init: a program failed; judged with the cases below
124 | 137) problems+=("timeout: the guest did not finish within $limit s") ;;
0) problems+=("no verdict: the guest rebooted or panicked before /init finished (QEMU exit 0)") ;;
*) problems+=("QEMU failed (exit $rc)") ;;
esac

for pat in "BUG:" "WARNING:" "Oops" "UBSAN" "Call Trace" "Kernel panic"; do
	if grep -n -F -m 3 -- "$pat" "$log" >&2; then
		problems+=("'$pat' in the serial log")
	fi
done

parse_rc=0
python3 "$TS_SRC/tools/testing/kunit/kunit.py" parse --json="$json" "$log" \
	>"$results/parse.log" 2>&1 || parse_rc=$?
# kunit.py parse exits non-zero for any failed case, the base kernel's
# intended ones too: with a JSON, the cases are judged below, one by one,
# and a non-zero exit stands only where intended failures explain it.
if [ "$parse_rc" -ne 0 ] && [ ! -f "$json" ]; then
	echo "$kernel boot: kunit.py parse exited $parse_rc; its first failures:" >&2
	grep -m 20 -E '\[(FAILED|CRASHED|ERROR)\]' "$results/parse.log" >&2 || [ $? -eq 1 ]
	problems+=("kunit.py parse failed (exit $parse_rc) and wrote no $json: see $results/parse.log")
fi
[ -f "$json" ] || [ "$parse_rc" -ne 0 ] || problems+=("kunit.py parse wrote no $json")

# Our own count: every plan of the log against the results kunit.py found.
summary_rc=0
python3 - "$log" "$json" "$kernel" "$wall" "$TS_REPO/scripts" "$rc" "$parse_rc" <<'PY' || summary_rc=$?
import os, re, sys

log, json_path, kernel, wall, scripts, qemu_rc, parse_rc = sys.argv[1:]
sys.path.insert(0, scripts)
import intended
import kunit_json
lines = [l.rstrip("\r\n") for l in open(log, errors="replace")]
errors = []

# Top level (column 0): plan, one result per program, nested plans.
plan = None
results, nested_plan, verdict_time = [], {}, None
pending_plan = None
for l in lines:
    if plan is None:
        m = re.fullmatch(r"1\.\.(\d+)", l)
        if m:
            plan = int(m.group(1))
        continue
    m = re.fullmatch(r"    1\.\.(\d+)", l)
    if m:
        pending_plan = int(m.group(1))
        continue
    m = re.fullmatch(r"(ok|not ok) (\d+) (\S+)( # SKIP.*)?", l)
    if m:
        results.append((m.group(1), int(m.group(2)), m.group(3), bool(m.group(4))))
        nested_plan[m.group(3)] = pending_plan
        pending_plan = None
        continue
    m = re.fullmatch(r"# boot-to-verdict: ([0-9.]+) s", l)
    if m:
        verdict_time = m.group(1)

if plan is None:
    errors.append("no top-level KTAP plan in the serial log")
else:
    if len(results) != plan:
        errors.append(f"{len(results)} of {plan} test programs reported a result")
    for i, r in enumerate(results, 1):
        if r[1] != i:
            errors.append(f"result '{r[0]} {r[1]} {r[2]}' out of order (expected number {i})")
            break
# The cases that may fail: on base, those an intended difference covers
# and that answered what the rule says 6.12 answers.
allowed = set()
if kernel == "base":
    rules = intended.load()
    for l in lines:
        d = intended.diag(l)
        if d and intended.fails_by_design(rules, d):
            allowed.add(d["name"])
failed_programs = [r[2] for r in results if r[0] != "ok"]
if verdict_time is None:
    errors.append("no '# boot-to-verdict' line: /init did not finish")

# Leaves per program in kunit.py's JSON against the nested plans; a
# program may fail only by allowed cases.
cases, not_ok = {}, {}
expected_fail = 0
if os.path.exists(json_path):
    for path, status in kunit_json.load(json_path):
        if len(path) == 1:  # a program without nested output
            cases.setdefault(path[0], [])
        else:
            cases.setdefault(path[0], []).append(status)
            if status not in ("PASS", "SKIP"):
                not_ok.setdefault(path[0], []).append(path[-1])
    for status, num, name, skip in results:
        got = cases.get(name)
        want = nested_plan.get(name)
        if got is None:
            errors.append(f"program {name}: missing from {json_path}")
        elif want is not None and len(got) != want:
            errors.append(f"program {name}: {len(got)} results parsed, its plan says {want}")
        elif want is None and not skip:
            errors.append(f"program {name}: printed no KTAP plan")
        bad = not_ok.get(name, [])
        unexpected = [c for c in bad if c not in allowed]
        expected_fail += len(bad) - len(unexpected)
        for c in unexpected[:20]:
            print(f"[FAILED] {name}: {c}", file=sys.stderr)
        if unexpected:
            errors.append(f"program {name}: {len(unexpected)} case(s) not passed, "
                          f"the first: {unexpected[0]}")
        elif status != "ok" and not bad:
            errors.append(f"program {name}: not ok, but none of its cases failed")
if parse_rc != "0" and not expected_fail:
    errors.append(f"kunit.py parse exited {parse_rc}, and no intended difference explains it")
if failed_programs and qemu_rc != "3":
    errors.append(f"programs failed but QEMU exited {qemu_rc}, not 3")
if qemu_rc == "3" and not failed_programs:
    errors.append("/init reported a failed test program (QEMU exit 3), none failed in the log")

counts = {}
for v in cases.values():
    for s in v:
        counts[s] = counts.get(s, 0) + 1
progs_ok = sum(1 for r in results if r[0] == "ok" and not r[3])
progs_skip = sum(1 for r in results if r[0] == "ok" and r[3])
progs_bad = sum(1 for r in results if r[0] != "ok")
other = sum(n for s, n in counts.items() if s not in ("PASS", "SKIP"))
print(f"{kernel}: programs {progs_ok} passed, {progs_bad} failed, {progs_skip} skipped "
      f"(plan {plan}); cases {counts.get('PASS', 0)} passed, {other} failed "
      f"({expected_fail} of them intended differences that 6.12 fails), "
      f"{counts.get('SKIP', 0)} skipped; boot-to-verdict {verdict_time} s, wall {wall} s")
if expected_fail:
    print(f"{kernel}: {expected_fail} cases fail the contract by design, each listed in "
          f"patches/intended-differences (6.12 answers them as the list says, and the fixes "
          f"change exactly these): not failures of this run")
for name, v in cases.items():
    print(f"  {name}: {len(v)} cases", file=sys.stderr)
for e in errors:
    print(f"error: {e}", file=sys.stderr)
sys.exit(1 if errors else 0)
PY
[ "$summary_rc" -eq 0 ] || problems+=("missing or failed results (see the errors above)")

if [ ${#problems[@]} -gt 0 ]; then
	for p in "${problems[@]}"; do
		echo "error: $kernel boot: $p" >&2
	done
	die "$kernel boot failed: serial log $log"
fi
echo "$kernel boot: passed; serial log $log, results $json"

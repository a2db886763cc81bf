#!/usr/bin/env bash
# usage: scripts/random.sh
# The integration boot with a fresh seed (make random): base and patched
# booted with timeout_classes' random inputs, TS_RANDOM per test from one
# seed, then judged by scripts/report.py against
# patches/intended-differences like make test's boot.  The seed is TS_SEED
# when it is set, else a fresh one from /dev/urandom; it is printed first,
# and a difference names it with its input (rand=<seed>/<i>), so that
# `TS_SEED=<seed> make random` replays the run.  make test boots with
# lib.sh's fixed TS_SEED.  The verdicts do not depend on timing, so a
# difference a fresh seed finds is a bug: add its input to the boundary
# table of timeout_classes.  The guests and the tests initramfs must be
# built (make random does both).  Results in $TS_RESULTS/random.
set -euo pipefail
seed=${TS_SEED:-} # before lib.sh gives TS_SEED its fixed default
. "$(dirname "$0")/lib.sh"

[ $# -eq 0 ] || die "usage: scripts/random.sh"
if [ -z "$seed" ]; then
	seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' \n') || die "reading a seed from /dev/urandom failed"
	how=fresh
else
	how="from TS_SEED"
fi
[[ $seed =~ ^[0-9]+$ ]] || die "TS_SEED=$seed: not a number"
echo "random inputs: seed $seed ($how), $TS_RANDOM per test; replay: TS_SEED=$seed TS_RANDOM=$TS_RANDOM make random"
results=$(ts_path named-results random)
rc=0
for k in base patched; do
	TS_SEED=$seed TS_RESULTS=$results ts boot "$k" tests || rc=1
done
[ "$rc" -eq 0 ] || die "a boot with seed $seed failed (see above)"
# The boots' directory under $results, as `scripts/ts boot` made it there.
tests=$(TS_RESULTS=$results ts_path boot-results tests)
report=$(ts_path result "$tests" report old=base new=patched ext=md)
"$TS_REPO/scripts/report.py" "$tests" base patched ||
	die "seed $seed: base and patched differ other than intended, or a case failed: $report (replay: TS_SEED=$seed TS_RANDOM=$TS_RANDOM make random)"
echo "random inputs: seed $seed, $TS_RANDOM per test: base and patched differ exactly as intended"

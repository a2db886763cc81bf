#!/usr/bin/env bash
# usage: scripts/audit.sh [--strict] [--doc FILE] | --base
# Audit how the syscall timeouts of $TS_SRC are checked (docs/audit.md):
# spatch runs the semantic patch timespec64_timeout.cocci (-D audit) on
# $TS_AUDIT_DIRS, scripts/audit.py walks the call graph up from every finding
# to the syscalls that reach it, and writes $TS_RESULTS/audit/audit.md: one
# row per function (file, function, entry points served, check used,
# consistent with the contract), timeout paths first.  The path is the last
# line printed.
#   --strict    also exit 1 if a timeout-path row is not consistent (make audit)
#   --doc FILE  also rewrite the table between the audit markers of FILE
#               (docs/audit.md), never by hand
#   --base      audit the unpatched 6.12 ($TS_BASE_SRC) with the series'
#               semantic patch into $TS_RESULTS/audit-base, and exit 1 unless
#               it finds every path that the fixes part fixes inconsistent:
#               the functions of TS_AUDIT_BASE_EXPECT (make audit runs both)
# The semantic patch is the one the series adds,
# $TS_SRC/scripts/coccinelle/api/timespec64_timeout.cocci; TS_AUDIT_COCCI
# names another (to audit the unpatched tree: TS_SRC=<base-src>
# TS_AUDIT_COCCI=<patched tree>/scripts/coccinelle/api/timespec64_timeout.cocci).
# Any spatch failure (exception, timeout, unparseable output, a helper call it
# did not see) stops the audit with exit 2, named.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

usage="usage: scripts/audit.sh [--strict] [--doc FILE] | --base"
strict=()
doc=()
base=0
while [ $# -gt 0 ]; do
	case $1 in
	--strict) strict=(--strict) ;;
	--base) base=1 ;;
	--doc)
		[ $# -ge 2 ] || die "--doc needs a file ($usage)"
		[ -f "$2" ] || die "--doc: $2 not found"
		doc=(--doc "$(cd "$(dirname "$2")" && pwd)/$(basename "$2")")
		shift
		;;
	-h | --help)
		echo "$usage"
		exit 0
		;;
	*) die "unknown argument '$1' ($usage)" ;;
	esac
	shift
done

# Measured on 2 busy cores: 20 to 40 s for the findings, about 70 s for the
# call graph (8 levels, one spatch run each); under 2 minutes in all.
# arch/ is left out: its timeouts (alpha's osf_select) are not in the
# series' scope; TS_AUDIT_DIRS="... arch" adds them.
TS_AUDIT_DIRS=${TS_AUDIT_DIRS:-kernel fs ipc io_uring net mm drivers}
# Where callers are searched (include/ adds little and costs a lot).
TS_AUDIT_GRAPH_DIRS=${TS_AUDIT_GRAPH_DIRS:-$TS_AUDIT_DIRS}
spatch_lib=${TS_SPATCH_LIB:-/usr/lib/coccinelle}

command -v spatch >/dev/null || die "spatch not found (Debian package coccinelle)"
spatch_version=$(spatch --version | awk 'NR==1{print $3}')
[ -r "$spatch_lib/standard.h" ] ||
	die "$spatch_lib/standard.h not found (set TS_SPATCH_LIB to spatch's library directory)"
[ -d "$TS_SRC/.git" ] || [ -f "$TS_SRC/.git" ] || die "$TS_SRC is not a git tree (run make tree)"

cocci=${TS_AUDIT_COCCI:-$TS_SRC/scripts/coccinelle/api/timespec64_timeout.cocci}
results=$TS_RESULTS/audit
if [ "$base" -eq 1 ]; then
	[ ${#strict[@]} -eq 0 ] && [ ${#doc[@]} -eq 0 ] || die "--base takes no other option ($usage)"
	[ -f "$TS_BASE_SRC/Makefile" ] || die "$TS_BASE_SRC not found (run make tree)"
	# The functions the fixes part fixes, each a timeout path that 6.12
	# leaves unchecked or checks by a rule of its own.
	expect=${TS_AUDIT_BASE_EXPECT:-io_uring/cancel.c:io_sync_cancel io_uring/io_uring.c:io_cqring_wait io_uring/timeout.c:__io_timeout_prep io_uring/timeout.c:io_timeout_remove_prep fs/aio.c:sys_io_getevents}
	TS_AUDIT_COCCI=$cocci
	TS_SRC=$TS_BASE_SRC
	results=$TS_RESULTS/audit-base
	strict=(--strict)
fi
[ -f "$cocci" ] || die "semantic patch $cocci not found (is patches/series applied? see TS_AUDIT_COCCI)"
if [ -n "${TS_AUDIT_COCCI:-}" ]; then origin="TS_AUDIT_COCCI"; else origin="the audited tree's"; fi
log "semantic patch: $cocci ($origin); spatch $spatch_version"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ts-audit.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# spatch's own macro file, with SYSCALL_DEFINEn(x, ...) defining sys_x
# instead of x, and COMPAT_SYSCALL_DEFINEn (and SYSCALL_DEFINE0), which it
# lacks, defining compat_sys_x: the call graph then knows the syscalls.
macros=$tmp/macros.h
grep -q 'asmlinkage unsigned long func(' "$spatch_lib/standard.h" ||
	die "$spatch_lib/standard.h has no SYSCALL_DEFINEn macros to rename (spatch $spatch_version)"
sed 's/asmlinkage unsigned long func(/asmlinkage long sys_##func(/' \
	"$spatch_lib/standard.h" >"$macros"
{
	printf '#define SYSCALL_DEFINE0(func) \\\n\tasmlinkage long sys_##func(void)\n'
	for n in 0 1 2 3 4 5 6; do
		args="" params=""
		for i in $(seq 1 "$n"); do
			args="$args, t$i, a$i"
			params="$params${params:+, }t$i a$i"
		done
		printf '#define COMPAT_SYSCALL_DEFINE%d(func%s) \\\n\tasmlinkage long compat_sys_##func(%s)\n' \
			"$n" "$args" "${params:-void}"
	done
} >>"$macros"

mkdir -p "$results"
start=$(date +%s)
rc=0
"$TS_REPO/scripts/audit.py" --src "$TS_SRC" --cocci "$cocci" \
	--cocci-origin "$origin" --base-tag "$TS_BASE_TAG" --macros "$macros" \
	--out "$results/audit.md" --dirs "$TS_AUDIT_DIRS" \
	--graph-dirs "$TS_AUDIT_GRAPH_DIRS" --jobs "${TS_AUDIT_JOBS:-2}" \
	"${strict[@]}" "${doc[@]}" 2>&1 | tee "$results/stdout" || rc=${PIPESTATUS[0]}
if [ "$base" -eq 1 ]; then
	[ "$rc" -eq 1 ] || die "audit of 6.12 exited $rc: expected 1, its timeout paths not all consistent"
	missing=()
	for e in $expect; do
		grep -q -F "inconsistent: ${e%%:*} ${e#*:}():" "$results/stdout" || missing+=("$e")
	done
	[ ${#missing[@]} -eq 0 ] ||
		die "audit of 6.12 does not name these paths as inconsistent: ${missing[*]} (see $results/audit.md)"
	log "audit of 6.12: $(grep -c '^inconsistent: ' "$results/stdout") inconsistent timeout-path rows, every expected one among them, in $(($(date +%s) - start)) s"
	exit 0
fi
case $rc in
0) log "audit done in $(($(date +%s) - start)) s" ;;
1) die "audit: timeout paths not consistent with the contract (listed above)" ;;
*) die "audit failed (exit $rc)" ;;
esac

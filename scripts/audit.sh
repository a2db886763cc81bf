#!/usr/bin/env bash
# usage: scripts/audit.sh [--strict] [--doc FILE] | --base
# Audit how the syscall timeouts of $TS_SRC are checked (docs/audit.md):
# spatch runs the semantic patch scripts/audit.cocci (-D audit) on
# $TS_AUDIT_DIRS, scripts/audit.py walks the call graph up from every finding
# to the syscalls that reach it, and writes $TS_RESULTS/audit/audit.md: one
# row per function (file, function, entry points served, check used,
# consistent with the contract), timeout paths first.  Then the forms phase:
# scripts/forms.cocci finds the timeouts taken in another form (timeval,
# integer seconds, ms or us, timeout structures of ioctls and socket
# options) in the files git grep selects, and each must be an entry of the
# table $TS_AUDIT_FORMS (scripts/forms_table.py): the second table of
# audit.md, and $TS_RESULTS/audit/forms.json.  The path of audit.md is the
# last line printed.
#   --strict    also exit 1 if a timeout-path row is not consistent, or a
#               form found is not in the forms table or an entry of it is not
#               found (make audit)
#   --doc FILE  also rewrite the tables between the audit markers and the
#               forms markers of FILE (docs/audit.md), never by hand
#   --base      audit the unpatched base ($TS_BASE_SRC) with the same
#               semantic patch into $TS_RESULTS/audit-base, and exit 1 unless
#               it finds every path that the fixes part fixes inconsistent:
#               the functions of TS_AUDIT_BASE_EXPECT (make audit runs both),
#               and unless the forms table holds there too
# The semantic patch is the project's scripts/audit.cocci: the series'
# rules with an audit mode, 7.3's registered wait regions and 7.3's timeout
# family (the series' own, scripts/coccinelle/api/timespec64_timeout.cocci,
# is the narrowed one for upstream, without the audit's rules).
# TS_AUDIT_COCCI names another.
# Exit status (the same for scripts/audit.sh and scripts/audit.py):
#   0  audited; with --strict, every timeout-path row is consistent with the
#      contract, every other timeout form found is an entry of the forms
#      table and every entry is found (audit.sh --base: the base's audit found
#      every expected path inconsistent, and the forms table holds there too)
#   1  audited, and the answer is no: with --strict, a timeout-path row is
#      not consistent, a form found is not in the forms table ("unlisted
#      timeout form") or an entry is not found ("stale forms_table entry"),
#      named (audit.sh --base: an expected path was not found inconsistent,
#      or the forms table does not hold on the base)
#   2  the audit could not be done, named: bad usage, a missing tree, tool or
#      file, a spatch failure (an exception, a timeout, unparseable output, a
#      helper call it did not see), a forms table that is not valid, or any
#      other error
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# Not lib.sh's die, which exits 1: here 1 is the audit's "no" (above).
fail() {
	echo "error: $*" >&2
	exit 2
}
# The audit ran, and its answer is no.
refuted() {
	echo "error: $*" >&2
	exit 1
}
# A command that fails unforeseen (set -e) would exit with its own status,
# often 1, which make audit would read as an inconsistent row.
trap 'fail "scripts/audit.sh: line $LINENO: a command failed (exit $?)"' ERR

usage="usage: scripts/audit.sh [--strict] [--doc FILE] | --base"
strict=()
doc=()
base=0
while [ $# -gt 0 ]; do
	case $1 in
	--strict) strict=(--strict) ;;
	--base) base=1 ;;
	--doc)
		[ $# -ge 2 ] || fail "--doc needs a file ($usage)"
		[ -f "$2" ] || fail "--doc: $2 not found"
		doc=(--doc "$(cd "$(dirname "$2")" && pwd)/$(basename "$2")")
		shift
		;;
	-h | --help)
		echo "$usage"
		exit 0
		;;
	*) fail "unknown argument '$1' ($usage)" ;;
	esac
	shift
done

# Measured on 2 busy cores: 20 to 40 s for the findings, 15 to 20 s for the
# forms phase (git grep -P selection included), about 40 s for the call
# graph (8 levels, one spatch run each); about 1.5 minutes in all.
# arch/ is left out: its timeouts (alpha's osf_select) are not in the
# series' scope; TS_AUDIT_DIRS="... arch" adds them.  Callers are searched
# in TS_AUDIT_GRAPH_DIRS (include/ adds little and costs a lot).
spatch_lib=$TS_SPATCH_LIB

command -v spatch >/dev/null || fail "spatch not found (Debian package coccinelle)"
spatch_version=$(spatch --version | awk 'NR==1{print $3}')
[ -r "$spatch_lib/standard.h" ] ||
	fail "$spatch_lib/standard.h not found (set TS_SPATCH_LIB to spatch's library directory)"
[ -d "$TS_SRC/.git" ] || [ -f "$TS_SRC/.git" ] || fail "$TS_SRC is not a git tree (run make tree)"

if [ -n "${TS_AUDIT_COCCI:-}" ]; then
	cocci=$TS_AUDIT_COCCI origin="TS_AUDIT_COCCI"
else
	cocci=$TS_REPO/scripts/audit.cocci origin="the project's"
fi
results=$(ts_path named-results audit)
if [ "$base" -eq 1 ]; then
	{ [ ${#strict[@]} -eq 0 ] && [ ${#doc[@]} -eq 0 ]; } || fail "--base takes no other option ($usage)"
	[ -f "$TS_BASE_SRC/Makefile" ] || fail "$TS_BASE_SRC not found (run make tree)"
	# The functions the fixes part fixes, each a timeout path that the base
	# leaves unchecked or checks by a rule of its own.
	expect=$TS_AUDIT_BASE_EXPECT
	[ -n "$expect" ] || fail "no path is expected inconsistent on Linux $TS_KERNEL's base: TS_AUDIT_BASE_EXPECT is empty (the audit column of the series' fixes file, patches/fixes)"
	TS_SRC=$TS_BASE_SRC
	results=$(ts_path named-results audit-base)
	strict=(--strict)
fi
[ -f "$cocci" ] || fail "semantic patch $cocci not found (see TS_AUDIT_COCCI)"
# The other timeout forms: the project's semantic patch and table, never
# the tree's.
forms_cocci=$TS_REPO/scripts/forms.cocci
[ -f "$forms_cocci" ] || fail "semantic patch $forms_cocci not found"
[ -f "$TS_AUDIT_FORMS" ] || fail "forms table $TS_AUDIT_FORMS not found (TS_AUDIT_FORMS)"
log "semantic patch: $cocci ($origin); spatch $spatch_version"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ts-audit.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# spatch's own macro file, with SYSCALL_DEFINEn(x, ...) defining sys_x
# instead of x, and COMPAT_SYSCALL_DEFINEn (and SYSCALL_DEFINE0), which it
# lacks, defining compat_sys_x: the call graph then knows the syscalls.
macros=$tmp/macros.h
grep -q 'asmlinkage unsigned long func(' "$spatch_lib/standard.h" ||
	fail "$spatch_lib/standard.h has no SYSCALL_DEFINEn macros to rename (spatch $spatch_version)"
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
	# Scope macros that spatch 1.1.1's file lacks and 7.3 uses in
	# audited functions (do_settimeofday64(), do_timer_settime()): a
	# function it cannot parse hides its checks.
	printf '#define scoped_guard(_name, args...) for (;;)\n'
	printf '#define scoped_timer_get_or_fail(_id) for (;;)\n'
} >>"$macros"

mkdir -p "$results"
audit_md=$(ts_path result "$results" audit)
forms_json=$(ts_path result "$results" audit-forms)
audit_stdout=$(ts_path result "$results" audit-stdout)
# audit.py's answer (--answer), what is judged below: one fact a line,
# "inconsistent FILE:FUNCTION" (a timeout-path row not consistent with the
# contract), "unlisted FILE:FUNCTION" (a timeout form not in the forms
# table), "stale ID" (an entry of the table not found).
answer=$tmp/answer
start=$(date +%s)
rc=0
"$TS_REPO/scripts/audit.py" --src "$TS_SRC" --cocci "$cocci" \
	--cocci-origin "$origin" --base-tag "$TS_BASE_TAG" --macros "$macros" \
	--out "$audit_md" --dirs "$TS_AUDIT_DIRS" \
	--graph-dirs "$TS_AUDIT_GRAPH_DIRS" --forms-cocci "$forms_cocci" \
	--forms-table "$TS_AUDIT_FORMS" --forms-json "$forms_json" \
	--jobs "$TS_AUDIT_JOBS" --answer "$answer" "${strict[@]}" "${doc[@]}" 2>&1 |
	tee "$audit_stdout" || rc=${PIPESTATUS[0]}
# The answer, read when audit.py audited (0 or 1): the inconsistent rows by
# FILE:FUNCTION, and how many forms are not as the table says.
declare -A inconsistent=()
ninconsistent=0
nforms=0
if [ "$rc" -eq 0 ] || [ "$rc" -eq 1 ]; then
	[ -f "$answer" ] || fail "audit.py exited $rc and wrote no answer ($answer)"
	while read -r kind what; do
		case $kind in
		inconsistent)
			inconsistent[$what]=1
			ninconsistent=$((ninconsistent + 1))
			;;
		unlisted | stale) nforms=$((nforms + 1)) ;;
		*) fail "audit.py's answer: unknown line '$kind $what' ($answer)" ;;
		esac
	done <"$answer"
fi
if [ "$base" -eq 1 ]; then
	# audit.py runs with --strict: 1 is the answer wanted, 0 a rule that
	# sees nothing wrong in the base.
	case $rc in
	0) refuted "audit of $TS_KERNEL finds every timeout path consistent: expected $expect inconsistent (see $audit_md)" ;;
	1) ;;
	*) fail "audit of $TS_KERNEL failed (audit.py exit $rc, named above)" ;;
	esac
	missing=()
	for e in $expect; do
		[ -n "${inconsistent[$e]:-}" ] || missing+=("$e")
	done
	[ ${#missing[@]} -eq 0 ] ||
		refuted "audit of $TS_KERNEL does not name these paths as inconsistent: ${missing[*]} (see $audit_md)"
	# The same forms table must hold on the base: every form found is listed,
	# every entry is found.
	if [ "$nforms" -gt 0 ]; then
		refuted "audit of $TS_KERNEL: the other timeout forms are not as $TS_AUDIT_FORMS says (listed above; see $audit_md)"
	fi
	log "audit of $TS_KERNEL: $ninconsistent inconsistent timeout-path rows, every expected one among them, and the forms table holds, in $(($(date +%s) - start)) s"
	exit 0
fi
case $rc in
0) log "audit done in $(($(date +%s) - start)) s" ;;
1)
	what="timeout paths not consistent with the contract"
	if [ "$nforms" -gt 0 ]; then
		forms="other timeout forms not as $TS_AUDIT_FORMS says"
		if [ "$ninconsistent" -gt 0 ]; then
			what="$what, and $forms"
		else
			what=$forms
		fi
	fi
	refuted "audit: $what (listed above)"
	;;
*) fail "audit failed (audit.py exit $rc, named above)" ;;
esac

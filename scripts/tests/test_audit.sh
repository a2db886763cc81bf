#!/usr/bin/env bash
# usage: scripts/tests/test_audit.sh
# Negative experiments on the exit status of scripts/audit.sh and
# scripts/audit.py (0 audited and consistent, 1 audited and not, 2 could not
# audit; the header of both): each makes the audit fail early, so the whole
# takes seconds, never the minutes of a real audit.  audit.py is replaced by
# a stub (TS_REPO) where what is tested is audit.sh's reading of its status
# and of its answer (--answer).
# Prints "ok - ..." or "not ok - ..." per expectation (TAP), and exits 1 if
# any failed.
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
audit_sh=$repo/scripts/audit.sh
audit_py=$repo/scripts/audit.py
audit_doc=$repo/scripts/tsanity/audit/main.py # audit.py's header: usage, exit status

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ts-test-audit.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# Every run writes here, never over the results of a real audit.
export TS_RESULTS=$tmp/results
# ts_path NAME [ARG...]: a path of the layout (scripts/tsanity/layout.py).
ts_path() { "$repo/scripts/ts" path "$@"; }
audit_results=$(ts_path named-results audit)
audit_md=$(ts_path result "$audit_results" audit)
forms_json=$(ts_path result "$audit_results" audit-forms)

n=0
failed=0
rc=0
out=

# run CMD...: run CMD, keeping its exit status in rc and its stdout and
# stderr in out.
run() {
	rc=0
	out=$("$@" 2>&1) || rc=$?
}

# check WHAT STATUS [REGEX...]: the last run exited STATUS and its output
# matches every REGEX (grep -E).
check() {
	local what=$1 want=$2 why="" re
	shift 2
	n=$((n + 1))
	[ "$rc" -eq "$want" ] || why="exit $rc, not $want"
	for re in "$@"; do
		grep -q -E -e "$re" <<<"$out" || why="${why:+$why; }no line matches /$re/"
	done
	if [ -z "$why" ]; then
		echo "ok - $what"
	else
		echo "not ok - $what ($why)"
		tail -n 15 <<<"$out" | sed 's/^/#   /'
		failed=$((failed + 1))
	fi
}

# The headers: one exit status for both, and each usage line as printed.
header() { # FILE REGEX: the comment lines from REGEX on, while indented
	awk -v re="$2" '$0 ~ re { on = 1; print; next }
		on && /^#   / { print; next } { on = 0 }' "$1"
}
rc=0
out=$(diff <(header "$audit_sh" '^# Exit status') <(header "$audit_doc" '^# Exit status')) || rc=$?
[ -n "$(header "$audit_doc" '^# Exit status')" ] || { rc=1; out="tsanity/audit/main.py: no '# Exit status' block"; }
check "audit.sh and audit.py document the same exit status" 0
rc=0
out=$(header "$audit_sh" '^# Exit status')
check "audit.sh documents its exit status 0, 1 and 2" 0 '^#   0  ' '^#   1  ' '^#   2  '

# audit.py: the usage of its header is the one argparse prints (modulo
# line breaks), and names every required option.
squash() { tr -s ' \n' '  ' | sed 's/^ //; s/ $//'; }
want=$(header "$audit_doc" '^# usage: ' | sed 's/^#//' | squash)
run "$audit_py" --help
got=$(sed -n '/^usage: /,/^$/p' <<<"$out" | squash)
rc=0
[ "$got" = "$want" ] || { rc=1; out="header: $want"$'\n'"argparse: $got"; }
check "audit.py's usage is its header's" 0
run "$audit_py"
check "audit.py without options exits 2 and names every required one" 2 \
	'^usage: scripts/audit\.py' 'required: --src, --cocci, --cocci-origin, --base-tag, --macros, --out, --dirs, --graph-dirs, --forms-cocci, --forms-table, --forms-json$'
rc=0
out=
for opt in --src --cocci --cocci-origin --base-tag --macros --out --dirs --graph-dirs --forms-cocci --forms-table --forms-json; do
	[[ $want == *" $opt "* ]] || { rc=1; out="$opt not in: $want"; }
done
check "audit.py's header usage names every required option" 0
required=(--src "$tmp/none" --cocci "$tmp/x.cocci" --cocci-origin t
	--base-tag base-6.12 --macros "$tmp/m.h" --out "$audit_md"
	--dirs ipc --graph-dirs ipc --forms-cocci "$repo/scripts/forms.cocci"
	--forms-table "$repo/scripts/forms_table.py" --forms-json "$forms_json")
run "$audit_py" "${required[@]}" --bogus
check "audit.py with an unknown option exits 2" 2 'unrecognized arguments: --bogus'
run "$audit_py" "${required[@]}"
check "audit.py on a missing tree exits 2, named" 2 '^error: git grep failed'

# audit.sh: usage and prerequisites.
run "$audit_sh" --help
[ "$rc" -ne 0 ] || [ "$out" = "$(header "$audit_sh" '^# usage: ' | sed 's/^# //')" ] ||
	{ rc=1; out="header: $(header "$audit_sh" '^# usage: ')"$'\n'"--help: $out"; }
check "audit.sh --help exits 0 with its header's usage" 0
run "$audit_sh" --bogus
check "audit.sh with an unknown option exits 2" 2 "^error: unknown argument '--bogus'"
run "$audit_sh" --doc
check "audit.sh --doc without a file exits 2" 2 '^error: --doc needs a file'
run "$audit_sh" --doc "$tmp/none.md"
check "audit.sh --doc with a missing file exits 2" 2 '^error: --doc: .*none\.md not found'
run "$audit_sh" --base --strict
check "audit.sh --base with another option exits 2" 2 '^error: --base takes no other option'
run env TS_SPATCH_LIB="$tmp" "$audit_sh"
check "audit.sh without spatch's standard.h exits 2" 2 'standard\.h not found'
run env TS_SRC="$tmp/none" "$audit_sh"
check "audit.sh on a missing tree exits 2" 2 'is not a git tree'
run env TS_AUDIT_COCCI="$tmp/none.cocci" "$audit_sh"
check "audit.sh with a missing semantic patch exits 2" 2 '^error: semantic patch .*none\.cocci not found'
run env TS_RESULTS=/dev/null/results "$audit_sh"
check "audit.sh exits 2 on a failure it did not foresee (mkdir)" 2 \
	'^error: scripts/audit\.sh: line [0-9]+: a command failed'

# A semantic patch that spatch cannot parse, on one small directory: the
# real audit.py and spatch, failing in seconds.
printf '@r@\nexpression E;\n@@\n- foo(E\n+ bar(E)\n' >"$tmp/broken.cocci"
run env TS_AUDIT_COCCI="$tmp/broken.cocci" TS_AUDIT_DIRS=ipc "$audit_sh" --strict
check "audit.sh with a broken semantic patch exits 2, naming spatch" 2 \
	'^error: spatch failed \(findings' '^error: audit failed \(audit\.py exit 2'

# The forms phase on a fixture tree, with the real audit.py, forms.cocci and
# spatch (seconds: two small files).  fs/fake.c takes a timeval timeout in
# an ioctl-like handler, writes one back for user space (an output, not a
# finding), and has a syscall with an int timeout; the timespec phase runs
# a semantic patch that finds nothing.
tree=$tmp/tree
mkdir -p "$tree/fs"
cat >"$tree/fs/fake.c" <<'EOF'
static int fake_set_timeout(struct fake_dev *dev, void __user *arg)
{
	struct __kernel_old_timeval tv;

	if (copy_from_user(&tv, arg, sizeof(tv)))
		return -EFAULT;
	if (tv.tv_sec < 0 || tv.tv_usec >= USEC_PER_SEC)
		return -EDOM;
	dev->timeout = tv.tv_sec * HZ + tv.tv_usec / (USEC_PER_SEC / HZ);
	return 0;
}

static int fake_get_timeout(struct fake_dev *dev, void __user *arg)
{
	struct __kernel_old_timeval tv;

	tv.tv_sec = dev->timeout / HZ;
	tv.tv_usec = (dev->timeout % HZ) * (USEC_PER_SEC / HZ);
	return copy_to_user(arg, &tv, sizeof(tv)) ? -EFAULT : 0;
}

SYSCALL_DEFINE2(fake_poll, int, fd, int, timeout_msecs)
{
	return fake_wait(fd, timeout_msecs < 0 ? -1 : msecs_to_jiffies(timeout_msecs));
}
EOF
git -C "$tree" init -q
git -C "$tree" add fs/fake.c
git -C "$tree" -c user.name=t -c user.email=t@t commit -q -m fixture
# The tag the audit reads the series from: the kernel's (TS_KERNEL's) base.
base_tag=$(python3 "$repo/scripts/ts" env | sed -n 's/^TS_BASE_TAG=//p')
[ -n "$base_tag" ] || { echo "error: scripts/ts env names no TS_BASE_TAG" >&2; exit 1; }
git -C "$tree" tag "$base_tag"
printf 'virtual audit\n\n@r@\n@@\n- fake_never_called_anywhere();\n' >"$tmp/none.cocci"
# table FILE ENTRY...: a forms table module whose entries are ENTRY, each
# "id:file:function" (set-aside: none), checked by the real validate().
table() {
	local file=$1 e
	shift
	{
		printf 'import sys\nsys.path.insert(0, %s)\nimport forms_table as real\nENTRIES = [\n' "'$repo/scripts'"
		for e in "$@"; do
			printf "    dict(real.ENTRIES[0], id='%s', name='%s', functions=['%s']),\n" \
				"${e%%:*}" "${e%%:*}" "${e#*:}"
		done
		printf ']\nSET_ASIDE = []\n\n\ndef validate():\n    return real.validate(ENTRIES, SET_ASIDE)\n'
	} >"$file"
}
fixture() { # TABLE ARGS...: audit.sh on the fixture tree with TABLE
	local t=$1
	shift
	run env TS_SRC="$tree" TS_AUDIT_DIRS=fs TS_AUDIT_COCCI="$tmp/none.cocci" \
		TS_AUDIT_FORMS="$t" "$audit_sh" "$@"
}
table "$tmp/t-empty.py"
fixture "$tmp/t-empty.py" --strict
check "forms: an unlisted timeval timeout fails --strict, named" 1 \
	'^unlisted timeout form: fs/fake\.c fake_set_timeout\(\): tv\.tv_usec$' \
	'^unlisted timeout form: fs/fake\.c sys_fake_poll\(\): parameter int timeout_msecs$' \
	'^error: audit: other timeout forms not as .*t-empty\.py says \(listed above\)$'
rc=0
! grep -q 'fake_get_timeout' <<<"$out" || { rc=1; out="an output was reported: $(grep fake_get_timeout <<<"$out")"; }
check "forms: code that writes tv_usec for user space is not a finding" 0
fixture "$tmp/t-empty.py"
check "forms: without --strict, an unlisted form is named and the audit passes" 0 \
	'^unlisted timeout form: fs/fake\.c fake_set_timeout\(\)'
table "$tmp/t-all.py" fake:fs/fake.c:fake_set_timeout fake_poll:fs/fake.c:sys_fake_poll
fixture "$tmp/t-all.py" --strict
check "forms: every form listed and every entry found passes --strict" 0 \
	'^==> \[ *[0-9]+ s\] forms: 2 of 2 interfaces found, 0 findings set aside, 0 unlisted, 0 stale'
# forms.json on one line, its keys sorted (Python's json.tool): each
# interface found, from its "found" to its "id", as fixed text.
rc=0
out=$(python3 -m json.tool --compact --sort-keys "$forms_json") || rc=$?
for want in \
	'"found":[{"file":"fs/fake.c","function":"fake_set_timeout","line":7,"reads":["tv.tv_usec"]}],"functions":["fs/fake.c:fake_set_timeout"],"id":"fake",' \
	'"found":[{"file":"fs/fake.c","function":"sys_fake_poll","line":22,"reads":["parameter int timeout_msecs"]}],"functions":["fs/fake.c:sys_fake_poll"],"id":"fake_poll",'; do
	grep -q -F -e "$want" <<<"$out" || { rc=1; out="$forms_json lacks: $want"$'\n'"$out"; }
done
check "forms: the JSON of the forms (--forms-json) lists the interfaces found, with their lines" 0
rc=0
out=$(cat "$audit_md")
# shellcheck disable=SC2016 # a regular expression: the backquotes are Markdown's
check "forms: the table (--out) has the other timeout forms" 0 \
	'^\| fake \(`fake`\) \| .* \| `fs/fake\.c:7` `fake_set_timeout\(\)` \|'
table "$tmp/t-stale.py" fake:fs/fake.c:fake_set_timeout fake_poll:fs/fake.c:sys_fake_poll \
	gone:fs/fake.c:fake_gone_away
fixture "$tmp/t-stale.py" --strict
check "forms: a stale table entry fails --strict, named" 1 \
	'^stale forms_table entry: gone: none of fs/fake\.c:fake_gone_away found$' \
	'^error: audit: other timeout forms not as'
table "$tmp/t-bad.py" fake:fake_set_timeout
fixture "$tmp/t-bad.py" --strict
check "forms: a table that is not valid exits 2, named" 2 \
	"^error: forms table .*t-bad\.py is not valid:" "function 'fake_set_timeout' is not file:function"
run env TS_AUDIT_FORMS="$tmp/none.py" "$audit_sh"
check "audit.sh with a missing forms table exits 2" 2 '^error: forms table .*none\.py not found'

# audit.sh's reading of audit.py's status and answer (--answer FILE): a
# stub that prints nothing writes $STUB_ANSWER to FILE (nothing if it is
# "-") and exits $STUB_RC.
mkdir -p "$tmp/repo/scripts"
touch "$tmp/repo/scripts/forms.cocci" "$tmp/repo/scripts/forms_table.py"
# the project's semantic patch, which audit.sh takes (no TS_AUDIT_COCCI)
printf 'virtual audit\n' >"$tmp/repo/scripts/audit.cocci"
# the kernel that audit.sh names in its messages, as a pattern
ver_re=$(printf '%s' "${base_tag#base-}" | sed 's/\./\\./g')
cat >"$tmp/repo/scripts/audit.py" <<'EOF'
#!/bin/sh
for a in "$@"; do [ "$p" != --answer ] || answer=$a; p=$a; done
[ "$STUB_ANSWER" = - ] || printf '%s' "$STUB_ANSWER" >"$answer"
exit "$STUB_RC"
EOF
chmod +x "$tmp/repo/scripts/audit.py"
stub() { # RC ANSWER ARGS...: audit.sh with the stub answering ANSWER, exiting RC
	local stub_rc=$1 stub_answer=$2
	shift 2
	run env TS_REPO="$tmp/repo" STUB_RC="$stub_rc" STUB_ANSWER="$stub_answer" \
		TS_AUDIT_BASE_EXPECT="a/x.c:f b/y.c:g" "$audit_sh" "$@"
}
both=$'inconsistent a/x.c:f\ninconsistent b/y.c:g\n' # two inconsistent rows
stub 0 "" --strict
check "audit.sh --strict: audit.py 0 gives 0" 0 '^==> audit done'
stub 1 "" --strict
check "audit.sh --strict: audit.py 1 gives 1" 1 '^error: audit: timeout paths not consistent'
stub 2 - --strict
check "audit.sh --strict: audit.py 2 gives 2" 2 '^error: audit failed \(audit\.py exit 2'
stub 3 -
check "audit.sh: audit.py 3 gives 2" 2 '^error: audit failed \(audit\.py exit 3'
stub 1 - --strict
check "audit.sh: audit.py 1 without an answer gives 2, named" 2 \
	'^error: audit\.py exited 1 and wrote no answer'
stub 0 $'inconsistent: a/x.c f(): none\n' --strict
check "audit.sh: an answer line it does not know gives 2, named" 2 \
	"^error: audit\.py's answer: unknown line 'inconsistent: a/x\.c f\(\): none'"
stub 1 "$both" --base
check "audit.sh --base: every expected path inconsistent gives 0" 0 \
	"^==> audit of $ver_re: 2 inconsistent timeout-path rows"
stub 1 $'inconsistent a/x.c:f\n' --base
check "audit.sh --base: an expected path not inconsistent gives 1" 1 \
	'^error: audit of '"$ver_re"' does not name these paths as inconsistent: b/y\.c:g '
stub 0 "" --base
check "audit.sh --base: every path consistent gives 1" 1 \
	'^error: audit of '"$ver_re"' finds every timeout path consistent'
stub 2 - --base
check "audit.sh --base: audit.py 2 gives 2" 2 '^error: audit of '"$ver_re"' failed \(audit\.py exit 2'
stub 1 "$both"$'unlisted a/x.c:f\n' --base
check "audit.sh --base: an unlisted timeout form gives 1" 1 \
	'^error: audit of '"$ver_re"': the other timeout forms are not as .*forms_table\.py says'
stub 1 "$both"$'stale x\n' --base
check "audit.sh --base: a stale forms table entry gives 1" 1 \
	'^error: audit of '"$ver_re"': the other timeout forms are not as'
stub 1 $'stale x\n' --strict
check "audit.sh --strict: forms not as the table says gives 1, named" 1 \
	'^error: audit: other timeout forms not as .*forms_table\.py says \(listed above\)$'
stub 1 $'inconsistent a/x.c:f\nstale x\n' --strict
check "audit.sh --strict: both kinds named" 1 \
	'^error: audit: timeout paths not consistent with the contract, and other timeout forms not as'

echo "1..$n"
[ "$failed" -eq 0 ] || {
	echo "# $failed of $n failed"
	exit 1
}

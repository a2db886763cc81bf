#!/usr/bin/env bash
# usage: scripts/tests/test_audit_pick.sh
# Which semantic patch scripts/audit.sh takes (its header): the project's
# scripts/audit.cocci, whether the audited tree has a
# scripts/coccinelle/api/timespec64_timeout.cocci (7.3's series: the
# narrowed one for upstream) or not, even one with the audit's rules;
# TS_AUDIT_COCCI names another.  audit.py is a stub (TS_REPO)
# that answers "consistent", so each run takes a second: what is tested is
# the choice audit.sh prints, not an audit.
# Prints "ok - ..." or "not ok - ..." per expectation (TAP), and exits 1 if
# any failed.
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
audit_sh=$repo/scripts/audit.sh
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ts-test-audit-pick.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export TS_RESULTS=$tmp/results
n=0
failed=0

# A tree (audit.sh wants a git tree) and a project whose audit.py is a stub.
tree=$tmp/tree
mkdir -p "$tree/fs"
echo 'int x;' >"$tree/fs/x.c"
git -C "$tree" init -q
git -C "$tree" add fs/x.c
mkdir -p "$tmp/repo/scripts"
touch "$tmp/repo/scripts/forms.cocci" "$tmp/repo/scripts/forms_table.py"
printf 'virtual audit\n' >"$tmp/repo/scripts/audit.cocci"
cat >"$tmp/repo/scripts/audit.py" <<'EOF'
#!/bin/sh
for a in "$@"; do [ "$p" != --answer ] || : >"$a"; p=$a; done
exit 0
EOF
chmod +x "$tmp/repo/scripts/audit.py"
tree_cocci=$tree/scripts/coccinelle/api/timespec64_timeout.cocci

# pick WHAT LINE [ENV...]: audit.sh --strict on the tree exits 0 and prints
# LINE (fixed text) as its semantic patch line.
pick() {
	local what=$1 want=$2 rc=0 out
	shift 2
	n=$((n + 1))
	out=$(env TS_REPO="$tmp/repo" TS_SRC="$tree" TS_AUDIT_BASE_EXPECT="a/x.c:f" "$@" \
		"$audit_sh" --strict 2>&1) || rc=$?
	if [ "$rc" -eq 0 ] && grep -qxF -e "==> semantic patch: $want" <<<"$out"; then
		echo "ok - $what"
	else
		echo "not ok - $what (exit $rc; wanted the line: ==> semantic patch: $want)"
		tail -n 10 <<<"$out" | sed 's/^/#   /'
		failed=$((failed + 1))
	fi
}

version=$(spatch --version | awk 'NR==1{print $3}')
project="$tmp/repo/scripts/audit.cocci"
pick "the tree has no semantic patch: the project's" \
	"$project (the project's); spatch $version"
mkdir -p "$(dirname "$tree_cocci")"
printf '@r@\n@@\n- fake_never_called_anywhere();\n' >"$tree_cocci"
pick "the tree's has no audit rules: the project's" \
	"$project (the project's); spatch $version"
printf 'virtual audit\n' >>"$tree_cocci"
pick "the tree's has the audit rules: still the project's" \
	"$project (the project's); spatch $version"
printf 'virtual audit\n' >"$tmp/other.cocci"
pick "TS_AUDIT_COCCI names another: that one" \
	"$tmp/other.cocci (TS_AUDIT_COCCI); spatch $version" TS_AUDIT_COCCI="$tmp/other.cocci"

echo "1..$n"
[ "$failed" -eq 0 ] || {
	echo "# $failed of $n failed"
	exit 1
}

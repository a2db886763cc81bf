#!/usr/bin/env bash
# Tests of scripts/lib.sh's functions and the kconfig check, each a
# negative experiment of something that once said one thing and did
# another.  Needs the patched tree (make tree) for the tree's kunit_config.
# ok only prints, so "A && ok || not_ok" is an if-then-else here.
# shellcheck disable=SC2015
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ts-test-lib.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
nfail=0
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); nfail=$((nfail + 1)); echo "not ok $n - $1"; }
# expect RC DESCRIPTION PATTERN CMD...: CMD exits RC and its stderr holds
# PATTERN (an empty PATTERN: stderr is empty).
expect() {
	local want=$1 what=$2 pat=$3 rc=0
	shift 3
	"$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [ "$rc" -eq "$want" ] && { if [ -z "$pat" ]; then [ ! -s "$tmp/err" ]; else grep -q -e "$pat" "$tmp/err"; fi; }; then
		ok "$what"
	else
		not_ok "$what (exit $rc, wanted $want; stderr: $(head -c 300 "$tmp/err"))"
	fi
}

# (apt_offers: scripts/tests/test_tree_stage.py.)

# series_patches and its parts.
mkdir -p "$tmp/p"
printf '# part: fixes\na.patch # the fix\n\n# part: refactor\nb.patch\nc.patch\n' >"$tmp/p/series"
[ "$(series_patches "$tmp/p/series" | tr '\n' ' ')" = "a.patch b.patch c.patch " ] &&
	ok "series_patches lists every patch, comments dropped" || not_ok "series_patches lists every patch"
[ "$(series_patches "$tmp/p/series" fixes)" = a.patch ] &&
	ok "series_patches FILE fixes lists the fixes part" || not_ok "series_patches FILE fixes"
# series_stamp names a listed patch that does not exist.
touch "$tmp/p/a.patch" "$tmp/p/b.patch"
expect 1 "series_stamp dies naming a missing patch" "patch c.patch is listed" series_stamp "$tmp/p"
touch "$tmp/p/c.patch"
s1=$(series_stamp "$tmp/p")
echo change >"$tmp/p/b.patch"
[ "$s1" != "$(series_stamp "$tmp/p")" ] && ok "series_stamp changes with a patch's content" ||
	not_ok "series_stamp changes with a patch's content"

# series_tree: applies a series once, again after the tree moved, and
# names a patch that does not apply.
r=$tmp/repo
git init -q -b main "$r"
git -C "$r" config user.name test && git -C "$r" config user.email test@localhost
echo one >"$r/f" && git -C "$r" add f && git -C "$r" commit -q -m base && git -C "$r" tag "$TS_BASE_TAG"
echo two >"$r/f" && git -C "$r" commit -q -am "a: Change f" && echo three >"$r/f" && git -C "$r" commit -q -am "b: Change f again"
mkdir -p "$tmp/s" && git -C "$r" format-patch -q -o "$tmp/s" "$TS_BASE_TAG"..HEAD
(cd "$tmp/s" && ls -- *.patch) >"$tmp/s/series"
git -C "$r" reset -q --hard "$TS_BASE_TAG"
series_tree "$tmp/s" "$r" 2>/dev/null
[ "$(git -C "$r" rev-list --count "$TS_BASE_TAG"..HEAD)" = 2 ] && [ "$(cat "$r/f")" = three ] &&
	ok "series_tree applies every patch of a series" || not_ok "series_tree applies every patch"
git -C "$r" checkout -q "$TS_BASE_TAG"
series_tree "$tmp/s" "$r" 2>/dev/null
[ "$(cat "$r/f")" = three ] && ok "series_tree applies again once the tree was checked out elsewhere" ||
	not_ok "series_tree applies again once the tree was checked out elsewhere"
sed -i 's/^+three/+four/; s/^-two/-zwei/' "$tmp/s/0002-"*.patch
expect 1 "series_tree names the patch that does not apply" "patch 2 (0002-b-Change-f-again.patch)" \
	bash -c ". '$TS_REPO/scripts/lib.sh'; series_tree '$tmp/s' '$r'"

# ccache_env, the shell's, sets what tsanity.build.ccache_env (the Python
# stages') sets: one cache, one base directory.
mkdir -p "$tmp/ccache-work"
want=$(TS_WORK=$tmp/ccache-work python3 -c "import sys; sys.path.insert(0, '$TS_REPO/scripts')
from tsanity import build, cli
env = build.ccache_env(cli.context()[2], {'PATH': sys.argv[1]})
print(*(f'{k}={env[k]}' for k in ('PATH', 'CCACHE_DIR', 'CCACHE_BASEDIR', 'CCACHE_NOHASHDIR')))" "$PATH")
have=$(TS_WORK=$tmp/ccache-work bash -euc ". '$TS_REPO/scripts/lib.sh'; ccache_env env" | grep -E '^(PATH|CCACHE_DIR|CCACHE_BASEDIR|CCACHE_NOHASHDIR)=' | sort)
[ -n "$want" ] && [ "$(tr ' ' '\n' <<<"$want" | sort)" = "$have" ] &&
	ok "ccache_env: the shell's and tsanity.build's set the same" ||
	not_ok "ccache_env: the shell's ($have) and tsanity.build's ($want) differ"
expect 1 "src_of refuses an unknown kernel name" "unknown kernel 'baseline'" \
	bash -c ". '$TS_REPO/scripts/lib.sh'; src_of baseline"

# The kconfig check: a symbol that did not stick is named (later fragment wins).
printf 'CONFIG_A=y\n# CONFIG_B is not set\nCONFIG_C=m\n' >"$tmp/.config"
printf 'CONFIG_A=y\nCONFIG_C=y\n' >"$tmp/f1"
printf 'CONFIG_C=m\nCONFIG_B=n\n' >"$tmp/f2"
expect 0 "kconfig_check passes when every symbol stuck" "" \
	python3 "$TS_REPO/scripts/kconfig_check.py" "$TS_SRC" "$tmp/.config" "$tmp/f1" "$tmp/f2"
printf 'CONFIG_D=y\nCONFIG_B=y\n' >"$tmp/f3"
expect 1 "kconfig_check names a symbol that did not stick" "CONFIG_D: the fragments ask for y" \
	python3 "$TS_REPO/scripts/kconfig_check.py" "$TS_SRC" "$tmp/.config" "$tmp/f1" "$tmp/f3"
expect 2 "kconfig_check without the tree's kunit_config exits 2" "cannot import kunit_config" \
	python3 "$TS_REPO/scripts/kconfig_check.py" "$tmp" "$tmp/.config" "$tmp/f1"

# Usage errors are named.
for s in check-patches.sh check-bisect.sh check-warnings.sh; do
	expect 1 "$s with a wrong argument names its usage" "usage\|unknown" \
		"$TS_REPO/scripts/$s" no-such-argument extra-argument
done
expect 1 "check-patches.sh names a SERIES_DIR that is not a directory" "no-such-dir: not a directory" \
	"$TS_REPO/scripts/check-patches.sh" "$tmp/no-such-dir"
# The Python stages' refusals (ts guest, ts kconfig, ts boot, ts kunit):
# scripts/tests/test_guest_stage.py, test_boot_stage.py, test_kunit_stage.py.

# scripts/kunit-qemu/: kunit.py's QEMU gets only the chosen accelerator,
# whatever kunit.py asks for (7.x's asks for KVM first), and every other
# argument as it was given.
mkdir -p "$tmp/qemu"
cat >"$tmp/qemu/qemu-system-x86_64" <<'SH'
#!/bin/sh
printf '%s\n' "$@"
SH
chmod +x "$tmp/qemu/qemu-system-x86_64"
wrap=$TS_REPO/scripts/kunit-qemu
got=$(KUNIT_QEMU_ACCEL=tcg PATH="$wrap:$tmp/qemu:$PATH" qemu-system-x86_64 -nodefaults \
	-append 'a b' -accel kvm -accel hvf -accel tcg -serial stdio -accel tcg | paste -sd' ' -)
[ "$got" = "-nodefaults -append a b -accel tcg -serial stdio" ] &&
	ok "kunit-qemu keeps one -accel tcg of kunit.py's kvm, hvf, tcg" ||
	not_ok "kunit-qemu keeps one -accel tcg of kunit.py's kvm, hvf, tcg (got: $got)"
got=$(KUNIT_QEMU_ACCEL=tcg PATH="$wrap:$tmp/qemu:$PATH" qemu-system-x86_64 -kernel k | paste -sd' ' -)
[ "$got" = "-kernel k -accel tcg" ] &&
	ok "kunit-qemu adds -accel tcg where kunit.py names none (6.x)" ||
	not_ok "kunit-qemu adds -accel tcg where kunit.py names none (6.x) (got: $got)"
expect 2 "kunit-qemu refuses to run without KUNIT_QEMU_ACCEL" "KUNIT_QEMU_ACCEL is not set" \
	env -u KUNIT_QEMU_ACCEL PATH="$wrap:$tmp/qemu:$PATH" qemu-system-x86_64 -accel kvm

echo "1..$n"
[ "$nfail" -eq 0 ] || { echo "error: test_lib.sh: $nfail of $n failed" >&2; exit 1; }

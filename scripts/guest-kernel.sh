#!/usr/bin/env bash
# usage: scripts/guest-kernel.sh {patched|base}
# Build the bzImage of the integration-boot guest: tinyconfig plus
# qemu-config/guest.config (merge_config.sh, then olddefconfig), from the
# patched tree ($TS_SRC, O=$TS_OUT/guest-patched) or the unpatched one
# ($TS_BASE_SRC, O=$TS_OUT/guest-base).  The configuration is regenerated
# only when .config is missing or the fragment changed since it was made;
# every symbol of the fragment is then checked in .config.  make rebuilds
# only what changed.
# Prints the path of the bzImage on stdout.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

usage="usage: scripts/guest-kernel.sh {patched|base}"
[ $# -eq 1 ] || die "$usage"
kernel=$1
case $kernel in
patched) src=$TS_SRC ;;
base) src=$TS_BASE_SRC ;;
*) die "unknown kernel '$kernel' ($usage)" ;;
esac
[ -f "$src/Makefile" ] || die "kernel tree $src not found (run scripts/tree.sh)"
fragment=$TS_REPO/qemu-config/guest.config
[ -r "$fragment" ] || die "$fragment not found"
out=$TS_OUT/guest-$kernel
config=$out/.config
# Stamp of a complete configuration (tinyconfig + merge + olddefconfig): an
# interrupted one is redone.
stamp=$out/.guest-config.stamp

if [ ! -f "$config" ] || [ ! -f "$stamp" ] || [ "$fragment" -nt "$stamp" ]; then
	rm -f "$stamp"
	log "configuring $kernel guest kernel in $out (tinyconfig + $fragment)"
	kmake "$src" "$out" -s tinyconfig || die "make tinyconfig failed in $out"
	(cd "$src" && scripts/kconfig/merge_config.sh -m -O "$out" "$config" "$fragment") \
		>"$out/merge_config.log" 2>&1 ||
		die "merge_config.sh failed: see $out/merge_config.log"
	kmake "$src" "$out" -s olddefconfig || die "make olddefconfig failed in $out"
	touch "$stamp"
fi

# Every symbol the fragment asks for must have the requested value.
bad=0
while IFS= read -r line; do
	case $line in
	'# CONFIG_'*' is not set')
		sym=${line#'# '}
		sym=${sym%' is not set'}
		want=n
		;;
	CONFIG_*=*)
		sym=${line%%=*}
		want=${line#*=}
		;;
	*) continue ;;
	esac
	got=$(sed -n -e "s/^$sym=//p" -e "s/^# $sym is not set\$/n/p" "$config")
	[ -n "$got" ] || got=n
	if [ "$got" != "$want" ]; then
		echo "error: $sym: fragment wants '$want', $config has '$got'" >&2
		bad=1
	fi
done <"$fragment"
[ "$bad" -eq 0 ] || die "$config does not match $fragment (a dependency is missing?)"

log "building $kernel guest bzImage in $out"
start=$(date +%s)
kmake "$src" "$out" -s bzImage >&2 || die "make bzImage failed for the $kernel guest kernel in $out"
log "$kernel guest kernel built in $(($(date +%s) - start)) s"
image=$out/arch/x86/boot/bzImage
[ -f "$image" ] || die "$image missing after the build"
echo "$image"

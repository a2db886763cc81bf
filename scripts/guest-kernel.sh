#!/usr/bin/env bash
# usage: scripts/guest-kernel.sh {base|fixes|patched|stable} [sanitized]
# Build the bzImage of the integration-boot guest from the kernel's tree
# (lib.sh: src_of) in $TS_OUT/guest-<kernel>: tinyconfig plus
# qemu-config/guest.config (lib.sh: kconfig), then make bzImage, which
# rebuilds only what changed.  Records the commit built in
# $TS_OUT/guest-<kernel>/ts-commit.  Prints the path of the bzImage.
# With the variant "sanitized", qemu-config/sanitized.config (KASAN, UBSAN,
# lockdep, debugobjects) is merged last and the build goes to
# $TS_OUT/guest-<kernel>-sanitized instead (make check-sanitized).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

usage="usage: scripts/guest-kernel.sh {base|fixes|patched|stable} [sanitized]"
{ [ $# -ge 1 ] && [ $# -le 2 ]; } || die "$usage"
kernel=$1
src=$(src_of "$kernel")
fragments=("$TS_REPO/qemu-config/guest.config")
case ${2:-} in
'') out=$(ts_path guest "$kernel") ;;
sanitized)
	out=$(ts_path guest "$kernel" sanitized)
	fragments+=("$TS_REPO/qemu-config/sanitized.config")
	;;
*) die "unknown variant '$2' ($usage)" ;;
esac
[ -f "$src/Makefile" ] || die "kernel tree $src not found (run make tree)"
kernel+=${2:+ ($2)}

kconfig "$src" "$out" tinyconfig "${fragments[@]}"
log "building the $kernel guest bzImage in $out"
start=$(date +%s)
kmake "$src" "$out" -s bzImage >&2 || die "make bzImage failed for the $kernel guest kernel in $out"
log "$kernel guest kernel built in $(($(date +%s) - start)) s"
image=$out/arch/x86/boot/bzImage
[ -f "$image" ] || die "$image missing after the build"
git -C "$src" rev-parse HEAD >"$out/ts-commit"
echo "$image"

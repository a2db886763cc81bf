#!/usr/bin/env bash
# usage: scripts/guest-kernel.sh {base|fixes|patched}
# Build the bzImage of the integration-boot guest from the kernel's tree
# (lib.sh: src_of) in $TS_OUT/guest-<kernel>: tinyconfig plus
# qemu-config/guest.config (lib.sh: kconfig), then make bzImage, which
# rebuilds only what changed.  Records the commit built in
# $TS_OUT/guest-<kernel>/ts-commit.  Prints the path of the bzImage.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -eq 1 ] || die "usage: scripts/guest-kernel.sh {base|fixes|patched}"
kernel=$1
src=$(src_of "$kernel")
[ -f "$src/Makefile" ] || die "kernel tree $src not found (run make tree)"
out=$TS_OUT/guest-$kernel

kconfig "$src" "$out" tinyconfig "$TS_REPO/qemu-config/guest.config"
log "building the $kernel guest bzImage in $out"
start=$(date +%s)
kmake "$src" "$out" -s bzImage >&2 || die "make bzImage failed for the $kernel guest kernel in $out"
log "$kernel guest kernel built in $(($(date +%s) - start)) s"
image=$out/arch/x86/boot/bzImage
[ -f "$image" ] || die "$image missing after the build"
git -C "$src" rev-parse HEAD >"$out/ts-commit"
echo "$image"

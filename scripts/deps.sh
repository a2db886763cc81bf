#!/usr/bin/env bash
# usage: scripts/deps.sh
# Install the Debian 12 packages the pipeline needs, if any is missing:
# the kernel's source (linux-source-$TS_KERNEL) and the tools.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

pkgs=("$TS_KERNEL_PACKAGE" qemu-system-x86 qemu-system-data gcc gcc-multilib make
      flex bison bc libelf-dev libssl-dev cpio python3 xz-utils git rsync
      sparse coccinelle python3-ply python3-git
      git-email libmailtools-perl man-db manpages-dev liburing-dev
      clang lld llvm qemu-system-arm python3-sphinx python3-alabaster python3-yaml
      librsvg2-bin)

missing=()
for p in "${pkgs[@]}"; do
	st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null) || st=
	[ "$st" = installed ] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "error: missing Debian packages: ${missing[*]}" >&2
	echo "error: run as root (or: apt-get install ${missing[*]})" >&2
	exit 1
fi
echo "==> installing: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}"

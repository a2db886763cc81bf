#!/usr/bin/env bash
# usage: scripts/deps.sh
# Install the Debian 12 packages the pipeline needs, if any is missing:
# the tools (dpkg-dev: dpkg-source, which extracts the user-space suites'
# source packages; gcc-multilib: the -m32 builds; scripts/suites.sh), then
# the kernel's source, linux-source-$TS_KERNEL, where the machine's own
# suites have it (`scripts/ts kernel-package`, which `scripts/ts tree`
# also runs before each extraction; a kernel they lack is fetched from a
# newer suite by the tree stage, without installing it).
# It reads no TS_* setting of its own: it needs no lib.sh (one Python
# process less in every make).
set -euo pipefail
die() {
	echo "error: $*" >&2
	exit 1
}

pkgs=(qemu-system-x86 qemu-system-data gcc gcc-multilib make
      flex bison bc libelf-dev libssl-dev cpio python3 xz-utils git rsync
      sparse coccinelle python3-ply python3-git ccache shellcheck mypy
      git-email libmailtools-perl man-db manpages-dev liburing-dev
      clang lld llvm clang-19 lld-19 llvm-19 qemu-system-arm python3-sphinx python3-alabaster python3-yaml
      librsvg2-bin dpkg-dev)

[ $# -eq 0 ] || die "usage: scripts/deps.sh"

installed() {
	[ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null)" = installed ]
}
missing=()
for p in "${pkgs[@]}"; do
	installed "$p" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "error: missing Debian packages: ${missing[*]}" >&2
		echo "error: run as root (or: apt-get install ${missing[*]})" >&2
		exit 1
	fi
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q
	echo "==> installing: ${missing[*]}" >&2
	apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
"$(dirname "$0")/ts" kernel-package || die "the kernel's source package (see above)"

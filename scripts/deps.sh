#!/usr/bin/env bash
# usage: scripts/deps.sh [--kernel]
# (--kernel: the kernel's source package alone, as scripts/tree.sh asks
# before each extraction; the tools are make deps' job.)
# Install the Debian 12 packages the pipeline needs, if any is missing:
# the kernel's source (linux-source-$TS_KERNEL) and the tools (dpkg-dev:
# dpkg-source, which extracts the user-space suites' source packages;
# gcc-multilib: the -m32 builds; scripts/suites.sh).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

pkgs=(qemu-system-x86 qemu-system-data gcc gcc-multilib make
      flex bison bc libelf-dev libssl-dev cpio python3 xz-utils git rsync
      sparse coccinelle python3-ply python3-git ccache shellcheck mypy
      git-email libmailtools-perl man-db manpages-dev liburing-dev
      clang lld llvm clang-19 lld-19 llvm-19 qemu-system-arm python3-sphinx python3-alabaster python3-yaml
      librsvg2-bin dpkg-dev)

if [ "${1:-}" = --kernel ]; then
	pkgs=()
elif [ $# -gt 0 ]; then
	die "usage: scripts/deps.sh [--kernel]"
fi

installed() {
	[ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null)" = installed ]
}
missing=()
for p in "${pkgs[@]}"; do
	installed "$p" || missing+=("$p")
done
# The kernel's source: installed from the machine's own suites where they
# have it (6.12 and 6.1 on Debian 12); otherwise scripts/tree.sh fetches
# it from a newer suite without installing it.  TS_TARBALL or
# TS_KERNEL_DEB given by hand, or a package fetched already, need nothing.
kernel=
fetched=$(ts_path debian)/$TS_KERNEL_PACKAGE.json
if [ -z "$TS_TARBALL" ] && [ -z "$TS_KERNEL_DEB" ] && ! installed "$TS_KERNEL_PACKAGE" &&
	[ ! -e "$fetched" ]; then
	kernel=$TS_KERNEL_PACKAGE
fi
[ ${#missing[@]} -eq 0 ] && [ -z "$kernel" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	if [ -n "$kernel" ] && apt_offers "$kernel"; then missing+=("$kernel"); fi
	# A kernel the machine's suites lack is fetched by scripts/tree.sh.
	[ ${#missing[@]} -gt 0 ] || exit 0
	echo "error: missing Debian packages: ${missing[*]}" >&2
	echo "error: run as root (or: apt-get install ${missing[*]})" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
if [ -n "$kernel" ]; then
	if apt_offers "$kernel"; then
		missing+=("$kernel")
	else
		echo "==> $kernel is not in the machine's own suites: scripts/tree.sh fetches it" >&2
	fi
fi
[ ${#missing[@]} -gt 0 ] || exit 0
echo "==> installing: ${missing[*]}" >&2
apt-get install -y -q --no-install-recommends "${missing[@]}"

#!/usr/bin/env bash
# usage: qemu-config/qemu.sh BZIMAGE INITRAMFS SERIAL_LOG
# The one QEMU command line of the integration boot (used by scripts/boot.sh).
# TCG by default; TS_KVM=1 opts in to KVM (scripts/lib.sh: qemu_accel).
# The serial console goes to SERIAL_LOG.  The guest's /init ends the run through isa-debug-exit (port
# 0xf4): QEMU exits 1 when all tests passed, 3 when one failed; 0 means the
# guest rebooted or panicked (-no-reboot, panic=-1) without a verdict.
# TS_APPEND adds kernel parameters (for example
# sysctl.kernel.io_uring_disabled=2).  TS_ICOUNT=1 (scripts/bench.sh) runs
# the guest with -icount shift=0,sleep=off: its clock then advances one
# nanosecond per instruction, so that the guest counts instructions; TCG
# only.
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: qemu-config/qemu.sh BZIMAGE INITRAMFS SERIAL_LOG" >&2; exit 2; }
. "$(dirname "$0")/../scripts/lib.sh"
accel=$(qemu_accel) || exit 2 # not 1 or 3: those are /init's verdicts
icount=()
if [ "${TS_ICOUNT:-0}" = 1 ]; then
	[ "$accel" = tcg ] || { echo "error: TS_ICOUNT=1 needs TCG, not $accel" >&2; exit 2; }
	# One QEMU argument: the comma separates the option's suboptions.
	# shellcheck disable=SC2054
	icount=(-icount shift=0,sleep=off)
fi
exec qemu-system-x86_64 \
	-M pc -accel "$accel" -cpu max -smp 1 -m 512 "${icount[@]}" \
	-bios qboot.rom \
	-display none -monitor none -no-reboot \
	-serial "file:$3" \
	-device isa-debug-exit,iobase=0xf4,iosize=0x01 \
	-kernel "$1" -initrd "$2" \
	-append "console=ttyS0 loglevel=5 panic=-1 tsc=nowatchdog rdinit=/init${TS_APPEND:+ $TS_APPEND}"

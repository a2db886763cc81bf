"""The one QEMU command line of the integration boot, as data: what a
guest is (Guest) and the argument list that boots it (command()).  TCG by
default; TS_KVM=1 opts in to KVM (accel()).

The serial console goes to the guest's serial log.  The guest's /init ends
the run through isa-debug-exit (port 0xf4): QEMU exits 1 when all tests
passed, 3 when one failed; 0 means the guest rebooted or panicked
(-no-reboot, panic=-1) without a verdict.  With icount the guest runs
under -icount shift=0,sleep=off: its clock advances one nanosecond per
instruction, so that the guest counts instructions (make bench, the
sanitized boots); TCG only."""
import dataclasses
import shlex

# The kernel parameters of every boot; a boot adds its own after them.
APPEND = ("console=ttyS0", "loglevel=5", "panic=-1", "tsc=nowatchdog", "rdinit=/init")
# The machine: one CPU, 512 MiB (then -icount, if any), qboot, no display
# or monitor, no reboot.
CPU = ("-cpu", "max", "-smp", "1", "-m", "512")
FIRMWARE = ("-bios", "qboot.rom", "-display", "none", "-monitor", "none", "-no-reboot")
# /init's verdict (qemu-config/init.c writes it to port 0xf4).
EXIT_DEVICE = ("-device", "isa-debug-exit,iobase=0xf4,iosize=0x01")
ICOUNT = ("-icount", "shift=0,sleep=off")


class QemuError(ValueError):
    """A guest QEMU cannot boot as asked: what the "error: " line says."""


@dataclasses.dataclass(frozen=True)
class Guest:
    """One boot: the kernel image, the initramfs, where the serial console
    goes, the accelerator (tcg or kvm), whether the guest counts
    instructions, and the kernel parameters added to APPEND."""
    image: str
    initramfs: str
    serial_log: str
    accel: str = "tcg"
    icount: bool = False
    append: tuple[str, ...] = ()


def accel(kvm: str) -> str:
    """QEMU's -accel for TS_KVM's value KVM: tcg (0) or kvm (1)."""
    if kvm not in ("0", "1"):
        raise QemuError(f"TS_KVM={kvm}: 0 (TCG) or 1 (KVM)")
    return "kvm" if kvm == "1" else "tcg"


def command(g: Guest) -> list[str]:
    """The argument list that boots G (qemu-system-x86_64 first)."""
    if g.accel not in ("tcg", "kvm"):
        raise QemuError(f"unknown accelerator '{g.accel}' (tcg or kvm)")
    if g.icount and g.accel != "tcg":
        raise QemuError(f"counting instructions (-icount) needs TCG, not {g.accel}")
    return ["qemu-system-x86_64", "-M", "pc", "-accel", g.accel, *CPU,
            *(ICOUNT if g.icount else ()), *FIRMWARE,
            "-serial", f"file:{g.serial_log}", *EXIT_DEVICE,
            "-kernel", g.image, "-initrd", g.initramfs,
            "-append", " ".join((*APPEND, *g.append))]


def show(argv: list[str]) -> str:
    """ARGV as one shell command line (--show-command)."""
    return shlex.join(argv)

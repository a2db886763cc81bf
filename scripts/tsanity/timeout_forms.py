"""What qemu-config/timeout_forms prints: one "# form ..." line per input
of a timeout form (scripts/forms.py judges them; tsanity.splats places a
kernel report after one of them)."""
import re

# One answer: "# form <interface> <abi> <class> <input>: <answer>".
FORM = re.compile(r"^# form (?P<iface>\S+) (?P<abi>\S+) (?P<cls>\S+) (?P<input>[^:]+): (?P<answer>.+)$")

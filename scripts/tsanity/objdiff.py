"""usage: scripts/objdiff.py OLD_BUILD NEW_BUILD OBJ...

Compare the object code of two kernel builds function by function:
objdump -d -r of OLD_BUILD/OBJ and NEW_BUILD/OBJ, each function's
instructions with the addresses and the offsets of its own placement
masked (the address column, the absolute target before "<sym+off>", and
the section offset of a relocation), relocations kept.  Identical code means an identical instruction count
on every path through the function.  Writes markdown to stdout: per
object, the functions that are identical, that differ (with the first
differing instruction), and that exist in one build only.  Exit 0 when
it could compare, 1 when objdump fails or an object is missing.
"""
import re
import subprocess
import sys

FUNC = re.compile(r"^[0-9a-f]+ <(?P<name>[^>]+)>:$")
ADDR = re.compile(r"^\s*[0-9a-f]+:\s*")
TARGET = re.compile(r"\b[0-9a-f]+ <")
RELOC = re.compile(r"\b[0-9a-f]+: (R_\w+)")


def functions(path):
    """{name: [normalised lines]} of the object at path."""
    try:
        out = subprocess.run(["objdump", "-d", "-r", "--no-show-raw-insn", "-w", path],
                             capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit(f"error: objdump {path}: {e}")
    funcs: dict[str, list[str]] = {}
    cur = None
    for line in out.splitlines():
        m = FUNC.match(line)
        if m:
            cur = funcs.setdefault(m["name"], [])
            continue
        if cur is None or not line.strip():
            continue
        line = RELOC.sub(r"\1", TARGET.sub("<", ADDR.sub("", line))).strip()
        cur.append(" ".join(line.split()))
    return funcs


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__.strip().splitlines()[0])
    old_dir, new_dir, objs = sys.argv[1], sys.argv[2], sys.argv[3:]
    print(f"# Object code, {old_dir} vs {new_dir}\n")
    print("| object | identical | differ | only old | only new |")
    print("|---|---|---|---|---|")
    details = []
    for o in objs:
        a, b = functions(f"{old_dir}/{o}"), functions(f"{new_dir}/{o}")
        same = sorted(f for f in set(a) & set(b) if a[f] == b[f])
        diff = sorted(f for f in set(a) & set(b) if a[f] != b[f])
        only_a, only_b = sorted(set(a) - set(b)), sorted(set(b) - set(a))
        print(f"| {o} | {len(same)} | {', '.join(diff) or '-'} | {', '.join(only_a) or '-'} "
              f"| {', '.join(only_b) or '-'} |")
        for f in diff:
            first = next((i for i, (x, y) in enumerate(zip(a[f], b[f])) if x != y),
                         min(len(a[f]), len(b[f])))
            details.append(f"- {o} {f}(): {len(a[f])} -> {len(b[f])} lines; first difference "
                           f"at line {first + 1}: `{a[f][first] if first < len(a[f]) else '(end)'}`"
                           f" -> `{b[f][first] if first < len(b[f]) else '(end)'}`")
    if details:
        print("\n## Functions whose code differs\n")
        print("\n".join(details))
    return 0

"""Read the JSON that the tree's kunit.py writes (run --json, parse --json).

Imported by the host scripts that judge results; not run on its own.
"""
import json


def cases(group, path=()):
    """Yield (path, status) for every leaf case under a kunit.py JSON group.

    path is the tuple of group names below the root, ending with the case's
    own name; status is kunit.py's "PASS", "SKIP", "FAIL" or "ERROR".
    """
    for case in group.get("test_cases", []):
        yield path + (case["name"],), case["status"]
    for sub in group.get("sub_groups", []):
        yield from cases(sub, path + (sub["name"],))


def load(path):
    """All leaf cases of the kunit.py JSON file at path, as cases() yields them."""
    with open(path) as f:
        return list(cases(json.load(f)))

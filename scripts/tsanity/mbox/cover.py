"""The cover letters: the values of their templates' placeholders
(docs/mbox/*.in), a template filled in, and its paragraphs refilled."""
import re
import textwrap
from typing import Any, Optional

from .figures import testing_text
from .tools import die


def placeholders(base_text, version, figs, mboxes, below=()):
    """The placeholders of every template and their values: the base, the
    order of the MBOXES (their file names) and their dependencies (BELOW:
    the subjects of the mainline commits the patches need that the base
    predates), and the testing figures FIGS."""
    order = "\n".join(f"  {n}" for n in mboxes)
    deps = ("The submission is {n} mboxes, meant to be applied in this order:\n{order}\n\n"
            f"Each fixes mbox applies to {version} on its own and needs nothing from the "
            "others. The refactor applies on top of all the fixes, because it converts "
            "the sites they fix. The man-page patches document the user-visible changes "
            "of the fixes and should wait for them.").format(n=len(mboxes), order=order)
    if below:
        deps += ("\n\nThe base predates these mainline commits, which the patches need "
                 "below them; apply them first:\n" + "\n".join(f"  {b}" for b in below))
    return {"@BASE@": base_text, "@DEPS@": deps, "@TESTING@": testing_text(figs, version),
            "@MBOXES@": order}


def fill(template_path, values):
    """The subject and the body of the cover letter TEMPLATE_PATH with
    VALUES filled in; dies on a placeholder left."""
    try:
        with open(template_path) as fh:
            text = fh.read()
    except OSError as e:
        die(f"cover letter template: {e}")
    subject, body = text.split("\n\n", 1)
    subject = subject.removeprefix("Subject: ").strip()
    for k, v in values.items():
        body = body.replace(k, v)
    left = re.findall(r"@[A-Z_]+@", body)
    if left:
        die(f"{template_path}: unfilled placeholders {', '.join(sorted(set(left)))}")
    return subject, rewrap(body.strip()) + "\n"


# A list item's lead: "- " or "1. ", indented or not.
ITEM = re.compile(r"^( *(?:-|\d+\.) +)")


def rewrap(text, width=72):
    """Refill the paragraphs (and list items) that have a line longer than
    75 columns, such as those the placeholders filled in."""
    out = []
    for para in text.split("\n\n"):
        lines = para.split("\n")
        if all(len(l) <= 75 for l in lines):
            out.append(para)
            continue
        # [lead, [line]] per paragraph or list item
        blocks: list[list[Any]] = []
        cur: Optional[list[Any]] = None
        for l in lines:
            m = ITEM.match(l)
            if m or cur is None or l.startswith("  ") and not cur[0]:
                cur = [m.group(1) if m else "", [l[m.end():] if m else l.strip()]]
                blocks.append(cur)
            else:
                cur[1].append(l.strip())
        text_lines = []
        for lead, words in blocks:
            if not lead and len(words) == 1 and words[0].startswith(" "):
                text_lines.append(words[0])
                continue
            text_lines += textwrap.wrap(" ".join(words), width, initial_indent=lead,
                                        subsequent_indent=" " * len(lead),
                                        break_on_hyphens=False, break_long_words=False)
        out.append("\n".join(text_lines))
    return "\n\n".join(out)

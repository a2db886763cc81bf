"""The mboxes' files in make mbox's results directory, each by its name in
the layout (tsanity.layout.RESULT_FILES): an mbox is known by its place
in the order of the submission and its name (part and tree, or project);
its file, the directory of its mails and each mail follow from them."""
import dataclasses
import os

from ..layout import result_file


@dataclasses.dataclass(frozen=True)
class Mbox:
    out: str      # the directory of the submission
    index: int    # its place in the order the mboxes are applied, from 1
    name: str     # "<part>-<tree>" of a kernel mbox, the project of a man-page one

    @property
    def path(self):
        """The mbox."""
        return result_file(self.out, "mbox", index=self.index, name=self.name)

    @property
    def file(self):
        """The mbox's file name, as the cover letters and summary.md name it."""
        return os.path.basename(self.path)

    @property
    def stem(self):
        """The file name less its extension: the name of the mbox in its
        cover letter's Message-ID and in summary.md's recipients."""
        return os.path.splitext(self.file)[0]

    @property
    def mails(self):
        """The directory of its mails, one a file (git send-email's input)."""
        return result_file(self.out, "mbox-patches", index=self.index, name=self.name)

    def mail(self, number):
        """Its NUMBERth mail in that directory, from 1."""
        return result_file(self.out, "mbox-patch", index=self.index, name=self.name,
                           number=number)

    def moved(self, out):
        """The same mbox in the directory OUT."""
        return dataclasses.replace(self, out=out)

"""The host tooling's package: the configuration (config), the kernel a
run works on (kernel), where everything it builds and writes lives
(layout), the series file (series), and the command line that the
Makefile and the shell scripts call (cli, run as scripts/ts); and the
steps of the larger scripts, each a subpackage: the audit (audit, run by
scripts/audit.py), the table of the other timeout forms (forms, given by
scripts/forms_table.py) and the submission (mbox, run by
scripts/mbox.py)."""

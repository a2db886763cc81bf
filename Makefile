# The flow, left to right:
#
#   deps -> tree (extract 6.12, git am patches/series) -> kunit
#        -> guest (base and patched kernels, initramfs) -> boot -> report
#   tree -> audit (spatch: how every syscall timeout is checked; docs/audit.md)
#
# `make` is the main job and `make test` what CI runs (.ci/run): both run the
# whole flow.  `make check` (review checks, and `make head`: the series
# without its tail against 6.12) and `make bench` (cost) are for reviewers;
# CI runs `make check` too.  Build products live outside the repository, in $TS_WORK
# (default ~/.cache/timespec-sanity; see scripts/lib.sh).

SHELL := /bin/bash
S := scripts
RESULTS = $$(. $(S)/lib.sh && echo "$$TS_RESULTS")

.PHONY: all test deps tree kunit guest initramfs initramfs-bench boot report \
	check kunit-sanitizers head bench cover-letter audit help clean-work

all: kunit report

test: all

deps:
	@$(S)/deps.sh

tree: deps
	@$(S)/tree.sh

kunit: tree
	@$(S)/kunit.sh plain

guest: tree
	@$(S)/guest-kernel.sh base
	@$(S)/guest-kernel.sh patched

initramfs: tree
	@$(S)/initramfs.sh tests

initramfs-bench: tree
	@$(S)/initramfs.sh bench

# Both kernels boot even if the first fails; report.py judges and compares.
boot: guest initramfs
	@rc=0; $(S)/boot.sh base || rc=1; $(S)/boot.sh patched || rc=1; \
	$(S)/report.py "$(RESULTS)/tests" || rc=1; exit $$rc

report: boot

check: tree kunit-sanitizers head
	@$(S)/check.sh

kunit-sanitizers: tree
	@$(S)/kunit.sh sanitizers

# The patches above "# tail:" in patches/series, booted against 6.12: no
# difference allowed.
head: tree
	@$(S)/head.sh

bench: guest initramfs-bench
	@$(S)/bench.sh

# patches/0000-cover-letter.patch, with the figures of the runs above.
cover-letter: kunit report bench
	@$(S)/cover-letter.py

audit: tree
	@$(S)/audit.sh --strict

help:
	@sed -n '1,/^$$/p' Makefile

# Removes every build product outside the repository (the trees, the O=
# directories and the results): the next run starts from scratch.
clean-work:
	@. $(S)/lib.sh && rm -rf "$$TS_WORK"

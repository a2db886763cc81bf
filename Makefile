# The flow, left to right:
#
#   deps -> tree (extract 6.12, git am patches/series) -> kunit
#        -> guest (base and patched kernels, initramfs) -> boot -> report
#   tree -> audit (spatch: how every syscall timeout is checked; docs/audit.md)
#   tree -> kunit-arch (i386, arm64) -> check
#   check + kunit-sanitizers, every prefix in three more configurations
#        -> check-full (not in CI: it does not fit in CI's hour)
#   boot -> fixes (the fixes part alone against 6.12, the refactor against
#           6.12 + fixes) -> check
#   kunit, report -> mbox (one mbox per destination tree, with its cover
#           letter, checked with git am, checkpatch and send-email --dry-run)
#
# `make` is the main job and `make test` what CI runs (.ci/run): both run the
# whole flow.  CI then runs `make audit`, `make check` (review checks and
# `make fixes`) and `make mbox` with a stand-in author.  `make bench` (cost)
# is for reviewers; `make mbox TS_AUTHOR="Name <email>"` for the person who
# sends the series.  Build products live outside the repository, in $TS_WORK
# (default ~/.cache/timespec-sanity; see scripts/lib.sh).

SHELL := /bin/bash
S := scripts
RESULTS = $$(. $(S)/lib.sh && echo "$$TS_RESULTS")

.PHONY: all test deps tree kunit guest initramfs initramfs-bench boot report \
	check check-full kunit-sanitizers kunit-arch fixes bench mbox audit help clean-work

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

check: tree kunit-arch fixes
	@$(S)/check.sh

# What make check does, and what does not fit in CI's hour: every prefix
# also built with FUTEX=n, POSIX_TIMERS=n and TIMERFD=n, and the KUnit suite
# under KASAN and UBSAN.
check-full: tree kunit-sanitizers kunit-arch fixes
	@TS_CHECK_VARIANTS="integration futex-off posix-timers-off timerfd-off" $(S)/check.sh

kunit-sanitizers: tree
	@$(S)/kunit.sh sanitizers

# The suite where long is 32 bits (i386), and on a second architecture
# (arm64, built with LLVM=1, run on qemu-system-aarch64).
kunit-arch: tree
	@$(S)/kunit.sh i386
	@$(S)/kunit.sh arm64

# The fixes part of patches/series alone against 6.12 (exactly the intended
# differences), and the refactor against 6.12 + fixes (none).
fixes: boot
	@$(S)/fixes.sh

bench: guest initramfs-bench
	@$(S)/bench.sh

# One mbox per destination tree under results/mbox, each with its cover
# letter; the author from TS_AUTHOR="Name <email>" or git config.  Nothing
# is sent.
mbox: kunit report
	@$(S)/mbox.py

# The patched tree: every timeout path consistent; then 6.12 with the same
# rules: every path the fixes fix named as inconsistent.
audit: tree
	@$(S)/audit.sh --strict
	@$(S)/audit.sh --base

help:
	@sed -n '1,/^$$/p' Makefile

# Removes every build product outside the repository (the trees, the O=
# directories and the results): the next run starts from scratch.
clean-work:
	@. $(S)/lib.sh && rm -rf "$$TS_WORK"

# The flow.  Each stage is a target; `make help` lists them, one line each.
#
#   deps -> base -+-> check-patches
#                 '-> tree -+-> kunit ---------------------------------+-> test
#                           +-> guest + initramfs -> boot -> report ---+
#                           |                        report -> fixes --+-> all (make)
#                           +-> audit
#                           +-> check-bisect, check-warnings, htmldocs, check-scripts,
#                               kunit-i386 (+ check-patches, fixes, subsystem-tests) -> check;
#                               kunit-arm64 -> check-full
#                           +-> guest + initramfs -> random (a fresh seed; in check-full)
#                           +-> initramfs -> check-sanitized (in check-full)
#                           +-> kunit + report -> mbox
#   initramfs (the mainline selftests) -> stable (6.12, 6.1: base and backports)
#   deps -> suites (user space: liburing's and libaio's tests, kernel-independent)
#           suites + guest (+ the fixes guest) -> subsystem-tests (in check, on 7.3)
#
# `make` (all) is the main job: KUnit, both boots judged, and the fixes
# part proven alone.  `make test` is what CI runs first: KUnit and the
# integration boot, judged (its random inputs from the fixed seed
# TS_SEED).  CI (.ci/run) then runs `make audit`, `make check` (on 7.3
# with the subsystems' suites), `make bench` in short, `make stable` (6.12
# and 6.1 with their backports) and `make mbox` with a stand-in author.
# `make check-full` adds what does not fit in CI's time: KUnit on arm64,
# `make random` (the boot again, base and patched, with a fresh seed),
# every prefix in every configuration, and KUnit and the integration boot
# under KASAN, UBSAN, lockdep and debugobjects (check-sanitized: two more
# cold kernel builds of 9 min).
# Every build product lives in $TS_WORK
# (default ~/.cache/timespec-sanity); scripts/lib.sh declares every TS_*
# variable.

SHELL := /bin/bash
S := scripts
TS := $(S)/ts
# The directories of the integration boots, one per kernel inside
# (scripts/tsanity/layout.py says where); a recipe sets $$d first.
TESTS = d=$$($(TS) path boot-results tests)
TESTS_SANITIZED = d=$$($(TS) path boot-results tests sanitized)
ALL_VARIANTS := integration futex-off posix-timers-off timerfd-off

.PHONY: all test deps base tree kunit kunit-i386 kunit-arm64 kunit-sanitizers guest \
	initramfs boot report fixes audit newapi check check-patches check-bisect \
	check-warnings htmldocs check-scripts check-sanitized check-full bench random mbox \
	suites subsystem-tests stable help clean-work

all: kunit report fixes ## the main job: KUnit, base and patched judged, the fixes alone

test: kunit report ## what CI runs first: KUnit (x86_64) and the integration boot, judged

deps: ## install the missing Debian packages (root; names them otherwise)
	@$(S)/deps.sh

base: deps ## extract Debian's linux-source-$TS_KERNEL (default 7.3) into $TS_WORK: the base tree alone
	@$(TS) tree base

tree: base ## git am the series: the fixes and patched trees beside base
	@$(TS) tree

kunit: tree ## KUnit suite on x86_64 (kunit.py): every row the suite generates passes
	@$(TS) kunit x86_64

kunit-i386: tree ## KUnit suite on i386, where long is 32 bits
	@$(TS) kunit i386

kunit-arm64: tree ## KUnit suite on arm64, built with clang (LLVM=1, or LLVM=-19 for 7.3)
	@$(TS) kunit arm64

kunit-sanitizers: tree ## KUnit suite under KASAN and UBSAN
	@$(TS) kunit sanitizers

guest: tree ## the base and patched guest kernels (tinyconfig + qemu-config/guest.config)
	@$(TS) guest base patched >/dev/null

initramfs: tree ## the guest initramfs: /init and the selftests of the patched tree
	@$(TS) initramfs tests >/dev/null

# Both kernels boot even if the first fails.
boot: guest initramfs ## boot base and patched under QEMU: serial logs and verdicts
	@rc=0; $(TS) boot base || rc=1; $(TS) boot patched || rc=1; exit $$rc

report: boot ## judge base against patched (report-base-patched.md), and map the other timeout forms
	@$(TESTS) && $(S)/report.py "$$d" base patched && $(S)/forms.py "$$d" base patched

fixes: report ## base + the fixes part: exactly the intended differences from base, none from patched
	@$(TS) guest fixes >/dev/null
	@$(TS) boot fixes
	@$(TESTS) && $(S)/report.py "$$d" base fixes
	@$(TESTS) && $(S)/forms.py "$$d" base fixes
	@$(TESTS) && $(S)/report.py --intended /dev/null "$$d" fixes patched
	@$(TESTS) && $(S)/forms.py --intended /dev/null "$$d" fixes patched

audit: tree ## spatch: every timeout path of patched consistent, and the base's paths that the fixes fix found
	@$(S)/audit.sh --strict
	@$(S)/audit.sh --base

newapi: ## every syscall, io_uring code and flag TS_KERNEL adds over the kernel its row names classified in its new-interfaces (reads both base trees)
	@$(TS) newapi --check

check-patches: base ## checkpatch --strict on every patch, waivers in patches/checkpatch.waivers
	@$(S)/check-patches.sh

check-bisect: tree ## every prefix of the series builds without a warning (TS_CHECK_VARIANTS)
	@$(S)/check-bisect.sh

check-warnings: tree ## no sparse, W=1 or kernel-doc warning that the base tree lacks
	@$(S)/check-warnings.sh

htmldocs: tree ## make htmldocs of the series' Documentation directories on base and patched: no new warning
	@$(S)/htmldocs.sh

check-scripts: tree ## the host scripts' own tests (scripts/tests)
	@$(S)/tests/run.sh

# Both kernels boot and both are judged even if one fails.
check-sanitized: tree initramfs ## the integration suite on KASAN/UBSAN/lockdep/debugobjects guests: patched reports nothing, base's reports listed
	@$(TS) guest --sanitized base patched >/dev/null
	@rc=0; $(TS) boot --list-reports base tests sanitized || rc=1; \
	$(TS) boot patched tests sanitized || rc=1; \
	$(TESTS_SANITIZED) && $(S)/splats.py report "$$d" base patched || rc=1; \
	$(TESTS_SANITIZED) && $(S)/report.py "$$d" base patched || rc=1; exit $$rc

# The subsystems' suites are judged by expectations written for one
# kernel (its row's suites, scripts/tsanity/kernels.py): make check runs
# them on a kernel that has them only (on another, make subsystem-tests
# fails and says so).
# Read only when make check is asked for (one Python process less in
# every other make).
ifneq ($(filter check check-full,$(MAKECMDGOALS)),)
ROW_SUITES := $(shell $(TS) row suites || echo '?failed')
$(if $(filter ?failed,$(ROW_SUITES)),$(error scripts/ts row suites failed: the kernel's row cannot be read))
CHECK_SUITES := $(if $(ROW_SUITES),subsystem-tests)
endif

check: check-scripts check-patches check-bisect check-warnings htmldocs kunit-i386 fixes $(CHECK_SUITES) ## the review checks that fit CI's time (the subsystems' suites too, where the kernel's row has them)

check-full: check stable kunit-arm64 random kunit-sanitizers check-sanitized ## make check, the stable kernels, KUnit on arm64, a fresh seed, KUnit and the integration boot under sanitizers, every prefix in every configuration, every prefix of each stable series (audit and bench apart)
	@$(S)/check-bisect.sh $(ALL_VARIANTS)
	@for v in $$($(TS) stable); do \
		TS_KERNEL=$$v $(TS) tree base >/dev/null && \
		TS_KERNEL=$$v TS_PATCHES=$(CURDIR)/patches/stable/$$v $(S)/check-bisect.sh || exit 1; done

random: guest initramfs ## the integration boot with a fresh seed of random inputs (TS_SEED replays one), judged
	@$(TS) random

bench: guest ## cost in instructions (QEMU -icount) on base, fixes and patched; objdump and bloat-o-meter
	@$(TS) guest fixes >/dev/null
	@$(TS) initramfs bench >/dev/null
	@$(S)/bench.sh

mbox: kunit report ## one mbox per destination tree, checked, never sent (TS_AUTHOR)
	@$(S)/mbox.py

suites: deps ## liburing's and libaio's own tests from Debian's sources (sid), static, 64-bit and -m32, staged for a guest initramfs (qemu-config/suites/)
	@$(S)/suites.sh >/dev/null

subsystem-tests: suites guest ## liburing's and libaio's own tests (and the series' liburing and libaio tests) booted on base, fixes and patched, 3 runs each: one verdict but the listed ones (the kernel's row's expectations, qemu-config/suites/intended)
	@$(TS) guest fixes >/dev/null
	@$(S)/subsystem-tests.sh

stable: initramfs ## the stable kernels (patches/stable/X.Y/, Debian's 6.12 and 6.1): backports applied and checkpatch'ed, base and base + backports built and booted with mainline's selftests and liburing's tests of the backports (built from sid's liburing, scripts/suites.sh), judged by mainline's rules and each kernel's expected failures
	@$(S)/stable.sh

help: ## this list
	@sed -n 's/^\([a-z0-9-]*\):.*## \(.*\)/\1\t\2/p' Makefile | column -t -s "$$(printf '\t')"

clean-work: ## remove $TS_WORK: the next run starts from scratch
	@. $(S)/lib.sh && rm -rf "$$TS_WORK"

# Builds the guest initramfs; run by `scripts/ts initramfs` (tsanity.initramfs),
# which passes
#   make -f qemu-config/initramfs.mk B=<build dir> TREE=<kernel tree>
#        HDR=<the tree's exported uapi headers> TESTS="<names>"
# The selftests are built by their own Makefiles (tools/testing/selftests
# lib.mk), static, against the tree's uapi headers (KHDR_INCLUDES): native
# into B/st64 and -m32 into B/st32.  A program NAME_32 is the -m32 build of
# NAME.  Each make below recompiles only what changed.
B ?= $(error B= not set)
TREE ?= $(error TREE= not set)
HDR ?= $(error HDR= not set)
TESTS ?=
# Files the archive holds besides B's (the staged suites: make subsystem-tests).
EXTRA ?=
HERE := $(dir $(lastword $(MAKEFILE_LIST)))
ST := $(TREE)/tools/testing/selftests
HOSTCC ?= cc

# $(call selftest,DIR,OUT,FLAGS): make in selftests/DIR, output in B/OUT.
selftest = mkdir -p $(B)/$(2) && $(MAKE) -s -C $(ST)/$(1) OUTPUT=$(B)/$(2) KHDR_INCLUDES="-isystem $(HDR)" \
	USERCFLAGS="$(3)" USERLDFLAGS="$(3) -static"

all: $(B)/initramfs.cpio

$(B)/init: $(HERE)init.c $(HERE)initramfs.mk
	$(CC) -static -O2 -Wall -Wextra -o $@ $<

# bench uses the io_uring, aio, PPS and vsock uapi as the tree exports it;
# bench_32 is its -m32 build (both ABIs: time64 and time32 syscalls).
$(B)/bench: $(HERE)bench.c $(ST)/kselftest.h
	$(CC) -static -O2 -Wall -Wextra -I$(ST) -isystem $(HDR) -o $@ $<

$(B)/bench_32: $(HERE)bench.c $(ST)/kselftest.h
	$(CC) -m32 -static -O2 -Wall -Wextra -I$(ST) -isystem $(HDR) -o $@ $<

# timeout_classes, the project's check of every entry point against the
# contract (never mailed): a kselftest_harness test, built as the timers
# selftests are, with the tree's harness and uapi headers.
TC_FLAGS = -static -O3 -Wall -I$(ST) -isystem $(HDR)
TC_LIBS = -lrt -lpthread -lm

$(B)/st64/timeout_classes: $(HERE)timeout_classes.c $(ST)/kselftest_harness.h
	mkdir -p $(@D) && $(CC) $(TC_FLAGS) -o $@ $< $(TC_LIBS)

$(B)/st32/timeout_classes: $(HERE)timeout_classes.c $(ST)/kselftest_harness.h
	mkdir -p $(@D) && $(CC) -m32 $(TC_FLAGS) -o $@ $< $(TC_LIBS)

# The series' selftests, each in the directory of the subsystem that owns
# its syscall, built by that directory's Makefile.
DIR_setitimer_timeval := timers
DIR_select_poll_timeout := filesystems
DIR_epoll_timeout_test := filesystems/epoll
DIR_so_rcvtimeo := net
DIR_test_bcm_timer := net/can
DIR_pps_fetch_timeout := drivers/pps
SELFTESTS := setitimer_timeval select_poll_timeout epoll_timeout_test so_rcvtimeo \
	test_bcm_timer pps_fetch_timeout
selftest_dir = $(or $(DIR_$(1)),$(error qemu-config/initramfs.mk: no selftests directory for $(1)))

$(addprefix $(B)/st64/,$(SELFTESTS)): $(B)/st64/%: FORCE
	+$(call selftest,$(call selftest_dir,$*),st64,) $@

$(addprefix $(B)/st32/,$(SELFTESTS)): $(B)/st32/%: FORCE
	+$(call selftest,$(call selftest_dir,$*),st32,-m32) $@

# timeout_forms uses the uapi of the PPS, CAN BCM, vsock and io_uring
# interfaces as the tree exports them (6.12's io_uring min_wait_usec is
# newer than Debian's linux-libc-dev).
$(B)/st64/timeout_forms: $(HERE)timeout_forms.c
	mkdir -p $(@D) && $(CC) -static -O2 -Wall -Wextra -isystem $(HDR) -o $@ $<

$(B)/st32/timeout_forms: $(HERE)timeout_forms.c
	mkdir -p $(@D) && $(CC) -m32 -static -O2 -Wall -Wextra -isystem $(HDR) -o $@ $<

$(B)/st64/futex_%: FORCE
	+$(call selftest,futex/functional,st64,) $@

# cp -p: a program that did not change keeps its time, and the archive too.
$(B)/%_32: $(B)/st32/%
	cp -p $< $@

$(B)/%: $(B)/st64/%
	cp -p $< $@

$(B)/gen_init_cpio: $(TREE)/usr/gen_init_cpio.c
	$(HOSTCC) -O2 -o $@ $<

# Fixed mtimes (-t 0) and uid/gid 0 from the list: the archive depends on
# the content of its files only.
$(B)/initramfs.cpio: $(B)/initramfs.list $(B)/gen_init_cpio $(B)/init $(B)/tests $(addprefix $(B)/,$(TESTS)) $(EXTRA)
	$(B)/gen_init_cpio -t 0 $(B)/initramfs.list > $@.tmp
	mv $@.tmp $@

.PHONY: all FORCE
# The builds in st64/ and st32/ are intermediate files of the pattern
# rules above, which make deletes after copying them unless the rule's own
# target pattern is listed here: deleted, they were built again every run.
.PRECIOUS: $(B)/st64/% $(B)/st32/% $(B)/st64/futex_%
.DELETE_ON_ERROR:

# Builds the guest initramfs; run by scripts/initramfs.sh, which passes
#   make -f qemu-config/initramfs.mk B=<build dir> TREE=<kernel tree>
#        TC_SRC=<timeout_classes.c> TESTS="<names>"
# Everything is static and compiled only when its sources changed.
B ?= $(error B= not set)
TREE ?= $(error TREE= not set)
TC_SRC ?= $(error TC_SRC= not set)
TESTS ?=
HERE := $(dir $(lastword $(MAKEFILE_LIST)))
ST := $(TREE)/tools/testing/selftests
CC ?= gcc
HOSTCC ?= cc

# -D_GNU_SOURCE= as the selftests' lib.mk has it (the futex tests need the
# prototype of basename()).
CFLAGS := -static -O2 -Wall -pthread -D_GNU_SOURCE= -I$(ST)
LDLIBS := -lpthread -lrt
KSFT := $(ST)/kselftest.h $(HERE)initramfs.mk
FUTEX_HDRS := $(wildcard $(ST)/futex/include/*.h)

all: $(B)/initramfs.cpio

$(B)/init: $(HERE)init.c $(HERE)initramfs.mk
	$(CC) -static -O2 -Wall -Wextra -o $@ $<

# tc-src names the timeout_classes.c in use; scripts/initramfs.sh rewrites it
# only when that changes, so that switching sources rebuilds.
$(B)/timeout_classes: $(TC_SRC) $(B)/tc-src $(KSFT)
	$(CC) $(CFLAGS) -o $@ $< $(LDLIBS)

$(B)/timeout_classes_32: $(TC_SRC) $(B)/tc-src $(KSFT)
	$(CC) -m32 $(CFLAGS) -o $@ $< $(LDLIBS)

$(B)/bench: $(HERE)bench.c $(KSFT)
	$(CC) $(CFLAGS) -o $@ $< $(LDLIBS)

$(B)/futex_%: $(ST)/futex/functional/futex_%.c $(FUTEX_HDRS) $(KSFT)
	$(CC) $(CFLAGS) -I$(ST)/futex/include -o $@ $< $(LDLIBS)

$(B)/%: $(ST)/timers/%.c $(KSFT)
	$(CC) $(CFLAGS) -o $@ $< $(LDLIBS) -lm

$(B)/gen_init_cpio: $(TREE)/usr/gen_init_cpio.c
	$(HOSTCC) -O2 -o $@ $<

# Fixed mtimes (-t 0) and uid/gid 0 from the list: the archive depends on
# the content of its files only.
$(B)/initramfs.cpio: $(B)/initramfs.list $(B)/gen_init_cpio $(B)/init $(B)/tests $(addprefix $(B)/,$(TESTS))
	$(B)/gen_init_cpio -t 0 $(B)/initramfs.list > $@.tmp
	mv $@.tmp $@

.PHONY: all
.DELETE_ON_ERROR:

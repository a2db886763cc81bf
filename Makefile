# The flow, left to right:
#
#   deps -> tree (extract 6.12, git am patches/series) -> kunit -> boot -> report
#
# `make` is the main job; `make test` is what CI runs (.ci/run).
# Build products live outside the repository, in $(TS_WORK)
# (default ~/.cache/timespec-sanity; see scripts/lib.sh).

SHELL := /bin/bash
S := scripts

.PHONY: all test deps tree kunit clean-work help

all: kunit

test: kunit

deps:
	@$(S)/deps.sh

tree: deps
	@$(S)/tree.sh

kunit: tree
	@$(S)/kunit.sh plain

help:
	@sed -n '1,/^$$/p' Makefile

# Removes every build product outside the repository (the trees, the O=
# directories and the results): the next run starts from scratch.
clean-work:
	@. $(S)/lib.sh && rm -rf "$$TS_WORK"

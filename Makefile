# SPDX-License-Identifier: GPL-2.0
# slab-bulk: build, boot, test and measure the bulk memory API series on
# Debian's Linux 6.12 (BASE=mainline: 7.2) under QEMU. Every target
# installs what it needs.

SHELL := /bin/bash
S := scripts

.PHONY: help deps tree export check check-net stress bench lint matrix selftest-harness clean

help:
	@echo "make help    this list"
	@echo "make deps    install the Debian packages the harness needs (root) and fetch the base's pinned source"
	@echo "make check   the harness's own tests, then build the test and debug kernels of the tree (which must match the series), boot them, run KUnit, the kselftest and the cost model's known answers (KUNIT=GLOB: those KUnit tests alone)"
	@echo "make check-net  boot each check kernel NET_RUNS (default 10) times running only the network tests"
	@echo "make stress  run the stress on the debug kernel for STRESS_SECS (default 300) seconds"
	@echo "make bench   build base and series kernels, boot each once per layout seed (BENCH_LAYOUTS, default 6) under -icount and the cost model, judge the medians and 95 % intervals by expect/BASE-bench, write build/bench/ (build/bench-X/ for BENCH_CONFIG=bench+X)"
	@echo "make tree    make build/linux, the git tree of base + patches/ (FORCE=1 remakes it)"
	@echo "make export  write the commits of build/linux back to patches/"
	@echo "make lint    checkpatch --strict, messages, kernel-doc, a build at each commit, each section of series applied and built with those it names, W=1 + sparse on e1000e, ixgbe, virtio_net, clang W=1, Sphinx on the touched docs, kernel-doc rendered twice, the 6.12 module ABI (modversions CRCs)"
	@echo "make matrix  build and boot the slow configurations (PREEMPT_RT, NUMA, KCSAN...), see scripts/matrix.sh"
	@echo "make selftest-harness  test the verdict scripts, then make check on the unchanged series (must pass) and on deliberately broken trees (each must fail)"
	@echo "make clean   remove the build output of the base (kernels, logs, worktrees), keeping the tree"
	@echo "BASE=mainline before any of them: the mainline base, patches-mainline/, build/mainline/"
	@echo "Every variable, its default and what a bad value gets: README.md, section Knobs"

deps:
	@bash $(S)/deps.sh

tree:
	@bash $(S)/tree.sh

export:
	@bash $(S)/export.sh

check:
	@bash $(S)/check.sh

check-net:
	@bash $(S)/check-net.sh

stress:
	@bash $(S)/stress.sh

bench:
	@bash $(S)/bench.sh

lint:
	@bash $(S)/lint.sh

matrix:
	@bash $(S)/matrix.sh

selftest-harness:
	@bash $(S)/selftest-harness.sh

clean:
	@bash $(S)/clean.sh

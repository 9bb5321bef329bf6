#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Tests that make check refuses each bad setting before it unpacks a base
# or builds anything: scripts/check.sh runs with a build directory of its
# own, which must not exist afterwards (no time limit: the refusal is
# checked by what was not done, not by how fast), and must exit
# non-zero with an "error:" line naming the setting. Prints one line a
# case and "settings: N passed, N failed".
. "$(dirname "$0")/test_lib.sh"

# Usage: expect_refused WORD VAR=VALUE...; check.sh with those settings
# must fail at once with an error that says WORD.
expect_refused() {
	local word=$1 out
	shift
	if out=$(env "$@" BUILD="$tmp/build" bash "$top/scripts/check.sh" 2>&1); then
		not_ok "$*: check.sh accepted it"
	elif [ -e "$tmp/build" ] || ! grep -q "^error: .*$word" <<<"$out"; then
		not_ok "$*: went on, or gave another reason: $(tail -n 1 <<<"$out")"
	else
		ok "$*: $(tail -n 1 <<<"$out")"
	fi
	rm -rf "$tmp/build"
}

expect_refused 'did you mean CHECK_CONFIGS' CHECK_CONFIG=test
expect_refused 'did you mean BENCH_CONFIG' BENCH_CONFIGS=bench
expect_refused 'STRESS_SEC' STRESS_SEC=10
expect_refused 'did you mean SUITES' SUITE=page
expect_refused 'configs/nosuch' CHECK_CONFIGS=nosuch
expect_refused 'configs/nosuch' STRESS_CONFIG=nosuch
expect_refused CHECK_TIMEOUT CHECK_TIMEOUT=1h
expect_refused CHECK_STRESS_SECS CHECK_STRESS_SECS=-1
expect_refused SMP SMP=two
expect_refused SMP SMP=0
expect_refused MEM MEM=lots
expect_refused MEM MEM=2048
expect_refused NUMA NUMA=x
expect_refused QEMU_MACHINE QEMU_MACHINE=virt
expect_refused 'BENCH_LAYOUTS for make bench' RUNS=2
expect_refused 'BENCH_RUNS is gone' BENCH_RUNS=2
expect_refused BENCH_LAYOUTS BENCH_LAYOUTS=0
expect_refused BENCH_LAYOUTS BENCH_LAYOUTS=six
expect_refused BENCH_REPEAT BENCH_REPEAT=2
expect_refused 'did you mean BENCH_LAYOUTS' BENCH_LAYOUT=6
expect_refused NET_RUNS NET_RUNS=two
expect_refused 'did you mean NET_PKTGEN_COUNT' NET_PKTGEN_COUNTS=1
expect_refused 'did you mean MUTANT_CONFIGS' MUTANT_CONFIG=test
expect_refused DEBUG_PKTGEN_COUNT DEBUG_PKTGEN_COUNT=many
expect_refused STRESS_SECS STRESS_SECS=5m
expect_refused STRESS_FAIL_PCT STRESS_FAIL_PCT=x
expect_refused STRESS_FREE_MB STRESS_FREE_MB=x
expect_refused MATRIX_TIMEOUT MATRIX_TIMEOUT=x
expect_refused JOBS JOBS=all
expect_refused TIMEOUT TIMEOUT=1h
expect_refused SMP SMP=9
expect_refused NUMA NUMA=9
expect_refused BASE BASE=7.1
expect_refused 'KUNIT=slab_bulkk' KUNIT=slab_bulkk
expect_refused 'did you mean KUNIT' KUNIT_GLOB=slab_bulk
finish settings

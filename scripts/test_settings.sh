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
expect_refused RUNS RUNS=two
expect_refused BASE BASE=7.1
finish settings

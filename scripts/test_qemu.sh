#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Tests that a boot qemu.sh refuses leaves no console log behind: the
# callers judge the log whatever qemu.sh returned, so an earlier boot's
# log that survived would be judged as this one's. Each case gives one
# setting qemu.sh refuses, before QEMU starts, with a passing log in
# place. Prints "N passed, N failed".
. "$(dirname "$0")/test_lib.sh"

# Usage: expect_refused NAME VAR=VALUE...; qemu.sh with those settings
# must fail, say why, and leave no log.
expect_refused() {
	local name=$1 out
	shift
	echo "==== slab_bulk: done" > "$tmp/old.log"
	if out=$(env "$@" bash "$top/scripts/qemu.sh" "$tmp/no-kernel" "$tmp/old.log" check 2>&1); then
		not_ok "$name: qemu.sh accepted it"
	elif [ -e "$tmp/old.log" ] || ! grep -q '^error: ' <<<"$out"; then
		not_ok "$name: the old log is still there, or no reason given: $out"
	else
		ok "$name"
	fi
}

expect_refused "SMP not a number" SMP=two
expect_refused "NUMA not dividing SMP" SMP=2 NUMA=3
expect_refused "MEM without a unit under NUMA" SMP=2 NUMA=2 MEM=2048
expect_refused "COSTMODEL without ICOUNT" ICOUNT=0 COSTMODEL="$tmp/cm"
finish qemu

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Tests that a boot qemu.sh refuses leaves no console log behind: the
# callers judge the log whatever qemu.sh returned, so an earlier boot's
# log that survived would be judged as this one's. Each case gives one
# setting qemu.sh refuses, before QEMU starts, with a passing log in
# place. Then a test boot, with a QEMU that prints three results a second
# apart, must show each result while the "guest" still runs and leave no
# process behind. Prints "N passed, N failed".
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
# A stand-in for QEMU: a result, a line that is not shown, a second's
# wait, three times; the time each result was printed is in the log.
mkdir -p "$tmp/bin"
cat > "$tmp/bin/qemu-system-x86_64" <<'FAKE'
#!/bin/sh
for i in 1 2 3; do
	echo "[    1.00000$i]     ok $i test_$i at $(date +%s.%N)"
	echo "noise $i"
	sleep 1
done
echo "==== slab_bulk: done"
FAKE
chmod +x "$tmp/bin/qemu-system-x86_64"
# Each shown line is timed as it arrives: a result shown while the guest
# still runs arrives before the guest's last line was printed.
PATH="$tmp/bin:$PATH" bash "$top/scripts/qemu.sh" "$tmp/no-kernel" "$tmp/stream.log" check 2>&1 |
	while IFS= read -r line; do echo "$(date +%s.%N) $line"; done > "$tmp/stream.out"
shown=$(grep -c ' |     ok [0-9] test_' "$tmp/stream.out" || true)
end=$(grep -o 'ok 3 test_3 at [0-9.]*' "$tmp/stream.log" | awk '{ print $NF }')
first=$(awk '/ok 1 test_1/ { print $1; exit }' "$tmp/stream.out")
if [ "$shown" != 3 ] || grep -q noise "$tmp/stream.out"; then
	not_ok "a test boot's results are shown: $shown of 3 shown, or noise shown: $(cat "$tmp/stream.out")"
elif ! awk -v a="$first" -v b="$end" 'BEGIN { exit !(a < b) }'; then
	not_ok "the first result was shown at $first, after the guest printed its last at $end"
else
	ok "a test boot's results are shown as the guest prints them"
fi
# Usage: running PATTERN; whether a process's command line matches the
# glob PATTERN. Read from /proc in this shell, which starts no process
# that could match itself, and needs no procps.
running() {
	local p args
	for p in /proc/[0-9]*/cmdline; do
		{ mapfile -d '' -t args < "$p"; } 2>/dev/null || continue
		# shellcheck disable=SC2053 # the pattern is meant as a glob
		[[ "${args[*]}" == $1 ]] && return 0
	done
	return 1
}
# The follower polls qemu.sh's pid every 0.2 s: on a busy machine it may
# take a while to notice; it must be gone within 10 s.
left() { running "tail -n +1 -s 0.2 --pid=* -F $tmp/stream.log" || running "sleep 960"; }
for _ in $(seq 50); do left || break; sleep 0.2; done
if left; then
	not_ok "the follower of $tmp/stream.log is still running"
else
	ok "nothing left running after a test boot"
fi
finish qemu

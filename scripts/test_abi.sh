#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Tests the comparison of scripts/abi.sh (scripts/symvers_diff.awk) on
# made-up Module.symvers files: each change a module would notice is
# reported, an added symbol is not. Prints one line a case and
# "abi: N passed, N failed".
. "$(dirname "$0")/test_lib.sh"
base=$(printf '0x11111111\tkfree_bulk\tvmlinux\tEXPORT_SYMBOL\t\n0x22222222\tfree_pages_bulk\tvmlinux\tEXPORT_SYMBOL_GPL\t\n')

# Usage: expect NAME WANT NEW; the comparison of the base with NEW (the
# lines of a Module.symvers) must print WANT (a regular expression;
# empty: nothing).
expect() {
	local out
	printf '%s\n' "$base" > "$tmp/old"
	printf '%s\n' "$3" > "$tmp/new"
	out=$(awk -F'\t' -f "$top/scripts/symvers_diff.awk" "$tmp/old" "$tmp/new")
	if { [ -z "$2" ] && [ -z "$out" ]; } || { [ -n "$2" ] && grep -Eq "$2" <<<"$out"; }; then
		ok "$1"
	else
		not_ok "$1: got '$out'"
	fi
}

expect unchanged '' "$base"
expect added '' "$base"$'\n0x33333333\tnew_sym\tvmlinux\tEXPORT_SYMBOL\t'
expect removed '^removed: free_pages_bulk$' "$(head -n 1 <<<"$base")"
expect crc '^changed: kfree_bulk \(0x11111111 ' "${base/0x11111111/0x99999999}"
expect license '^changed: kfree_bulk ' "${base/EXPORT_SYMBOL	/EXPORT_SYMBOL_GPL	}"
expect namespace '^changed: free_pages_bulk ' "${base/EXPORT_SYMBOL_GPL	/EXPORT_SYMBOL_GPL	MM}"
finish abi

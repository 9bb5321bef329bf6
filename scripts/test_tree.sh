#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Tests that FORCE=1 make tree never deletes a directory the harness did
# not make: each case points TREE at something of a user's and must leave
# it as it was, with tree.sh refusing. Prints "N passed, N failed".
. "$(dirname "$0")/test_lib.sh"

# Usage: expect_kept NAME PATH; runs FORCE=1 tree.sh on PATH, which must
# fail, say why, and leave PATH's files as they were.
expect_kept() {
	local before after out
	before=$(cd "$tmp" && find . -type f -exec md5sum {} + | sort)
	if out=$(TREE=$2 FORCE=1 bash "$top/scripts/tree.sh" 2>&1); then
		not_ok "$1: tree.sh accepted $2"
		return
	fi
	after=$(cd "$tmp" && find . -type f -exec md5sum {} + | sort)
	if [ "$before" != "$after" ] || ! grep -q 'was not made by make tree' <<<"$out"; then
		not_ok "$1: files changed or no reason given: $out"
		return
	fi
	ok "$1"
}

mkdir -p "$tmp/plain" "$tmp/checkout/sub" "$tmp/marked-parent/sub"
echo mine > "$tmp/plain/file"
git -C "$tmp/checkout" init -q && echo mine > "$tmp/checkout/Makefile"
echo mine > "$tmp/checkout/sub/file"
# A directory inside a harness-made tree is not that tree.
git -C "$tmp/marked-parent" init -q
git -C "$tmp/marked-parent" config slabbulk.base 6.12
echo mine > "$tmp/marked-parent/sub/file"

expect_kept "a directory of files" "$tmp/plain"
expect_kept "a git checkout without the harness's mark" "$tmp/checkout"
expect_kept "a directory inside another checkout" "$tmp/checkout/sub"
expect_kept "a directory inside a marked tree" "$tmp/marked-parent/sub"
expect_kept "a file" "$tmp/plain/file"
finish tree

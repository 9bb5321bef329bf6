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
# The benchmark's base is the patch before the "# bench-base" line of
# series, counted from the base tag: after a rebase that adds a patch
# before it, export's new series (series.py) and bench_base_commit
# (lib.sh) still end the base at the same patch.
# Usage: base_subject SERIES; the subject of the commit bench_base_commit gives.
base_subject() {
	(
		. "$top/scripts/lib.sh"
		TREE=$tmp/bb PATCHES=$tmp/bbp
		cp "$1" "$PATCHES/series"
		git -C "$TREE" log -1 --format=%s "$(bench_base_commit)"
	)
}
mkdir -p "$tmp/bb" "$tmp/bbp"
git -C "$tmp/bb" init -q
for c in base a b c; do
	git -C "$tmp/bb" -c user.name=t -c user.email=t@t commit -q --allow-empty -m "$c"
done
git -C "$tmp/bb" tag base HEAD~3
printf '%s\n' '# section t: tests' 0001-a.patch 0002-b.patch \
	'# bench-base: the kernel make bench compares against ends here' 0003-c.patch > "$tmp/old-series"
got=$(base_subject "$tmp/old-series" 2>&1)
[ "$got" = b ] && ok "the base ends at the marker's patch" ||
	not_ok "the base ends at the marker's patch: got '$got', want b"
# A rebase puts x before b: the tree is a x b c, and export writes series anew.
git -C "$tmp/bb" reset -q --hard base
for c in a x b c; do
	git -C "$tmp/bb" -c user.name=t -c user.email=t@t commit -q --allow-empty -m "$c"
done
python3 "$top/scripts/series.py" "$tmp/old-series" 0001-a.patch 0002-x.patch 0003-b.patch \
	0004-c.patch > "$tmp/new-series"
got=$(base_subject "$tmp/new-series" 2>&1)
[ "$got" = b ] && ok "a rebase that adds a patch before the marker is followed" ||
	not_ok "a rebase that adds a patch before the marker is followed: got '$got', want b"
finish tree

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Writes the commits of $TREE since the "base" tag back to patches/, with
# output that does not change when the commits do not. The cover letter's
# subject and text are kept; its shortlog and diffstat are made anew.
. "$(dirname "$0")/lib.sh"

[ -e "$TREE/.git" ] || die "no tree at $TREE: run make tree"
tree_is_of_base
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
format_series "$tmp"
/usr/bin/python3 "$TOP/scripts/cover.py" "$PATCHES/0000-cover-letter.patch" \
	"$tmp/0000-cover-letter.patch"
mkdir -p "$PATCHES"
rm -f "$PATCHES"/[0-9][0-9][0-9][0-9]-*.patch
cp "$tmp"/*.patch "$PATCHES/"
# Keep the bench-base marker after the patch the tag points at.
nr_base=$(git -C "$TREE" rev-list --count base..bench-base 2>/dev/null || echo 0)
(cd "$tmp" && ls [0-9][0-9][0-9][0-9]-*.patch | grep -v '^0000-') |
	awk -v n="$nr_base" '{ print } NR == n { print "# bench-base: the kernel make bench compares against ends here" }' \
	> "$PATCHES/series"
log "exported $(grep -vc "^#" "$PATCHES/series") patches to ${PATCHES#"$TOP"/}/"

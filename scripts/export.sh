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
# Keep the comments of series (section headers) before the patches they
# precede, and the bench-base marker after the patch it followed;
# checked before any file is replaced.
# shellcheck disable=SC2046 # one argument per patch file
/usr/bin/python3 "$TOP/scripts/series.py" "$PATCHES/series" \
	$(cd "$tmp" && ls [0-9][0-9][0-9][0-9]-*.patch | grep -v '^0000-') > "$tmp/series"
mkdir -p "$PATCHES"
rm -f "$PATCHES"/[0-9][0-9][0-9][0-9]-*.patch
cp "$tmp"/*.patch "$tmp/series" "$PATCHES/"
log "exported $(grep -vc "^#" "$PATCHES/series") patches to ${PATCHES#"$TOP"/}/"

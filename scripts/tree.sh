#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Makes $TREE: a git kernel tree holding the Debian base as one commit
# (tagged "base") and the series from patches/ applied on top with git am.
# An existing tree is kept unless FORCE=1, so work in it is never lost.
. "$(dirname "$0")/lib.sh"

bash "$TOP/scripts/deps.sh"
ver=$(base_version)

if [ -d "$TREE/.git" ] && [ "${FORCE:-0}" != 1 ]; then
	tree_is_of_base
	log "tree exists: $TREE (FORCE=1 remakes it from ${PATCHES#"$TOP"/}/)"
	exit 0
fi
# Remaking deletes $TREE: only a tree this script made (it records the
# base in the tree's own .git before unpacking anything) or an empty
# directory. TREE may name any directory, and FORCE=1 must never remove
# a kernel checkout, or anything else, that is not the harness's.
if [ -e "$TREE" ] && [ -n "$(ls -A "$TREE" 2>/dev/null)" ]; then
	[ -n "$(tree_made_for)" ] ||
		die "$TREE exists and was not made by make tree: it is left alone; set TREE (or BUILD) to a new directory, or remove it yourself"
	tree_is_of_base
fi

rm -rf "$TREE"
mkdir -p "$TREE"
cd "$TREE"
git init -q -b main
git config slabbulk.base "$BASE"
log "unpacking $BASE_PKG $ver"
tar -C "$TREE" --strip-components=1 -xf "$BASE_TARBALL"
# Debian's packaging adds "/*" to the top .gitignore, which would hide every
# new file of the series from git add; the kernel's own rules stay.
sed -i '/^# Debian packaging: ignore everything/,$d' .gitignore
git config user.name >/dev/null || git config user.name "slab-bulk harness"
git config user.email >/dev/null || git config user.email "slab-bulk@localhost"
git add -A
GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" GIT_COMMITTER_DATE="2000-01-01T00:00:00Z" \
	git commit -q -m "Linux $ver (Debian $BASE_PKG)" \
		-m "Unpacked from ${BASE_TARBALL##*/}; the Debian packaging block of .gitignore is dropped."
git tag -f base >/dev/null
echo "$ver" > "$BUILD/base-version"

while read -r p; do
	case "$p" in
	''|'#'*) continue ;;
	esac
	if ! git am -q --keep-cr "$PATCHES/$p" 2>"$BUILD/am.err"; then
		echo "error: patch $p does not apply to $BASE_PKG $ver:" >&2
		grep -E '^(error|Patch failed|patch failed)' "$BUILD/am.err" >&2 || cat "$BUILD/am.err" >&2
		git am --abort
		exit 1
	fi
	echo "applied $p" >&2
done < "$PATCHES/series"

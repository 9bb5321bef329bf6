#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make lint: checkpatch --strict on every patch of patches/, kernel-doc of
# the files they touch, a build of the test config at each commit of the
# tree so that the series bisects, each section of series applied and
# built on the base with the sections it names (scripts/sections.sh),
# W=1 and sparse on the NIC drivers,
# clang at W=1 on the C files the series touches, Sphinx on the
# documentation it touches, no kernel-doc rendered twice
# (scripts/kdoc_dups.py), and on 6.12 the module ABI (scripts/abi.sh).
. "$(dirname "$0")/lib.sh"

bash "$TOP/scripts/tree.sh"
tree_matches_patches

# Usage: new_files_maintained PATCH; checkpatch asks "does MAINTAINERS
# need updating?" of every patch that adds, deletes or renames a file
# without touching MAINTAINERS. Answered here instead, file by file: a
# MAINTAINERS section other than THE REST must cover each file the patch
# adds (or renames to) that the tree still has (one a later patch removes
# is not asked about), and no F: line of the tree's MAINTAINERS may name
# a file it deletes (or renames from) that the tree no longer has. Prints
# each such file; fails if there is one.
new_files_maintained() {
	local f sections ret=0
	for f in $(sed -n '/^diff --git /{s|^diff --git a/\([^ ]*\) .*|\1|;h;}
			/^deleted file mode/{x;p;x;}
			s/^rename from //p' "$1"); do
		[ ! -e "$TREE/$f" ] || continue
		if grep -qx "F:[[:space:]]*$f" "$TREE/MAINTAINERS"; then
			echo "$1: $f: gone, but MAINTAINERS still names it"
			ret=1
		fi
	done
	for f in $(sed -n '/^diff --git /{s|^diff --git a/[^ ]* b/||;h;}
			/^new file mode/{x;p;x;}
			s/^rename to //p' "$1"); do
		[ -e "$TREE/$f" ] || continue
		sections=$(cd "$TREE" && scripts/get_maintainer.pl --no-git \
			--no-git-fallback --sections -f "$f" 2>&1 |
			grep -v '^[A-Z]:' | grep -v -x -e '' -e 'THE REST')
		if [ -z "$sections" ]; then
			echo "$1: $f: no MAINTAINERS section covers it"
			ret=1
		fi
	done
	return $ret
}

bad=0
for p in $(grep -v '^#' "$PATCHES/series"); do
	# checkpatch reads git state from the working directory: run it in the tree.
	# The tree is an unpacked tarball with no upstream history, so the
	# commit a Fixes: tag names cannot be looked up in it (that check
	# alone is off; the tag's form is still checked). Whether MAINTAINERS
	# covers the files a patch adds is new_files_maintained()'s question.
	if ! out=$(cd "$TREE" && scripts/checkpatch.pl --strict --no-tree -q --terse \
			--ignore UNKNOWN_COMMIT_ID,FILE_PATH_CHANGES "$PATCHES/$p" 2>&1); then
		echo "$out"; bad=1
	fi
	echo "checkpatch: $p: ${out:-clean}" | tail -1
	new_files_maintained "$PATCHES/$p" || bad=1
done
# Commit messages and the cover letters stand alone: they name no record
# of this repository (results/), none of its commands, no issue number.
covers=$(cd "$PATCHES" && ls covers/*.txt 2>/dev/null || true)
for p in 0000-cover-letter.patch $covers $(grep -v '^#' "$PATCHES/series"); do
	if out=$(awk '/^---$/ { exit } { print }' "$PATCHES/$p" |
		 grep -nE 'results/|\b[Ii]ssue [0-9]+|make (bench|check|matrix|lint|stress)\b'); then
		echo "message: $p names what only this repository has:"
		echo "$out"
		bad=1
	fi
done
echo "messages: checked for results/ paths, issue numbers and harness commands"
# Each section of series applies and builds on the base with the
# sections it names, as the tree that takes it would apply it.
bash "$TOP/scripts/sections.sh" build || bad=1
# kernel-doc: no more warnings in any touched file than in the base.
kdoc() { (cd "$TREE" && scripts/kernel-doc -none -Wall "$1" 2>&1 | grep -c warning || true); }
files=$(git -C "$TREE" diff --name-only base HEAD -- '*.c' '*.h')
for f in $files; do
	new=$(kdoc "$f")
	old=0
	if git -C "$TREE" cat-file -e "base:$f" 2>/dev/null; then
		git -C "$TREE" show "base:$f" > "$BUILD/kdoc-base.tmp"
		old=$( (cd "$TREE" && scripts/kernel-doc -none -Wall "$BUILD/kdoc-base.tmp" 2>&1 | grep -c warning) || true)
	fi
	if [ "$new" -gt "$old" ]; then
		echo "kernel-doc: $f: $new warnings, base had $old"
		(cd "$TREE" && scripts/kernel-doc -none -Wall "$f")
		bad=1
	fi
done
echo "kernel-doc: no new warnings in $(echo $files | wc -w) files"

wt=$BUILD/wt-lint/linux
git -C "$TREE" worktree remove --force "$wt" 2>/dev/null || rm -rf "$wt"
mkdir -p "$(dirname "$wt")"
git -C "$TREE" worktree prune
git -C "$TREE" worktree add -q --detach "$wt" base
for c in $(git -C "$TREE" rev-list --reverse base..HEAD); do
	git -C "$wt" checkout -q "$c"
	# Options of later patches are not there yet.
	if CONFIG_UNKNOWN_OK=1 SRC=$wt bash "$TOP/scripts/build.sh" test "$BUILD/wt-lint/out/test" > "$BUILD/lint-build.log" 2>&1; then
		echo "build: $(git -C "$TREE" log -1 --format=%s "$c"): ok"
	else
		echo "build: $(git -C "$TREE" log -1 --format=%s "$c"): FAILED"; tail -20 "$BUILD/lint-build.log"; bad=1
	fi
done
# NIC drivers the series converts or tests: no new W=1 or sparse warnings
# against the base, which has a few of its own. ixgbe is built only here
# (QEMU has no ixgbe); e1000e and virtio_net are in the test configuration.
DRV_OBJS="drivers/net/ethernet/intel/e1000e/netdev.o
	drivers/net/ethernet/intel/ixgbe/ixgbe_main.o drivers/net/virtio_net.o"
# Usage: drv_warnings COMMIT OBJ; W=1 and sparse warnings of OBJ at COMMIT
# (its source touched: W=1 warnings come only from a compile).
drv_warnings() {
	local out=$BUILD/wt-lint/out/test
	git -C "$wt" checkout -q "$1"
	(cd "$wt" && scripts/config --file "$out/.config" -m IXGBE &&
	 make -s O="$out" CC="ccache gcc" olddefconfig &&
	 touch "${2%.o}.c" && make -s O="$out" CC="ccache gcc" -j"$JOBS" W=1 C=2 "$2" 2>&1 |
	 grep -c 'warning' || true)
}
for obj in $DRV_OBJS; do
	old_w=$(drv_warnings base "$obj")
	new_w=$(drv_warnings "$(git -C "$TREE" rev-parse HEAD)" "$obj")
	echo "$(basename "$obj" .o) W=1 sparse: $new_w warnings, base had $old_w"
	[ "$new_w" -le "$old_w" ] || bad=1
done
# The C files the series touches that the test configuration builds (with
# ixgbe, as above), built with clang at W=1: no more warnings than the
# base. A file the series adds counts zero at the base.
bash "$TOP/scripts/deps.sh" $CLANG_PKGS
clang_objs=
for f in $files; do
	case $f in tools/*|*.h) continue ;; esac
	[ ! -f "$BUILD/wt-lint/out/test/${f%.c}.o" ] || clang_objs="$clang_objs ${f%.c}.o"
done
# Usage: clang_warnings COMMIT; clang W=1 warnings of those objects that
# exist at COMMIT (each compiled: its source is touched), or FAILED.
clang_warnings() {
	local out=$BUILD/wt-lint/out/clang log=$BUILD/lint-clang-$1.log objs= o
	git -C "$wt" checkout -q "$1"
	for o in $clang_objs; do
		[ ! -f "$wt/${o%.o}.c" ] || { objs="$objs $o"; touch "$wt/${o%.o}.c"; }
	done
	mkdir -p "$out"
	cp "$BUILD/wt-lint/out/test/.config" "$out/.config"
	if ! (cd "$wt" && make -s O="$out" LLVM="$CLANG_LLVM" olddefconfig &&
	      make -s O="$out" LLVM="$CLANG_LLVM" -j"$JOBS" W=1 $objs) > "$log" 2>&1; then
		echo FAILED
		return
	fi
	grep -c 'warning:' "$log" || true
}
old_w=$(clang_warnings base)
new_w=$(clang_warnings "$(git -C "$TREE" rev-parse HEAD)")
echo "clang (LLVM=$CLANG_LLVM) W=1, $(echo $clang_objs | wc -w) objects: $new_w warnings, base had $old_w"
if [ "$old_w" = FAILED ] || [ "$new_w" = FAILED ] || [ "$new_w" -gt "$old_w" ]; then
	tail -20 "$BUILD"/lint-clang-*.log
	bad=1
fi
# The documentation the series touches, built by Sphinx (make htmldocs
# of those Documentation/ folders, kernel-doc directives included): no
# more warnings that name a file the series touches than at the base.
doc_dirs=$(git -C "$TREE" diff --name-only base HEAD -- 'Documentation/*.rst' |
	   cut -d/ -f2 | sort -u | tr '\n' ' ')
bash "$TOP/scripts/deps.sh" python3-sphinx python3-yaml
touched=$(git -C "$TREE" diff --name-only base HEAD -- 'Documentation/*.rst' '*.c' '*.h')
# Usage: doc_warnings COMMIT; Sphinx warnings naming a touched file, or FAILED.
doc_warnings() {
	local out=$BUILD/wt-lint/out/docs log=$BUILD/lint-docs-$1.log
	git -C "$wt" checkout -q "$1"
	rm -rf "$out"
	if ! (cd "$wt" && make -s O="$out" SPHINXDIRS="$doc_dirs" htmldocs) > "$log" 2>&1; then
		echo FAILED
		return
	fi
	grep -E 'WARNING|ERROR' "$log" | grep -cF "$(printf '%s\n' $touched | sed 's|^|/|')" || true
}
if [ -n "$doc_dirs" ]; then
	old_w=$(doc_warnings base)
	new_w=$(doc_warnings "$(git -C "$TREE" rev-parse HEAD)")
	echo "htmldocs ($doc_dirs): $new_w warnings naming a touched file, base had $old_w"
	if [ "$old_w" = FAILED ] || [ "$new_w" = FAILED ] || [ "$new_w" -gt "$old_w" ]; then
		grep -E 'WARNING|ERROR' "$BUILD/lint-docs-$(git -C "$TREE" rev-parse HEAD).log" |
			grep -F "$(printf '%s\n' $touched | sed 's|^|/|')" | head -20
		bad=1
	fi
fi
# One Sphinx build of the whole of Documentation/ (make htmldocs) warns
# of a declaration that two kernel-doc directives render, in folders the
# per-folder builds above build apart: none that the base does not have.
# Usage: kdoc_dups COMMIT; writes the names rendered twice at COMMIT of
# what the series touches (C files, and those its .rst files name) to
# $BUILD/lint-kdoc-dups-COMMIT.log, one a line, or fails.
kdoc_touched=$(git -C "$TREE" diff --name-only base HEAD -- '*.c' '*.h' 'Documentation/*.rst')
kdoc_dups() {
	local log=$BUILD/lint-kdoc-dups-$1
	rm -f "$log.out" "$log.log"
	git -C "$wt" checkout -q "$1" || return 1
	/usr/bin/python3 "$TOP/scripts/kdoc_dups.py" "$wt" $kdoc_touched > "$log.out" || return 1
	{ grep ': rendered by ' "$log.out" || true; } | cut -d: -f1 | sort > "$log.log"
	tail -n 1 "$log.out" | grep -q '^kernel-doc duplicates: [0-9]*$'
}
head=$(git -C "$TREE" rev-parse HEAD)
if kdoc_dups base && kdoc_dups "$head"; then
	added=$(comm -13 "$BUILD/lint-kdoc-dups-base.log" "$BUILD/lint-kdoc-dups-$head.log")
	echo "kernel-doc declarations rendered twice in Documentation/: $(wc -l < "$BUILD/lint-kdoc-dups-$head.log"), base had $(wc -l < "$BUILD/lint-kdoc-dups-base.log")"
	if [ -n "$added" ]; then
		grep -F "$added" "$BUILD/lint-kdoc-dups-$head.out"
		bad=1
	fi
else
	echo "kernel-doc duplicates: scripts/kdoc_dups.py failed:"
	tail -n 3 "$BUILD"/lint-kdoc-dups-*.out
	bad=1
fi
git -C "$TREE" worktree remove --force "$wt"
# 6.12's module ABI: every symbol the base exports, with the same CRC.
bash "$TOP/scripts/abi.sh" || bad=1
[ $bad = 0 ] && echo "lint: clean" || { echo "lint: problems found"; exit 1; }

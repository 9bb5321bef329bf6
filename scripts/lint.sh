#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make lint: checkpatch --strict on every patch of patches/, kernel-doc of
# the files they touch, and a build of the test config at each commit of
# the tree so that the series bisects.
. "$(dirname "$0")/lib.sh"

bash "$TOP/scripts/tree.sh"
bad=0
for p in $(grep -v '^#' "$PATCHES/series"); do
	# checkpatch reads git state from the working directory: run it in the tree.
	if ! out=$(cd "$TREE" && scripts/checkpatch.pl --strict --no-tree -q --terse "$PATCHES/$p" 2>&1); then
		echo "$out"; bad=1
	fi
	echo "checkpatch: $p: ${out:-clean}" | tail -1
done
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
# (QEMU has no ixgbe); virtio_net is in the test configuration.
DRV_OBJS="drivers/net/ethernet/intel/ixgbe/ixgbe_main.o drivers/net/virtio_net.o"
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
git -C "$TREE" worktree remove --force "$wt"
[ $bad = 0 ] && echo "lint: clean" || { echo "lint: problems found"; exit 1; }

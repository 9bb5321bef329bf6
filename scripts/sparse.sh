#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# sparse.sh CONFIG : compiles every C file the series touches with W=1 and
# sparse (C=2), at the series and at the base, in the CONFIG configuration
# with IXGBE=m (a driver the series converts that QEMU cannot run), and
# prints each file's warnings (those of the headers it includes count):
# a file with more than the base had fails.
. "$(dirname "$0")/lib.sh"

cfg=${1:?usage: sparse.sh CONFIG}
wt=$BUILD/wt-sparse
files=$(git -C "$TREE" diff --name-only --diff-filter=AM base HEAD -- '*.c')
[ -n "$files" ] || die "no C files touched between base and HEAD"

# Usage: warnings REV OUT; the W=1 + sparse warnings of each touched file
# at REV, one "FILE COUNT" line each (a file REV lacks counts 0).
warnings() {
	local rev=$1 out=$2 f n
	git -C "$wt" checkout -q --detach "$rev"
	mkdir -p "$out"
	cp "$(out_dir "$cfg")/.config" "$out/.config"
	(cd "$wt" && scripts/config --file "$out/.config" -m IXGBE &&
	 make -s O="$out" CC="ccache gcc" olddefconfig prepare) >&2
	for f in $files; do
		n=0
		if [ -f "$wt/$f" ]; then
			rm -f "$out/${f%.c}.o"
			n=$( (cd "$wt" && make -s O="$out" CC="ccache gcc" W=1 C=2 "${f%.c}.o" 2>&1) |
				tee -a "$out/warnings.log" | grep -c 'warning:' || true)
		fi
		echo "$f $n"
	done
}

bash "$TOP/scripts/build.sh" "$cfg" >&2
git -C "$TREE" worktree remove --force "$wt" 2>/dev/null || rm -rf "$wt"
git -C "$TREE" worktree prune
git -C "$TREE" worktree add -q --detach "$wt" base
rm -rf "$BUILD/out/sparse-base" "$BUILD/out/sparse-series"
warnings base "$BUILD/out/sparse-base" > "$BUILD/out/sparse-base.txt"
warnings "$(git -C "$TREE" rev-parse HEAD)" "$BUILD/out/sparse-series" > "$BUILD/out/sparse-series.txt"
git -C "$TREE" worktree remove --force "$wt"
paste -d' ' "$BUILD/out/sparse-base.txt" "$BUILD/out/sparse-series.txt" | awk '
	{ printf "%-60s base %3d  series %3d%s\n", $1, $2, $4, ($4 > $2 ? "  MORE" : "")
	  files++; more += $4 > $2 }
	END { printf "W=1 C=2: %d files, %d with more warnings than the base\n", files, more
	      exit more > 0 }'

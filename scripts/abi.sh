#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# abi.sh: the series keeps 6.12's module ABI. Builds the test configuration
# with module versioning (configs/abi.config) at the base and at the
# series, and fails on any symbol the base exports that the series no
# longer exports, or exports with another CRC: a module built for the
# distro's 6.12 would then fail to build or to load. Mainline promises
# modules no stable ABI, so BASE=mainline is not checked (and says so).
# Run by make lint; the kernels go to $BUILD/wt-abi.
. "$(dirname "$0")/lib.sh"

if [ "$BASE" != 6.12 ]; then
	echo "abi: BASE=$BASE keeps no module ABI: not checked"
	exit 0
fi
wt=$BUILD/wt-abi/linux
git -C "$TREE" worktree remove --force "$wt" 2>/dev/null || rm -rf "$wt"
git -C "$TREE" worktree prune
mkdir -p "$(dirname "$wt")"
git -C "$TREE" worktree add -q --detach "$wt" base
# Usage: symvers COMMIT NAME; builds COMMIT, prints its Module.symvers path.
symvers() {
	local out=$BUILD/wt-abi/out/$2
	git -C "$wt" checkout -q "$1"
	# The series' own options are unknown at the base.
	CONFIG_UNKNOWN_OK=1 SRC=$wt bash "$TOP/scripts/build.sh" test+abi "$out" \
		> "$BUILD/wt-abi/$2.log" 2>&1 ||
		{ tail -20 "$BUILD/wt-abi/$2.log"; die "abi: building $2 failed"; }
	echo "$out/Module.symvers"
}
old=$(symvers base base)
new=$(symvers "$(git -C "$TREE" rev-parse HEAD)" series)
git -C "$TREE" worktree remove --force "$wt"
# Module.symvers: CRC, symbol, module, export type, namespace.
changed=$(awk -F'\t' 'NR == FNR { crc[$2] = $1; next }
	{ seen[$2] = $1 }
	END { for (s in crc)
		if (!(s in seen)) print "removed: " s
		else if (seen[s] != crc[s]) print "changed: " s " (" crc[s] " -> " seen[s] ")" }' \
	"$old" "$new" | sort)
n=$(wc -l < "$old")
if [ -n "$changed" ]; then
	echo "$changed"
	echo "abi: $(echo "$changed" | wc -l) of the base's $n exported symbols removed or changed"
	exit 1
fi
echo "abi: all $n symbols the base exports are exported with the same CRC"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# abi.sh: the series keeps 6.12's module ABI. Builds the test configuration
# with NUMA and module versioning (configs/abi.config) at the base and at
# the series, and fails on any symbol the base exports that the series no
# longer exports, or exports with another CRC, license or namespace: a
# module built for the distro's 6.12 would then fail to load. It fails too
# when a C file the series touches that exports symbols was not built (its
# exports would go unchecked). Mainline promises modules no stable ABI,
# so BASE=mainline is not checked (and says so). Run by make lint; the
# kernels go to $BUILD/wt-abi.
. "$(dirname "$0")/lib.sh"

if [ "$BASE" != 6.12 ]; then
	echo "abi: BASE=$BASE keeps no module ABI: not checked"
	exit 0
fi
cfg=test+numa+abi
wt=$BUILD/wt-abi/linux
head=$(git -C "$TREE" rev-parse HEAD) || die "abi: no HEAD in $TREE"
git -C "$TREE" worktree remove --force "$wt" 2>/dev/null || rm -rf "$wt"
git -C "$TREE" worktree prune
mkdir -p "$(dirname "$wt")"
git -C "$TREE" worktree add -q --detach "$wt" base
# Usage: build COMMIT NAME; builds COMMIT into $BUILD/wt-abi/out/NAME.
build() {
	local out=$BUILD/wt-abi/out/$2
	git -C "$wt" checkout -q "$1" || die "abi: cannot check out $1"
	# The series' own options are unknown at the base.
	CONFIG_UNKNOWN_OK=1 SRC=$wt bash "$TOP/scripts/build.sh" "$cfg" "$out" \
		> "$BUILD/wt-abi/$2.log" 2>&1 ||
		{ tail -20 "$BUILD/wt-abi/$2.log" >&2; die "abi: building $2 failed"; }
	[ -s "$out/Module.symvers" ] || die "abi: $out/Module.symvers is empty"
}
build base base
build "$head" series
# A touched C file that exports symbols must have been built, but for
# KASAN's, which Debian's kernels do not build.
unbuilt=
for f in $(git -C "$TREE" diff --name-only base "$head" -- '*.c'); do
	case $f in mm/kasan/*) continue ;; esac
	grep -q '^EXPORT_SYMBOL' "$wt/$f" 2>/dev/null || continue
	[ -f "$BUILD/wt-abi/out/series/${f%.c}.o" ] || unbuilt="$unbuilt $f"
done
git -C "$TREE" worktree remove --force "$wt"
[ -z "$unbuilt" ] || die "abi: configs/abi.config does not build$unbuilt, whose exports would go unchecked"
changed=$(awk -F'\t' -f "$TOP/scripts/symvers_diff.awk" \
	"$BUILD/wt-abi/out/base/Module.symvers" "$BUILD/wt-abi/out/series/Module.symvers" | sort)
n=$(wc -l < "$BUILD/wt-abi/out/base/Module.symvers")
if [ -n "$changed" ]; then
	echo "$changed"
	echo "abi: $(echo "$changed" | wc -l) of the base's $n exported symbols removed or changed"
	exit 1
fi
echo "abi: all $n symbols the base exports are exported with the same CRC, license and namespace"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make check: makes sure build/linux holds exactly patches/, runs the
# judges' own tests, then scripts/check-tree.sh: each test configuration
# built, booted under QEMU (KUnit at boot, then the slab_bulk kselftest)
# and judged.
. "$(dirname "$0")/lib.sh"

bash "$TOP/scripts/tree.sh"
tree_matches_patches
# The judges' own tests first (the log judge, the benchmark report): a
# judge that lets a failure pass makes every run below worthless.
mkdir -p "$BUILD/check"
for t in test_ktap test_report; do
	/usr/bin/python3 "$TOP/scripts/$t.py" "$TREE" > "$BUILD/check/$t.log" 2>&1 ||
		{ cat "$BUILD/check/$t.log"; die "scripts/$t.py failed"; }
	log "$t: $(grep '^Ran ' "$BUILD/check/$t.log"), all as expected"
done
exec bash "$TOP/scripts/check-tree.sh"

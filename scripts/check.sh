#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make check: makes sure build/linux holds exactly patches/, runs the
# judges' own tests, then scripts/check-tree.sh: each test configuration
# built, booted under QEMU (KUnit at boot, then the slab_bulk kselftest)
# and judged.
. "$(dirname "$0")/lib.sh"

bash "$TOP/scripts/tree.sh"
tree_matches_patches
# The judges' own tests first, and the refusal that keeps FORCE=1 from
# deleting a directory the harness did not make.
judge_tests "$BUILD/check"
bash "$TOP/scripts/test_tree.sh" > "$BUILD/check/test_tree.log" 2>&1 ||
	{ cat "$BUILD/check/test_tree.log"; die "scripts/test_tree.sh failed"; }
log "$(tail -n 1 "$BUILD/check/test_tree.log")"
exec bash "$TOP/scripts/check-tree.sh"

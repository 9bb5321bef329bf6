#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make check: makes sure build/linux holds exactly patches/, runs the
# judges' own tests, then scripts/check-tree.sh: each test configuration
# built, booted under QEMU (KUnit at boot, then the slab_bulk kselftest)
# and judged.
. "$(dirname "$0")/lib.sh"

bash "$TOP/scripts/tree.sh"
tree_matches_patches
# The judges' own tests first, the refusal that keeps FORCE=1 from
# deleting a directory the harness did not make, qemu.sh leaving no old
# log to judge when it refuses a boot, bad settings refused at once, and
# the module ABI comparison of make lint.
judge_tests "$BUILD/check"
for t in test_tree test_qemu test_settings test_abi; do
	bash "$TOP/scripts/$t.sh" > "$BUILD/check/$t.log" 2>&1 ||
		{ cat "$BUILD/check/$t.log"; die "scripts/$t.sh failed"; }
	log "$(tail -n 1 "$BUILD/check/$t.log")"
done
exec bash "$TOP/scripts/check-tree.sh"

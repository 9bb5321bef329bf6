#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make stress: builds the STRESS_CONFIG kernel (default debug: KASAN,
# KFENCE, lockdep, slub_debug, kmemleak), boots it on SMP vCPUs (default 2)
# and runs the slab_bulk kselftest's stress alone for STRESS_SECS seconds
# with STRESS_FAIL_PCT % fault injection and STRESS_FREE_MB MiB left free.
# Prints the stress totals and judges the log like make check (KUnit at
# boot, the stress result, checker reports, kmemleak).
. "$(dirname "$0")/lib.sh"

cfg=${STRESS_CONFIG:-debug}
secs=${STRESS_SECS:-300}
fail_pct=${STRESS_FAIL_PCT:-1}
free_mb=${STRESS_FREE_MB:-32}
need_configs "$cfg"
need_uint STRESS_SECS "$secs"
need_uint STRESS_FAIL_PCT "$fail_pct"
need_uint STRESS_FREE_MB "$free_mb"

bash "$TOP/scripts/tree.sh"
tree_matches_patches
prepare_guest "$cfg"
mkdir -p "$BUILD/stress"
logf=$BUILD/stress/$cfg-$secs.log
log "stress: $cfg kernel, $secs s, ${SMP:-2} vCPUs, $fail_pct % fault injection, $free_mb MiB free (console: $logf)"
# The debug kernel runs its KUnit suites at boot first: allow for them.
SMP=${SMP:-2} MEM=${MEM:-3G} TIMEOUT=$((secs + 1800)) bash "$TOP/scripts/qemu.sh" "$cfg" "$logf" stress \
	"slab_bulk.stress_secs=$secs" "slab_bulk.stress_fail_pct=$fail_pct" \
	"slab_bulk.stress_free_mb=$free_mb" || true
grep -E 'test_slab_bulk_stress: stress: (kind|free|done|[0-9]+ s)|^(# )?# stress:' "$logf" |
	sed 's/^\[ *[0-9.]*\] //' || true
/usr/bin/python3 "$TOP/scripts/ktap.py" --expect "$EXPECT" --kselftests stress "$TREE" "$cfg=$logf"

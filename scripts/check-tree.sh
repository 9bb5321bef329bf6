#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# check-tree.sh: the part of make check that tests a tree, whatever it
# holds: builds $TREE with each of CHECK_CONFIGS, boots it under QEMU
# (KUnit at boot, then the slab_bulk kselftest) and judges the logs.
# make check runs it on the series; make selftest-harness on mutants.
. "$(dirname "$0")/lib.sh"

CHECK_CONFIGS=${CHECK_CONFIGS:-test debug}
timeout=${CHECK_TIMEOUT:-3000}
need_configs "$CHECK_CONFIGS"
need_uint CHECK_STRESS_SECS "${CHECK_STRESS_SECS:-60}"
need_uint CHECK_TIMEOUT "$timeout"
[ -z "${DEBUG_PKTGEN_COUNT:-}" ] || need_uint DEBUG_PKTGEN_COUNT "$DEBUG_PKTGEN_COUNT"
mkdir -p "$BUILD/check"
# KUNIT=GLOB: each boot runs only the KUnit tests GLOB matches
# (kunit.filter_glob), then no kselftest and no cost-model boot.
mode=check kunit=() judge_kunit=()
if [ -n "${KUNIT:-}" ]; then
	mode=kunit kunit=("kunit.filter_glob=$KUNIT")
	log "KUNIT=$KUNIT: each boot runs those KUnit tests alone, no kselftest, no cost-model boot"
	judge_kunit=(--kunit-glob "$KUNIT" --kselftests=)
fi
args=()
for cfg in $CHECK_CONFIGS; do
	prepare_guest "$cfg"
	logf=$BUILD/check/$cfg.log
	log "booting $cfg kernel (console: $logf)"
	# pktgen sends 1M packets through e1000e twice; on the debug kernel
	# (KASAN, kmemleak, slub_debug) that took 705 s for the fresh run (2026-11-23). A run that
	# sends nothing for 300 s fails and says why, however slow the
	# machine; the guest's own timeout bounds the whole. DEBUG_PKTGEN_COUNT
	# sends fewer on the debug kernel.
	count=1000000
	if [ "$cfg" = debug ]; then
		count=${DEBUG_PKTGEN_COUNT:-$count}
	fi
	MEM=3G TIMEOUT=$timeout bash "$TOP/scripts/qemu.sh" "$cfg" "$logf" "$mode" \
		"slab_bulk.pktgen_count=$count" slab_bulk.pktgen_timeout=300 \
		"slab_bulk.stress_secs=${CHECK_STRESS_SECS:-60}" "${kunit[@]}" || true
	args+=("$cfg=$logf")
done
# The cost model's known answers (scripts/costmodel.py): the test kernel
# boots under -icount with two CPUs (one would have its LOCK prefixes
# patched out) and the costmodel plugin, KUnit off, and runs the
# benchmark's costmodel suite, whose counts follow from its code.
costmodel=()
if [[ " $CHECK_CONFIGS " == *" test "* ]] && [ -z "${KUNIT:-}" ]; then
	logf=$BUILD/check/costmodel.log
	plugin_log=$BUILD/check/costmodel.plugin
	log "booting test kernel under the costmodel plugin (console: $logf)"
	rm -f "$plugin_log"
	COSTMODEL=$plugin_log ICOUNT=1 SMP=2 MEM=2G TIMEOUT=$timeout bash "$TOP/scripts/qemu.sh" test "$logf" bench \
		slab_bulk.suites=costmodel slab_bulk.rcuscale= kunit.enable=0 || true
	touch "$plugin_log"
	costmodel=(--costmodel "$logf:$plugin_log")
fi
/usr/bin/python3 "$TOP/scripts/ktap.py" --expect "$EXPECT" "${costmodel[@]}" "${judge_kunit[@]}" \
	"$TREE" "${args[@]}"

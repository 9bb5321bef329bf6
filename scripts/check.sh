#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make check: builds the tree with each test configuration, boots it under
# QEMU (KUnit at boot, then the slab_bulk kselftest), and judges the logs.
. "$(dirname "$0")/lib.sh"

CHECK_CONFIGS=${CHECK_CONFIGS:-test debug}
bash "$TOP/scripts/tree.sh"
mkdir -p "$BUILD/check"
args=()
for cfg in $CHECK_CONFIGS; do
	bash "$TOP/scripts/build.sh" "$cfg"
	bash "$TOP/scripts/initramfs.sh" "$cfg"
	bash "$TOP/scripts/kvm-probe.sh" "$cfg"
	logf=$BUILD/check/$cfg.log
	log "booting $cfg kernel (console: $logf)"
	# pktgen sends 1M packets through e1000e twice; on the debug kernel
	# (KASAN, kmemleak, slub_debug) that takes about 7 minutes, hence the
	# long timeout. DEBUG_PKTGEN_COUNT sends fewer there.
	count=1000000
	if [ "$cfg" = debug ]; then
		count=${DEBUG_PKTGEN_COUNT:-$count}
	fi
	MEM=3G TIMEOUT=${CHECK_TIMEOUT:-2400} bash "$TOP/scripts/qemu.sh" "$cfg" "$logf" check \
		"slab_bulk.pktgen_count=$count" "slab_bulk.stress_secs=${CHECK_STRESS_SECS:-60}" || true
	args+=("$cfg=$logf")
done
/usr/bin/python3 "$TOP/scripts/ktap.py" "$TREE" "${args[@]}"

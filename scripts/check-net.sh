#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make check-net: boots each CHECK_CONFIGS kernel (default "test debug")
# NET_RUNS times (default 10) running only the kselftest's network tests
# (expect/BASE's "net": pktgen through the NIC_MODEL NIC,
# default e1000e, NET_PKTGEN_COUNT packets a test, default 10000; TCP and
# UDP between two e1000e and two virtio-net NICs), with KUnit off. Every
# log is judged like make check; build/check-net/summary.txt holds the
# link-up time of each boot with their minimum, median and maximum per
# configuration, and the verdicts.
. "$(dirname "$0")/lib.sh"

CHECK_CONFIGS=${CHECK_CONFIGS:-test debug}
RUNS=${NET_RUNS:-10}
count=${NET_PKTGEN_COUNT:-10000}
timeout=${CHECK_TIMEOUT:-1200}
outdir=$BUILD/check-net
need_configs "$CHECK_CONFIGS"
need_uint NET_RUNS "$RUNS"
[ "$RUNS" -ge 1 ] || die "NET_RUNS=$RUNS: at least one boot"
need_uint NET_PKTGEN_COUNT "$count"
need_uint CHECK_TIMEOUT "$timeout"
[ "${NIC_MODEL:-e1000e}" = e1000e ] || die "NIC_MODEL=$NIC_MODEL: only e1000e is supported"
bash "$TOP/scripts/tree.sh"
tree_matches_patches
rm -rf "$outdir"
mkdir -p "$outdir"
args=()
for cfg in $CHECK_CONFIGS; do
	prepare_guest "$cfg"
	for run in $(seq 1 "$RUNS"); do
		logf=$outdir/$cfg-$run.log
		log "net: $cfg kernel, boot $run of $RUNS (console: $logf)"
		MEM=3G TIMEOUT=$timeout bash "$TOP/scripts/qemu.sh" "$cfg" "$logf" net \
			kunit.enable=0 "slab_bulk.pktgen_count=$count" slab_bulk.pktgen_timeout=300 || true
		args+=("$cfg#$run=$logf")
	done
done
{
	echo "make check-net: $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) CPUs," \
	     "$(qemu-system-x86_64 --version | head -1), machine $QEMU_MACHINE," \
	     "NIC ${NIC_MODEL:-e1000e}, $count packets a test"
	/usr/bin/python3 "$TOP/scripts/linkup.py" "${args[@]}"
	echo
	/usr/bin/python3 "$TOP/scripts/ktap.py" --expect "$EXPECT" --suites= \
		--kselftests net "$TREE" "${args[@]}"
} | tee "$outdir/summary.txt"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# qemu.sh OUT LOG MODE [APPEND...] : boots $BUILD/out/OUT with its
# initramfs and writes the serial console to LOG. SMP (default 2), MEM
# (default 2G), NUMA (memory nodes, default 1: vCPUs and memory split evenly
# between them), ICOUNT=1 (one vCPU clock tick per guest instruction,
# deterministic; always TCG, SMP default 1), COSTMODEL=FILE (the costmodel
# plugin, scripts/plugin.sh, writes its reports to FILE; COSTMODEL_ARGS
# gives it more, e.g. l2_size=2097152) and TIMEOUT (seconds) tune it.
#
# MODE check and net, and bench with NIC=1, get NICs, each group alone on a
# QEMU hub of its own that has no other port, so their packets reach
# nothing outside the guest; the command line names each test's NICs by
# their MAC addresses: hub 0 holds the NIC for pktgen (NIC_MODEL:
# only e1000e so far); hub 1 two e1000e and hub 2 two virtio-net NICs, the
# pairs of the traffic tests. The first e1000e uses legacy interrupts
# (e1000e.IntMode=0, which sets the first board only) so that its TX
# completion runs in its NAPI poll, in softirq; the pair keeps the default,
# MSI-X, where TX completion runs in the hard interrupt handler (MSI, mode
# 1, fails its self-test under QEMU). The machine (QEMU_MACHINE, see
# lib.sh) routes the legacy interrupt with a fixed table. Otherwise there
# is no network device.
# A log of an earlier boot is never judged as this one's: gone before any
# setting can be refused, lib.sh's included.
[ -z "${2:-}" ] || rm -f "$2"
. "$(dirname "$0")/lib.sh"

out=$(out_dir "${1:?usage: qemu.sh OUT LOG MODE [APPEND...]}")
logf=${2:?}
mode=${3:?}
shift 3
smp=${SMP:-2}
cpu=max
rtc=()
accel=(-accel tcg,thread=multi)
# KVM only where a probe boot (scripts/kvm-probe.sh) showed that it works.
if [ "$(cat "$BUILD/kvm-probe" 2>/dev/null)" = ok ]; then
	accel=(-accel kvm)
fi
if [ "${ICOUNT:-0}" = 1 ]; then
	# icount runs all vCPUs in one thread: one vCPU keeps counts clean,
	# unless the run needs two (the kernel patches LOCK prefixes out on
	# one CPU, and the cost model counts them).
	accel=(-accel tcg -icount shift=0,sleep=off)
	smp=${SMP:-1}
	# Without RDRAND and RDSEED the guest's randomness comes from the
	# TSC, which icount makes a function of the instructions run: every
	# boot then repeats to the instruction (memory layout, hash seeds,
	# page lists). With them, one page allocator row of make bench cost
	# 125 instructions a page in one boot and 1057 in the next.
	cpu=max,rdrand=off,rdseed=off
	# The RTC too: its time of day at boot seeds the guest's randomness
	# as well, and two boots started a second apart differed.
	rtc=(-rtc base=2026-01-01T00:00:00,clock=vm)
fi
need_uint SMP "$smp"
plugin=()
if [ -n "${COSTMODEL:-}" ]; then
	# Exact only with one thread for all vCPUs: its line directory and
	# totals are not locked.
	[ "${ICOUNT:-0}" = 1 ] || die "COSTMODEL needs ICOUNT=1"
	bash "$TOP/scripts/plugin.sh"
	plugin=(-plugin "$PLUGIN_SO,out=$COSTMODEL${COSTMODEL_ARGS:+,$COSTMODEL_ARGS}")
fi
mem=${MEM:-2G}
smp_opt=$smp
numa=()
nodes=${NUMA:-1}
need_uint NUMA "$nodes"
if [ "$nodes" -gt 1 ]; then
	case $mem in
	*G) mem_mb=$((${mem%G} * 1024)) ;;
	*M) mem_mb=${mem%M} ;;
	*) die "MEM=$mem: give it in M or G with NUMA" ;;
	esac
	[ $((smp % nodes)) = 0 ] && [ $((mem_mb % nodes)) = 0 ] ||
		die "NUMA=$nodes does not divide SMP=$smp and MEM=$mem evenly"
	per=$((smp / nodes))
	# A socket (and its last-level cache) a node, as on real NUMA
	# machines: one socket across nodes is an insane topology to Linux.
	smp_opt=$smp,sockets=$nodes
	for ((n = 0; n < nodes; n++)); do
		numa+=(-object "memory-backend-ram,id=mem$n,size=$((mem_mb / nodes))M"
		       -numa "node,nodeid=$n,cpus=$((n * per))-$((n * per + per - 1)),memdev=mem$n")
	done
fi
nic=(-nic none)
nic_args=
if [ "$mode" = check ] || [ "$mode" = net ] || [ "${NIC:-0}" = 1 ]; then
	case ${NIC_MODEL:-e1000e} in
	e1000e) nic_args=e1000e.IntMode=0 ;;
	*) die "NIC_MODEL ${NIC_MODEL}: only e1000e is supported" ;;
	esac
	nic=()
	# Usage: add_nic ARG HUB MODEL MAC; adds a NIC on hub HUB and names
	# its MAC in slab_bulk.ARG= of the command line: the tests use only
	# the NICs they are given, which guest-init finds by address.
	add_nic() {
		local id=nic$((${#nic[@]} / 4))
		nic+=(-netdev "hubport,id=$id,hubid=$2" -device "$3,netdev=$id,mac=$4")
		case " $nic_args " in
		*" slab_bulk.$1="*) nic_args=$(echo "$nic_args" | sed "s/slab_bulk\.$1=[^ ]*/&,$4/") ;;
		*) nic_args="$nic_args slab_bulk.$1=$4" ;;
		esac
	}
	add_nic netif_pktgen 0 "${NIC_MODEL:-e1000e}" 52:54:00:5b:00:01
	add_nic netifs_e1000e 1 e1000e 52:54:00:5b:01:01
	add_nic netifs_e1000e 1 e1000e 52:54:00:5b:01:02
	add_nic netifs_virtio_net 2 virtio-net-pci 52:54:00:5b:02:01
	add_nic netifs_virtio_net 2 virtio-net-pci 52:54:00:5b:02:02
fi
# A test boot's results are shown as the guest prints them
# (scripts/ktap_stream.py reads the log as it grows); the judge reads the
# whole log afterwards. tail stops once the guest has ended and it has
# read the rest: it follows a sleep that is killed then, and that ends by
# itself soon after the guest's time limit if this script was killed.
follower=
case $mode in
check|net|stress|kunit)
	: > "$logf"
	sleep $((${TIMEOUT:-900} + 60)) &
	alive=$!
	trap 'kill "$alive" 2>/dev/null || true' EXIT
	tail -n +1 -s 0.2 --pid="$alive" -F "$logf" 2>/dev/null |
		/usr/bin/python3 -u "$TOP/scripts/ktap_stream.py" &
	follower=$!
	;;
esac
# The debug configuration's soft-lockup detector reports a CPU that ran
# kernel code for twice watchdog_thresh without scheduling. Under TCG a
# debug kernel's CPU spends 23-24 s at a time in the NET_TX and NAPI
# softirqs of pktgen's million packets (KASAN and KFENCE on every free:
# results/2026-12-02-checks), so the threshold is 60 s: a report after
# 120 s, far inside the harness timeout. Benchmark boots keep their
# command line as it was.
watchdog=watchdog_thresh=60
[ "$mode" != bench ] || watchdog=
timeout --foreground -k 10 "${TIMEOUT:-900}" qemu-system-x86_64 \
	-machine "$QEMU_MACHINE" "${accel[@]}" "${plugin[@]}" -cpu "$cpu" -smp "$smp_opt" -m "$mem" "${numa[@]}" \
	"${rtc[@]}" -nographic -no-reboot "${nic[@]}" \
	-kernel "$out/arch/x86/boot/bzImage" -initrd "$out/initramfs.cpio.gz" \
	-append "console=ttyS0 panic=-1 oops=panic loglevel=7 $watchdog slab_bulk.mode=$mode $nic_args $*" \
	< /dev/null > "$logf" 2>&1 || echo "qemu exit code $?" >> "$logf"
if [ -n "$follower" ]; then
	kill "$alive"
	wait "$follower" || true
fi
grep -q '^==== slab_bulk: done' "$logf" || { echo "error: guest did not finish, see $logf" >&2; exit 1; }

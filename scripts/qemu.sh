#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# qemu.sh OUT LOG MODE [APPEND...] : boots $BUILD/out/OUT with its
# initramfs and writes the serial console to LOG. SMP (default 2), ICOUNT=1
# (one vCPU clock tick per guest instruction, deterministic; always TCG) and
# TIMEOUT (seconds) tune it.
#
# MODE check, and bench with NIC=1, get an e1000e NIC for pktgen, alone on
# a QEMU hub that has no other port, so its packets reach nothing. e1000e
# uses legacy interrupts (IntMode=0): its MSI self-test fails under QEMU and
# the fallback sometimes loses the link interrupt; TX completion then runs
# in its NAPI poll. Otherwise there is no network device.
. "$(dirname "$0")/lib.sh"

out=$(out_dir "${1:?usage: qemu.sh OUT LOG MODE [APPEND...]}")
logf=${2:?}
mode=${3:?}
shift 3
smp=${SMP:-2}
accel=(-accel tcg,thread=multi)
# KVM only where a probe boot (scripts/kvm-probe.sh) showed that it works.
if [ "$(cat "$BUILD/kvm-probe" 2>/dev/null)" = ok ]; then
	accel=(-accel kvm)
fi
if [ "${ICOUNT:-0}" = 1 ]; then
	# icount runs all vCPUs in one thread: one vCPU keeps counts clean.
	accel=(-accel tcg -icount shift=0,sleep=off)
	smp=1
fi
nic=(-nic none)
nic_args=
if [ "$mode" = check ] || [ "${NIC:-0}" = 1 ]; then
	nic=(-netdev hubport,id=nic0,hubid=0 -device e1000e,netdev=nic0)
	nic_args=e1000e.IntMode=0
fi
timeout --foreground -k 10 "${TIMEOUT:-900}" qemu-system-x86_64 \
	"${accel[@]}" -cpu max -smp "$smp" -m "${MEM:-2G}" \
	-nographic -no-reboot "${nic[@]}" \
	-kernel "$out/arch/x86/boot/bzImage" -initrd "$out/initramfs.cpio.gz" \
	-append "console=ttyS0 panic=-1 oops=panic loglevel=7 slab_bulk.mode=$mode $nic_args $*" \
	< /dev/null > "$logf" 2>&1 || echo "qemu exit code $?" >> "$logf"
grep -q '^==== slab_bulk: done' "$logf" || { echo "error: guest did not finish, see $logf" >&2; exit 1; }

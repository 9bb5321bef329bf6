#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# kvm-probe.sh OUT : boots $BUILD/out/OUT once under KVM and writes "ok" or
# "no" to $BUILD/kvm-probe, which qemu.sh reads. /dev/kvm may exist while
# guests still fail to boot, so only a finished boot counts.
. "$(dirname "$0")/lib.sh"

out=$(out_dir "${1:?usage: kvm-probe.sh OUT}")
[ -f "$BUILD/kvm-probe" ] && exit 0
result=no
if [ -w /dev/kvm ]; then
	{ (timeout --foreground -k 5 60 qemu-system-x86_64 -machine "$QEMU_MACHINE" -accel kvm -cpu host -smp 1 -m 512M \
		-nographic -no-reboot -nic none -kernel "$out/arch/x86/boot/bzImage" \
		-initrd "$out/initramfs.cpio.gz" \
		-append "console=ttyS0 panic=-1 slab_bulk.mode=probe kunit.enable=0" \
		< /dev/null > "$BUILD/kvm-probe.log" 2>&1) || true; } 2>/dev/null
	grep -q '^==== slab_bulk: done' "$BUILD/kvm-probe.log" && result=ok
fi
echo "$result" > "$BUILD/kvm-probe"
log "KVM probe: $result (TCG unless ok)"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# initramfs.sh OUT : packs busybox, the modules of $BUILD/out/OUT, the
# slab_bulk kselftest of SRC (default $TREE) and scripts/guest-init into
# $BUILD/out/OUT/initramfs.cpio.gz.
. "$(dirname "$0")/lib.sh"

out=$(out_dir "${1:?usage: initramfs.sh OUT}")
src=${SRC:-$TREE}
root=$out/initramfs
rm -rf "$root"
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,lib,etc}
cp /bin/busybox "$root/bin/busybox"
cp "$TOP/scripts/guest-init" "$root/init"
chmod +x "$root/init"
cp -a "$out/modroot/lib/modules" "$root/lib/"
make -s -C "$src/tools/testing/selftests" TARGETS=slab_bulk \
	INSTALL_PATH="$root/kselftest" install >/dev/null
# make bench runs the network benchmarks (pktgen, traffic) of one tree
# (NET_BENCH_SRC, the series) on both kernels: the base's kselftest
# predates the traffic benchmark and the costmark calls.
if [ -n "${NET_BENCH_SRC:-}" ]; then
	make -s -C "$NET_BENCH_SRC/tools/testing/selftests" TARGETS=slab_bulk \
		INSTALL_PATH="$root/kselftest-net" install >/dev/null
fi
# The costmodel plugin's whole-machine marks for user space (plugin/).
bash "$TOP/scripts/plugin.sh" costmark
cp "$COSTMARK" "$root/bin/costmark"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$out/initramfs.cpio.gz"
log "packed $out/initramfs.cpio.gz"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# plugin.sh [costmark]: builds plugin/costmodel.c, the QEMU plugin that
# counts atomics, cache misses and cross-vCPU line transfers, into
# $PLUGIN_SO, and plugin/costmark.c, its marks for the guest's user space,
# into $COSTMARK; with "costmark", only the latter. The plugin's one build
# dependency is QEMU's plugin header, which no Debian binary package
# ships: it comes from the source tarball of Debian's QEMU 7.2 (the
# qemu-system-x86 the harness runs), pinned by SHA-256, of which only the
# header is kept.
. "$(dirname "$0")/lib.sh"

what=${1:-all}
need_one_of "plugin.sh argument" "$what" all costmark
mkdir -p "$(dirname "$COSTMARK")"
if [ ! -f "$COSTMARK" ] || [ "$TOP/plugin/costmark.c" -nt "$COSTMARK" ]; then
	gcc -O2 -Wall -Wextra -Werror -static -o "$COSTMARK.tmp$$" "$TOP/plugin/costmark.c"
	mv "$COSTMARK.tmp$$" "$COSTMARK"
fi
[ "$what" = all ] || exit 0

QEMU_ORIG=qemu_7.2+dfsg.orig.tar.xz
QEMU_ORIG_URL=http://deb.debian.org/debian/pool/main/q/qemu/$QEMU_ORIG
# snapshot.debian.org serves every file it archived by its SHA-1.
QEMU_ORIG_FALLBACK_URL=https://snapshot.debian.org/file/6ea9655c72a2f21ed0d301479e11194c84978514
QEMU_ORIG_SHA256=91aca71520040edc40b8d437aa3004dae614f58e286cf653ee8996c07af2962f
QEMU_HEADER=qemu-7.2.0/include/qemu/qemu-plugin.h

dir=$(dirname "$PLUGIN_SO")
header=$dir/include/qemu-plugin.h
src=$TOP/plugin/costmodel.c

qemu_ver=$(qemu-system-x86_64 --version | sed -n 's/^QEMU emulator version \([0-9]*\.[0-9]*\).*/\1/p')
[ "$qemu_ver" = 7.2 ] ||
	die "qemu-system-x86_64 is ${qemu_ver:-unknown}, the plugin is built for QEMU 7.2's plugin API (Debian 12)"

if [ ! -f "$header" ]; then
	mkdir -p "$dir/include"
	tmp=$(mktemp -d)
	fetch_pinned "$tmp/$QEMU_ORIG" "$QEMU_ORIG_SHA256" "$QEMU_ORIG_URL" "$QEMU_ORIG_FALLBACK_URL"
	tar -C "$tmp" -xJf "$tmp/$QEMU_ORIG" "$QEMU_HEADER"
	mv "$tmp/$QEMU_HEADER" "$header"
	rm -rf "$tmp"
fi
if [ ! -f "$PLUGIN_SO" ] || [ "$src" -nt "$PLUGIN_SO" ] || [ "$header" -nt "$PLUGIN_SO" ]; then
	log "building the costmodel plugin"
	gcc -O2 -g -Wall -Wextra -Werror -Wno-unused-parameter -shared -fPIC \
		-I "$dir/include" -o "$PLUGIN_SO.tmp$$" "$src"
	mv "$PLUGIN_SO.tmp$$" "$PLUGIN_SO"
fi

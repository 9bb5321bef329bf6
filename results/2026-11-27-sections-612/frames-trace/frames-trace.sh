#!/bin/bash
# frames-trace.sh SRC OUT: allnoconfig plus tracing, kprobes and
# SLUB_STATS (the configuration of the netdev review), the objects of the
# files the series changes built with -fstack-usage.
set -e
src=$1 out=$2
mkdir -p $out
cd $src
make -s O=$out allnoconfig
scripts/kconfig/merge_config.sh -m -O $out $out/.config "$(dirname "$0")"/trace.config > /dev/null
make -s O=$out olddefconfig
objs="mm/slub.o mm/page_alloc.o mm/vmalloc.o net/core/skbuff.o net/core/dev.o net/ipv4/tcp_input.o drivers/net/virtio_net.o drivers/net/ethernet/intel/ixgbe/ixgbe_main.o drivers/net/ethernet/intel/e1000e/netdev.o"
make -s -j2 O=$out KCFLAGS=-fstack-usage $objs

#!/bin/bash
# frames.sh SRC OUT CONFIGFILE: objects of the changed files, -fstack-usage
set -e
src=$1 out=$2 cfg=$3
mkdir -p $out
cp $cfg $out/.config
cd $src
scripts/config --file $out/.config --set-str SYSTEM_TRUSTED_KEYS "" --set-str SYSTEM_REVOCATION_KEYS "" --set-str MODULE_SIG_KEY "certs/signing_key.pem" -d MODULE_SIG_ALL -d DEBUG_INFO_BTF -d DEBUG_INFO_DWARF5 -e DEBUG_INFO_NONE
make -s O=$out olddefconfig
objs="mm/slub.o mm/page_alloc.o mm/vmalloc.o mm/mempolicy.o kernel/rcu/tree.o net/core/skbuff.o net/core/dev.o net/ipv4/tcp_input.o drivers/net/virtio_net.o drivers/net/ethernet/intel/ixgbe/ixgbe_main.o drivers/net/ethernet/intel/e1000e/netdev.o"
make -s -j2 O=$out KCFLAGS=-fstack-usage $objs

#!/bin/bash
# frames2.sh SRC OUT CONFIGFILE OBJS...: -fstack-usage and text of objects
set -e
src=$1 out=$2 cfg=$3; shift 3
mkdir -p $out
[ -f $out/.config ] || { cp $cfg $out/.config; cd $src; scripts/config --file $out/.config --set-str SYSTEM_TRUSTED_KEYS "" --set-str SYSTEM_REVOCATION_KEYS "" --set-str MODULE_SIG_KEY "certs/signing_key.pem" -d MODULE_SIG_ALL -d DEBUG_INFO_BTF -d DEBUG_INFO_DWARF5 -e DEBUG_INFO_NONE; make -s O=$out olddefconfig; }
cd $src
make -s -j2 O=$out KCFLAGS=-fstack-usage "$@"

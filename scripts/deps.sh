#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Installs from Debian's packages what the harness needs, once, and the
# packages named as arguments (make matrix's cross compiler).
. "$(dirname "$0")/lib.sh"

PKGS="build-essential flex bison bc libelf-dev libssl-dev
      dwarves qemu-system-x86 ccache sparse cpio kmod xz-utils busybox-static
      python3 python3-matplotlib git rsync curl $*"
# The base is not installed: its pinned .deb (BASE_DEB_URL) is fetched
# below, with curl, as is the source of QEMU's plugin header
# (scripts/plugin.sh).

missing=$(dpkg-query -W -f='${Package} ${db:Status-Status}\n' $PKGS 2>/dev/null |
	  awk '$2 != "installed" { print $1 }' || true)
# dpkg-query omits packages it has never heard of: count those too.
for p in $PKGS; do
	dpkg-query -W "$p" >/dev/null 2>&1 || missing="$missing $p"
done
missing=$(echo $missing | tr ' ' '\n' | sort -u | tr '\n' ' ')
if [ -n "${missing// /}" ]; then
	log "installing: $missing"
	[ "$(id -u)" = 0 ] || die "need root to install: $missing"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
if [ ! -f "$BASE_TARBALL" ]; then
	deb=$BUILD/src/${BASE_DEB_URL##*/}
	mkdir -p "$BUILD/src"
	log "fetching $BASE_PKG $BASE_DEB_VERSION"
	fetch_pinned "$deb" "$BASE_DEB_SHA256" "$BASE_DEB_URL" ${BASE_DEB_FALLBACK_URL:+"$BASE_DEB_FALLBACK_URL"}
	# Only the source tarball: the package is not installed.
	dpkg-deb --fsys-tarfile "$deb" |
		tar -x -O "$BASE_DEB_MEMBER" > "$BASE_TARBALL.part"
	mv "$BASE_TARBALL.part" "$BASE_TARBALL"
	rm -f "$deb"
fi
log "base: $BASE_PKG $(base_version)"

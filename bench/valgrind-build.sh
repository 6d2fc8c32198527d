#!/usr/bin/env bash
# bench/valgrind-build.sh: builds valgrind 3.24 into /opt/valgrind-3.24 (or PREFIX) for
# bench/callgrind-ops.sh.
#
# Debian 12's valgrind (3.19) stops at the DWARF 5 that Swift 6 writes ("unhandled dwarf2 abbrev
# form code 0x25", then "Possibly corrupted debuginfo file"), and with the debug info stripped it
# crashes in libdispatch's start-up. 3.24 (Debian 13's source package, fetched through Debian's
# mirror) reads the DWARF; one more fix is needed: its rt_sigsuspend wrapper removes its own
# signal from the caller's mask in place, and libdispatch's main thread passes a mask in
# read-only memory (`_dispatch_sigsuspend`), so valgrind faults on its own write ("Valgrind
# received a signal 11"). The patch below hands the kernel a copy of the mask instead.
#
# About five minutes on 2 cores. Needs build-essential (gcc, make) and network access to
# deb.debian.org; leaves the system's apt sources as they were.
set -euo pipefail
PREFIX=${PREFIX:-/opt/valgrind-3.24}
if [ -x "$PREFIX/bin/valgrind" ]; then echo "$PREFIX/bin/valgrind is there"; exit 0; fi
SUDO=; [ "$(id -u)" = 0 ] || SUDO=sudo
work=$(mktemp -d /tmp/valgrind-build.XXXX)
list=/etc/apt/sources.list.d/signet-valgrind-src.list
trap '$SUDO rm -f "$list"; $SUDO apt-get update -qq >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
echo "deb-src http://deb.debian.org/debian trixie main" | $SUDO tee "$list" >/dev/null
$SUDO apt-get update -qq
cd "$work"
apt-get source --download-only valgrind/trixie >/dev/null 2>&1
tar xjf valgrind_3.24.0.orig.tar.bz2
cd valgrind-3.24.0
python3 - <<'EOF'
path = 'coregrind/m_syswrap/syswrap-linux.c'
text = open(path).read()
old = """      if (ML_(safe_to_deref)((vki_sigset_t *) (Addr)ARG1, sizeof(vki_sigset_t))) {
         VG_(sigdelset)((vki_sigset_t *) (Addr)ARG1, VG_SIGVGKILL);"""
new = """      if (ML_(safe_to_deref)((vki_sigset_t *) (Addr)ARG1, sizeof(vki_sigset_t))) {
         /* The caller's mask may be read-only (libdispatch's is): change a copy. */
         static vki_sigset_t copies[4096];
         copies[tid] = *(vki_sigset_t *) (Addr)ARG1;
         ARG1 = (Addr)&copies[tid];
         VG_(sigdelset)((vki_sigset_t *) (Addr)ARG1, VG_SIGVGKILL);"""
assert old in text, 'the rt_sigsuspend wrapper is not as expected'
open(path, 'w').write(text.replace(old, new))
EOF
./configure --prefix="$PREFIX" >/dev/null
make -j"$(nproc)" >/dev/null
$SUDO make install >/dev/null
"$PREFIX/bin/valgrind" --version

# tests/e2e/common.sh - shared settings of the host-side e2e scripts (sourced).
# Everything downloaded or built for the VM lives under $ZL_E2E_CACHE, never in
# the repository.
ZL_E2E_CACHE=${ZL_E2E_CACHE:-/var/cache/zonelab-e2e}
E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$E2E_DIR/../.." && pwd)
DEBS=$ZL_E2E_CACHE/debs
ROOT=$ZL_E2E_CACHE/root            # every .deb unpacked (dpkg-deb -x)
FIO_SRC_DIR=$ZL_E2E_CACHE/fio-src
LDSO=$ROOT/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2   # the unpacked loader (lib64/ links to an absolute path)
LIBPATH=$ROOT/lib/x86_64-linux-gnu:$ROOT/usr/lib/x86_64-linux-gnu:$ROOT/usr/lib/x86_64-linux-gnu/ceph

# The guest kernel (make e2e KERNEL=...): 6.1 is Debian 12's, unpacked into
# $ROOT with the user space (fetch.sh); any other X.Y is the newest
# linux-image-amd64 of Debian 13 (trixie, 6.12) or trixie-backports (7.3...)
# whose version starts with X.Y, fetched by fetch-kernel.sh through a private
# apt configuration ($APT_DIR) and unpacked into a tree of its own,
# $ZL_E2E_CACHE/kernels/X.Y/ (boot/vmlinuz-KVER, lib/modules/KVER/), beside
# the one Debian 12 user space.  KTREE holds the kernel, $KTREE/.kver its
# version (uname -r).
E2E_KERNEL=${E2E_KERNEL:-6.1}
case $E2E_KERNEL in
6.1) KTREE=$ROOT ;;
[0-9]*.[0-9]*) [[ $E2E_KERNEL =~ ^[0-9]+\.[0-9]+$ ]] ||
	{ echo "e2e: KERNEL=$E2E_KERNEL: want MAJOR.MINOR (6.1, 6.12, 7.3)" >&2; exit 1; }
	KTREE=$ZL_E2E_CACHE/kernels/$E2E_KERNEL ;;
*) echo "e2e: KERNEL=$E2E_KERNEL: want MAJOR.MINOR (6.1, 6.12, 7.3)" >&2; exit 1 ;;
esac
APT_DIR=$ZL_E2E_CACHE/apt-trixie

# Guest userspace, by Debian package name.  Their Depends closure restricted
# to lib* packages is downloaded too; the files that go into the initramfs are
# chosen by the unpacked ld.so's --list, not by package.
E2E_PKGS="busybox-static libc6 libgcc-s1 kmod bash coreutils grep sed gawk
  util-linux sg3-utils btrfs-progs f2fs-tools fio tcmu-runner libtcmu2
  open-iscsi libiscsi-bin zlib1g"
# targetcli (part 3 of issue 13): python3, targetcli-fb and rtslib with their
# python closure (not lib*, so named here), the D-Bus system bus it talks to
# tcmu-runner over.
E2E_PKGS="$E2E_PKGS python3 python3-minimal python3.11 python3.11-minimal
  targetcli-fb python3-rtslib-fb python3-configshell-fb python3-gi
  gir1.2-glib-2.0 python3-pyudev python3-six python3-pyparsing python3-urwid
  dbus-daemon dbus-bin dbus-system-bus-common"
E2E_PKGS="$E2E_PKGS blktrace"  # vm_trace (46-vm-trace.sh): blktrace of the traced disk
E2E_PKGS="$E2E_PKGS zbd-utils"  # libzbd's zbd tool (zonefs/libzbd check; zonefs-tools is not in Debian 12)
E2E_PKGS="$E2E_PKGS nvme-cli"  # NVMe ZNS over nvmet (77-nvme-*.sh): nvme connect, nvme zns

e2e_log() { printf '[e2e %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
e2e_die() { e2e_log "error: $*"; exit 1; }

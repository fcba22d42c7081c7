#!/bin/bash
# tests/e2e/mkinitramfs.sh OUT.cpio [BUILD_DIR] - build the VM's uncompressed
# newc initramfs from the unpacked Debian packages in $ZL_E2E_CACHE/root:
#   base.cpio (cached): the guest's binaries and their shared-library closure
#     (resolved with the unpacked ld.so --list; a library that would come from
#     the host is an error), the kernel's modules + modules.dep closure;
#   overlay (every run): /init, the checks, fio's t/zbd suite, and ours
#     installed by `make install PREFIX=/usr DESTDIR=overlay` from BUILD_DIR
#     when it holds handler_zonelab.so and zonelab.
# OUT = base + overlay concatenated (the kernel unpacks both).
set -euo pipefail
. "$(dirname "$0")/common.sh"
out=$1; build=${2:-}
[ -f "$ROOT/.unpacked" ] || e2e_die "run tests/e2e/fetch.sh first"
[ -f "$KTREE/.unpacked" ] || e2e_die "kernel $E2E_KERNEL not fetched: run E2E_KERNEL=$E2E_KERNEL tests/e2e/fetch.sh"
kver=$(cat "$KTREE/.kver")
# The guest's modules, as specs of guest/kmods.sh (a|b: the first the kernel
# has; a missing required one stops the build with its name), plus their
# modules.dep closure.  The CRCs: crc32c_generic / crc32_generic up to 6.x,
# the crypto API's wrappers of the CRC library since 7.x.
MODULES="configfs target_core_mod target_core_user uio tcm_loop sd_mod sg
  crc32c_generic|crc32c_cryptoapi crc32_generic|crc32_cryptoapi
  btrfs f2fs iscsi_target_mod iscsi_tcp scsi_debug target_core_file zonefs
  nvmet? nvmet-tcp? nvme-tcp? nvme-loop? nvme-fabrics? null_blk?"
. "$E2E_DIR/guest/kmods.sh"

# copy_with_libs STAGE FILE... - copy ROOT-relative files and their libraries.
copy_with_libs() {
	local stage=$1 f l; shift
	for f in "$@"; do
		mkdir -p "$stage/$(dirname "$f")"
		cp -a "$ROOT/$f" "$stage/$f"
	done
	for f in "$@"; do
		[ -L "$ROOT/$f" ] && continue
		head -c 4 "$ROOT/$f" | grep -q 'ELF' || continue
		# Static binaries (busybox-static) make ld.so --list fail: skip them.
		lst=$("$LDSO" --inhibit-cache --library-path "$LIBPATH" --list "$ROOT/$f" 2>/dev/null) || continue
		echo "$lst" |
			awk '/=>/ { print $1, $3 } !/=>/ && /^\t\// { print "", $1 }' |
			while read -r so path; do
				case $path in
				"$ROOT"/*) l=${path#$ROOT} ;;
				not) e2e_die "$f: $so not found in the unpacked packages" ;;
				/*) [ "$so" = "" ] && continue  # the loader itself
				    e2e_die "$f: $so resolves to the host ($path): add its package to E2E_PKGS" ;;
				*) continue ;;
				esac
				[ -e "$stage$l" ] && continue
				mkdir -p "$stage$(dirname "$l")"
				cp -L "$path" "$stage$l"
			done
	done
}

build_base() {
	local stage=$1 f m
	rm -rf "$stage"; mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,lib64,etc,e2e,mnt,tmp,run}
	# Every executable of the unpacked packages (they are all guest tools).
	# (zbd-utils' GTK viewers gzbd* excepted: their GTK closure is not needed.)
	mapfile -t files < <(cd "$ROOT" && find bin sbin usr/bin usr/sbin \( -type f -o -type l \) ! -name 'gzbd*' | sort)
	copy_with_libs "$stage" "${files[@]}"
	# tcmu-runner's handler directory, glibc's dlopened libgcc_s, the loader.
	mapfile -t files < <(cd "$ROOT" && ls usr/lib/x86_64-linux-gnu/tcmu-runner/*.so lib/x86_64-linux-gnu/libgcc_s.so.1 2>/dev/null)
	copy_with_libs "$stage" "${files[@]}"
	cp -L "$LDSO" "$stage/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"
	ln -sf /lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 "$stage/lib64/ld-linux-x86-64.so.2"
	ln -sf bash "$stage/bin/sh"
	ln -sf gawk "$stage/usr/bin/awk"   # what update-alternatives would do
	cp -a "$ROOT/etc/tcmu" "$stage/etc/"
	# targetcli: python3 with its standard library, the python packages
	# (targetcli, rtslib, configshell, gi, pyudev...), GLib's typelibs, the
	# D-Bus system bus configuration (tcmu-runner's policy is in
	# /etc/dbus-1/system.d); the ELF modules among them get their libraries;
	# everything byte-compiled here (the guest would compile on every start).
	local pydirs=(usr/lib/python3.11 usr/lib/python3/dist-packages usr/lib/x86_64-linux-gnu/girepository-1.0 usr/share/dbus-1)
	for f in "${pydirs[@]}"; do
		[ -d "$ROOT/$f" ] || continue
		mkdir -p "$stage/$(dirname "$f")" && cp -a "$ROOT/$f" "$stage/$f"
	done
	rm -rf "$stage"/usr/lib/python3.11/{test,idlelib,tkinter,turtledemo,lib2to3,ensurepip}
	mapfile -t files < <(cd "$ROOT" && find usr/lib/python3.11 usr/lib/python3/dist-packages -name '*.so' 2>/dev/null | grep -v '/test/' | sort)
	[ ${#files[@]} -eq 0 ] || copy_with_libs "$stage" "${files[@]}"
	[ -d "$ROOT/etc/dbus-1" ] && cp -a "$ROOT/etc/dbus-1" "$stage/etc/"
	if [ -x "$ROOT/usr/bin/python3.11" ]; then
		PYTHONHOME=$ROOT/usr "$LDSO" --library-path "$LIBPATH" "$ROOT/usr/bin/python3.11" -m compileall -q -j 2 \
			-s "$stage" -p / "$stage/usr/lib/python3.11" "$stage/usr/lib/python3/dist-packages" > /dev/null ||
			e2e_die "byte-compiling the guest's python"
	fi
	mkdir -p "$stage/var/lib/dbus" "$stage/etc/target"
	ln -sfn /run "$stage/var/run"
	echo 5a6f6e656c61622d653265000000000d > "$stage/etc/machine-id"   # fixed: "zonelab-e2e"
	ln -sf /etc/machine-id "$stage/var/lib/dbus/machine-id"
	ln -sf /proc/mounts "$stage/etc/mtab"
	printf '%s\n' "root:x:0:0:root:/:/bin/bash" "messagebus:x:100:101::/nonexistent:/bin/false" > "$stage/etc/passwd"
	printf '%s\n' "root:x:0:" "messagebus:x:101:" > "$stage/etc/group"
	mkdir -p "$stage/etc/iscsi" && echo "InitiatorName=iqn.2003-01.org.zonelab:guest" > "$stage/etc/iscsi/initiatorname.iscsi"
	# Kernel modules: the list plus its modules.dep closure, uncompressed
	# (Debian 13 ships .ko.xz; the initramfs is not compressed either, and
	# the guest's kmod then reads them as they are); depmod again.
	local mdir=lib/modules/$kver kdir=$KTREE/lib/modules/$kver need=() r name where
	for m in $MODULES; do
		r=$(kmod_resolve "$kdir" "$m") || e2e_die "kernel $kver has $(kmod_missing "$m") (neither in modules.dep nor in modules.builtin of $kdir): the e2e checks need it"
		read -r name where <<< "$r"
		case $where in
		"") ;;
		builtin) e2e_log "module $name: built into $kver" ;;
		*) need+=($(awk -v p="$where:" '$1 == p { $1 = ""; print p, $0; exit }' "$kdir/modules.dep" | tr -d ':')) ;;
		esac
	done
	for m in $(printf '%s\n' "${need[@]}" | sort -u); do
		mkdir -p "$stage/$mdir/$(dirname "$m")"
		case $m in
		*.ko.xz) xz -dc "$kdir/$m" > "$stage/$mdir/${m%.xz}" ;;
		*.ko.zst) zstd -qdc "$kdir/$m" > "$stage/$mdir/${m%.zst}" ;;
		*.ko.gz) gzip -dc "$kdir/$m" > "$stage/$mdir/${m%.gz}" ;;
		*) cp "$kdir/$m" "$stage/$mdir/$m" ;;
		esac || e2e_die "cannot copy module $m of $kver"
	done
	cp "$kdir"/modules.{order,builtin,builtin.modinfo} "$stage/$mdir/" 2>/dev/null || true
	"$LDSO" --library-path "$LIBPATH" --argv0 depmod "$ROOT/bin/kmod" -b "$stage" "$kver"
	(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) > "$stage.cpio"
}

# One base per kernel version (runs on several kernels share a cache).
base=$ZL_E2E_CACHE/initrd-base-$kver
key=$( (cat "$ZL_E2E_CACHE/pkgs.list"; sed -n '/^build_base/,/^}/p' "$0"; echo "$MODULES $kver"; cat "$E2E_DIR/guest/kmods.sh") | sha256sum | cut -c1-16)
if [ ! -f "$base.cpio" ] || [ "$(cat "$base.key" 2>/dev/null)" != "$key" ]; then
	e2e_log "building the initramfs base (kernel $kver)"
	build_base "$base"
	echo "$key" > "$base.key"
fi

# The overlay is per run (runs may overlap: several build dirs, one cache).
ov=$(mktemp -d "$ZL_E2E_CACHE/initrd-overlay.XXXXXX")
trap 'rm -rf "$ov" "$ov.cpio"' EXIT
mkdir -p "$ov/e2e/handlers" "$ov/e2e/bin" "$ov/e2e/fio"
cp "$E2E_DIR/guest/init" "$ov/init"
mkdir -p "$ov/etc/rtslib-fb-target"   # rtslib's dbroot (python3-rtslib-fb's postinst makes it)
cp -r "$E2E_DIR/guest/run-checks.sh" "$E2E_DIR/guest/lib.sh" "$E2E_DIR/guest/kmods.sh" "$E2E_DIR/guest/nvme.sh" "$E2E_DIR/guest/zonefs.sh" "$E2E_DIR/guest/fiosuite.sh" "$E2E_DIR/guest/ksigs.awk" "$E2E_DIR"/guest/handler-*.sh "$E2E_DIR"/guest/*.py "$E2E_DIR/guest/checks" "$ov/e2e/"
ln -s /usr/lib/x86_64-linux-gnu/tcmu-runner/handler_file_zbc.so "$ov/e2e/handlers/"
# Ours as a user installs it: `make install PREFIX=/usr` into the guest's
# root (zonelab in /usr/bin, handler_zonelab.so in tcmu-runner's default
# handler directory, man page, completion, docs).  /e2e/bin and
# /e2e/handlers keep links for older check scripts.
if [ -n "$build" ] && [ -f "$build/handler_zonelab.so" ] && [ -x "$build/zonelab" ]; then
	make -s --no-print-directory -C "$REPO_DIR" O="$build" install DESTDIR="$ov" PREFIX=/usr \
		> "$ov.install.log" 2>&1 || { cat "$ov.install.log" >&2; e2e_die "make install into the guest tree failed"; }
	rm -f "$ov.install.log"
	hdir=$(cd "$ov" && ls -d usr/lib/*/tcmu-runner)
	[ -f "$ov/$hdir/handler_zonelab.so" ] || e2e_die "make install put no handler_zonelab.so into tcmu-runner's directory"
	(cd "$ov" && find . ! -type d | sed 's|^\.||' | LC_ALL=C sort) > "$ov/e2e/installed.list"
	ln -s "/$hdir/handler_zonelab.so" "$ov/e2e/handlers/handler_zonelab.so"
	ln -s /usr/bin/zonelab "$ov/e2e/bin/zonelab"
	e2e_log "installed $build's zonelab and handler_zonelab.so into the guest (make install PREFIX=/usr)"
fi
# Our own ELF files must find all their libraries in the guest.
for f in "$ov"/usr/lib/*/tcmu-runner/*.so "$ov"/usr/bin/*; do
	[ -f "$f" ] || continue
	head -c 4 "$f" | grep -q ELF || continue   # zonelab-nvmet is a script
	miss=$("$LDSO" --inhibit-cache --library-path "$base/lib/x86_64-linux-gnu:$base/usr/lib/x86_64-linux-gnu" --list "$f" 2>&1 | awk -v b="$base/" '/=>/ && $1 !~ "ld-linux" && index($3, b) != 1 { print $1 }' | tr '\n' ' ')
	[ -z "$miss" ] || e2e_log "warning: ${f##*/} needs libraries that are not in the guest: $miss"
done
fsrc=$(ls -d "$FIO_SRC_DIR"/fio-*/ 2>/dev/null | head -1)
if [ -n "$fsrc" ]; then
	mkdir -p "$ov/e2e/fio/t" && cp -r "$fsrc/t/zbd" "$ov/e2e/fio/t/"
	ln -s /usr/bin/fio "$ov/e2e/fio/fio"
fi
cat > "$ov/e2e/config.sh" <<CFG
E2E_MODE=${E2E_MODE:-short}
E2E_HANDLER=${E2E_HANDLER:-zbc}
E2E_ONLY=${E2E_ONLY:-}
E2E_LBA=${E2E_LBA:-512}
E2E_LOAD_SECS=${E2E_LOAD_SECS:-60}
E2E_FIO_XFAIL="${E2E_FIO_XFAIL:-54}"
$(for v in E2E_SUITE_FAMILIES E2E_SUITE_XFAIL KWA_POINTS KWA_DISK_MIB KWA_ZONE_MIB KWA_NCONV KWA_PASSES KWA_PHASES KWA_BS KWA_COMMIT KWA_TMO KWA_TRACE KWA_BT_BUF KWA_BT_NBUF E2E_NVME_FIO E2E_NVME_FIO_XDIFF E2E_NVME_FIO_TESTS E2E_NVME_FIO_ON E2E_SUITE_TIMEOUT E2E_NVME_SPEED E2E_SPEED_SECS E2E_SOAK E2E_SOAK_RESETS E2E_SOAK_ROUNDS NVB_FILES NVB_MIB E2E_TIMING TM_QD1_SECS TM_QD32_SECS TM_ROUNDS TM_BTRFS_PHASES; do
	[ -z "${!v:-}" ] || printf '%s="%s"\n' $v "${!v}"; done)
CFG
chmod +x "$ov/init"
(cd "$ov" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) > "$ov.cpio"
cat "$base.cpio" "$ov.cpio" > "$out"
e2e_log "initramfs $out: $(du -m "$out" | cut -f1) MiB"

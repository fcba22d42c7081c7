#!/bin/bash
# tests/e2e/fetch-kernel.sh - fetch and unpack the guest kernel E2E_KERNEL
# (MAJOR.MINOR, not 6.1: Debian 12's own kernel comes with the user space in
# fetch.sh) from Debian 13: the newest version of `linux-image-amd64` in
# trixie or trixie-backports that starts with MAJOR.MINOR (6.12: trixie's
# linux-image-6.12.x+deb13-amd64; 7.3: trixie-backports', split into
# linux-image- (empty), linux-binary- (vmlinuz under
# usr/lib/modules/KVER/), linux-modules- and linux-base- (modules.builtin,
# config, System.map) packages).
#
# apt runs with a private configuration in $APT_DIR (its own sources.list,
# state, lists and download cache; the host's /etc/apt is read, never
# written): no change to the host outlives the run.  The packages are
# unpacked with dpkg-deb -x into $KTREE = $ZL_E2E_CACHE/kernels/MAJOR.MINOR,
# normalised to boot/vmlinuz-KVER and lib/modules/KVER/ (where Debian 12's
# depmod and the initramfs look), and depmod'ed with the Debian 12 kmod
# unpacked in $ROOT (it reads the .ko.xz modules).  Cached: a tree whose
# version is still the newest is reused; the lists are refreshed once a day,
# and an unreachable archive falls back to the tree already there.
set -euo pipefail
. "$(dirname "$0")/common.sh"
[ "$E2E_KERNEL" != 6.1 ] || exit 0
[ -x "$LDSO" ] && [ -e "$ROOT/bin/kmod" ] || e2e_die "run fetch.sh first (no unpacked kmod in $ROOT)"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -f $keyring ] || e2e_die "$keyring missing (apt-get install debian-archive-keyring)"
mkdir -p "$APT_DIR"/etc/sources.list.d "$APT_DIR"/etc/preferences.d \
	"$APT_DIR"/state/lists/partial "$APT_DIR"/cache/archives/partial "$ZL_E2E_CACHE/kernels"
[ -f "$APT_DIR/state/status" ] || : > "$APT_DIR/state/status"
cat > "$APT_DIR/etc/sources.list" <<SRC
deb [signed-by=$keyring] http://deb.debian.org/debian trixie main
deb [signed-by=$keyring] http://deb.debian.org/debian trixie-backports main
SRC
cat > "$APT_DIR/apt.conf" <<CONF
Dir::Etc::SourceList "$APT_DIR/etc/sources.list";
Dir::Etc::SourceParts "$APT_DIR/etc/sources.list.d";
Dir::Etc::Preferences "$APT_DIR/etc/preferences";
Dir::Etc::PreferencesParts "$APT_DIR/etc/preferences.d";
Dir::State "$APT_DIR/state";
Dir::State::status "$APT_DIR/state/status";
Dir::Cache "$APT_DIR/cache";
APT::Architecture "amd64";
APT::Architectures { "amd64"; };
APT::Sandbox::User "root";
Acquire::Languages "none";
CONF
export APT_CONFIG=$APT_DIR/apt.conf
# One fetcher at a time per cache (runs on several kernels may start together).
exec 9> "$ZL_E2E_CACHE/.fetch-kernel.lock"
flock 9

lists=$(find "$APT_DIR/state/lists" -maxdepth 1 -name '*trixie-backports*Packages*' -mmin -1440 | head -1)
if [ -z "$lists" ]; then
	e2e_log "apt-get update (trixie, trixie-backports) with the private configuration in $APT_DIR"
	apt-get update -qq > "$APT_DIR/update.log" 2>&1 || {
		[ -f "$KTREE/.unpacked" ] || { cat "$APT_DIR/update.log" >&2; e2e_die "apt-get update of trixie failed (see above)"; }
		e2e_log "warning: apt-get update failed; using the kernel already in $KTREE ($(cat "$KTREE/.kver"))"
		exit 0
	}
fi

# The newest linux-image-amd64 whose version starts with MAJOR.MINOR.
ver=$(apt-cache madison linux-image-amd64 | awk -F' [|] ' -v k="$E2E_KERNEL." 'index($2, k) == 1 { print $2 }' | sort -V | tail -1)
if [ -z "$ver" ]; then
	e2e_die "KERNEL=$E2E_KERNEL: no linux-image-amd64 $E2E_KERNEL.x in trixie or trixie-backports (there: $(apt-cache madison linux-image-amd64 | awk -F' [|] ' '{ printf "%s ", $2 }'))"
fi
kpkg=$(apt-cache show "linux-image-amd64=$ver" | sed -n 's/^Depends: //p' | head -1 | tr ',' '\n' |
	grep -oE 'linux-image-[0-9][^ (]*' | head -1)
[ -n "$kpkg" ] || e2e_die "linux-image-amd64 $ver depends on no linux-image-VERSION package"
kver=${kpkg#linux-image-}
# Since 7.x the image package is empty and depends on the parts.
pkgs="$kpkg $(apt-cache show "$kpkg" | sed -n 's/^Depends: //p' | head -1 | tr ',|' '\n\n' |
	awk -v k="$kver" '{ p = $1 } p == "linux-base-" k || p == "linux-binary-" k || p == "linux-modules-" k { print p }' |
	sort -u | tr '\n' ' ')"
if [ -f "$KTREE/.unpacked" ] && [ "$(cat "$KTREE/.kver")" = "$kver" ]; then
	exit 0
fi
e2e_log "kernel $E2E_KERNEL: $kver (linux-image-amd64 $ver): downloading $pkgs"
new=$KTREE.new; rm -rf "$new"; mkdir -p "$new/.debs"
# apt-get download prints nothing for files already in the cwd: an empty one.
(cd "$new/.debs" && apt-get download -qq $pkgs > /dev/null) || e2e_die "apt-get download $pkgs failed"
for f in "$new"/.debs/*.deb; do dpkg-deb -x "$f" "$new"; done
# Normalise: the modules under lib/modules (trixie ships usr/lib/modules),
# the kernel as boot/vmlinuz-KVER (7.x: in the modules directory).
if [ -d "$new/usr/lib/modules/$kver" ]; then
	mkdir -p "$new/lib/modules"
	mv "$new/usr/lib/modules/$kver" "$new/lib/modules/$kver"
fi
mkdir -p "$new/boot"
for f in vmlinuz config System.map; do
	[ -e "$new/lib/modules/$kver/$f" ] && [ ! -e "$new/boot/$f-$kver" ] && mv "$new/lib/modules/$kver/$f" "$new/boot/$f-$kver"
done
[ -f "$new/boot/vmlinuz-$kver" ] || e2e_die "no vmlinuz in $pkgs"
[ -f "$new/lib/modules/$kver/modules.builtin" ] || e2e_die "no modules.builtin in $pkgs"
"$LDSO" --library-path "$LIBPATH" --argv0 depmod "$ROOT"/bin/kmod -b "$new" "$kver" ||
	e2e_die "depmod of $kver (Debian 12's kmod) failed"
[ -s "$new/lib/modules/$kver/modules.dep" ] || e2e_die "depmod wrote no modules.dep for $kver"
rm -f "$new"/.debs/*.deb   # the unpacked tree is what is used
echo "$pkgs" > "$new/.debs/list"
echo "$kver" > "$new/.kver"
touch "$new/.unpacked"
rm -rf "$KTREE" && mv "$new" "$KTREE"
e2e_log "kernel $E2E_KERNEL: $kver unpacked into $KTREE"

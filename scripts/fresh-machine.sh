#!/usr/bin/env bash
# The README's test command on a machine where nothing of dlbkit's was installed before: a
# minimal Debian 12 made with debootstrap from Debian's packages, the committed tree (HEAD,
# exported without git) copied in, and scripts/test.sh run there as root from a clean
# environment, installing everything else itself. Needs root and debootstrap (apt-get install
# debootstrap); takes about as long as scripts/test.sh plus a few minutes.
#
# Usage: scripts/fresh-machine.sh [FOLDER]   (default /tmp/dlbkit-fresh; made anew, removed after)
#        DLBKIT_FRESH_KEEP=1 keeps the folder; DLBKIT_FRESH_MIRROR names another Debian mirror.
set -euo pipefail
cd "$(dirname "$0")/.."
root=${1:-/tmp/dlbkit-fresh}
mirror=${DLBKIT_FRESH_MIRROR:-http://deb.debian.org/debian}
[ "$(id -u)" -eq 0 ] || { echo "fresh-machine.sh: needs root (debootstrap, chroot, mounts)" >&2; exit 2; }
command -v debootstrap >/dev/null || { echo "fresh-machine.sh: needs debootstrap (apt-get install debootstrap)" >&2; exit 2; }
[ ! -e "$root" ] || { echo "fresh-machine.sh: $root exists; give a new folder" >&2; exit 2; }

mounts=()
cleanup() {
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount -l "${mounts[i]}" 2>/dev/null || true; done
  [ "${DLBKIT_FRESH_KEEP:-0}" = 1 ] || rm -rf --one-file-system "$root"
}
trap cleanup EXIT
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$root.debootstrap.log" 2>&1 ||
  { tail -20 "$root.debootstrap.log" >&2; exit 1; }
rm -f "$root.debootstrap.log"
for fs in proc sys dev dev/pts dev/shm; do
  mount --bind "/$fs" "$root/$fs"
  mounts+=("$root/$fs")
done
cp /etc/resolv.conf "$root/etc/resolv.conf"
mkdir -p "$root/src/dlbkit"
git archive HEAD | tar -x -C "$root/src/dlbkit"
echo "fresh-machine.sh: Debian $(cat "$root/etc/debian_version") (debootstrap minbase), $(chroot "$root" dpkg-query -W | wc -l) packages; dlbkit $(git rev-parse --short HEAD)"
chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  LANG=C.UTF-8 bash -c 'cd /src/dlbkit && time bash scripts/test.sh'

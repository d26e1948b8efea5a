#!/usr/bin/env bash
# npm run test:vm — the cgroup v2 stage (scenarios.sh beside this file) in a virtual machine shaped
# like a GitHub-hosted runner, for machines whose own cgroups are not v2: Debian's kernel, systemd on
# the unified cgroup hierarchy, a `runner` user (uid 1001) with passwordless sudo. The work tree is
# copied in, and `runner` runs scenarios.sh, which runs the scenarios as itself and as root.
#
# The image is built once from Debian's package archive and cached in $PRL_VM_CACHE (default: the
# ignored .cache/vm/ of this repository, ~1 GB); each boot starts from the cached image unchanged
# (QEMU's snapshot mode), so nothing a run does stays in it. Root only (apt-get, mmdebstrap).
#
#   vm.sh [--rebuild] [--build-only] [--budget SECONDS] [--accel kvm|tcg] [-- COMMAND...]
#
# --rebuild builds the image again. --budget is the stage's, boot included, counted once the image is
# ready (default 720 s: 12 minutes; a build, about two minutes, happens once). --accel defaults to kvm
# where /dev/kvm is a hardware hypervisor and to tcg (emulation, 5 to 30 times slower) elsewhere. A
# COMMAND runs instead of scenarios.sh, as `runner`, in the work tree (to look around:
# vm.sh -- 'cat /proc/self/cgroup; sudo -n ls /sys/fs/cgroup').
#
# Exit: the scenarios' status; 3 when the stage did not run (no root, or Debian's archive out of
# reach while the image had to be built): it says so loudly, and CI sees a failure; 124 when the
# budget ran out; 125 when the VM stopped before the scenarios finished.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CACHE=${PRL_VM_CACHE:-$ROOT/.cache/vm}
SUITE=bookworm
MIRROR=${PRL_VM_MIRROR:-http://deb.debian.org/debian}
# What a hosted runner has that the scenarios use; the kernel is Debian's generic amd64 flavour.
PACKAGES=linux-image-amd64,initramfs-tools,systemd,systemd-sysv,udev,dbus,sudo,git,bubblewrap,procps,kmod
PACKAGES+=,ca-certificates
RECIPE=3

budget=720 rebuild=0 build_only=0 accel=${PRL_VM_ACCEL:-}
while [ $# -gt 0 ]; do
  case "$1" in
    --rebuild) rebuild=1 ;;
    --build-only) build_only=1 ;;
    --budget) budget=$2; shift ;;
    --accel) accel=$2; shift ;;
    --) shift; break ;;
    *) echo "vm.sh: unknown option $1 (see its first lines)" >&2; exit 2 ;;
  esac
  shift
done

say() { printf 'vm: %s\n' "$*" >&2; }
# The stage did not run: said so it cannot be mistaken for a pass, and an exit status CI fails on.
did_not_run() {
  {
    echo '################################################################################'
    echo "# THE CGROUP V2 VM STAGE DID NOT RUN: $*"
    echo '# Nothing was tested on cgroup v2; this is not a pass.'
    echo '################################################################################'
  } >&2
  exit 3
}

[ "$(uname -m)" = x86_64 ] || did_not_run "it needs an x86_64 Linux machine (this is $(uname -sm))"
[ "$(id -u)" = 0 ] || did_not_run "it needs root (apt-get, mmdebstrap); run it as root or with sudo"

host_tools() {
  local need=()
  command -v qemu-system-x86_64 >/dev/null || need+=(qemu-system-x86)
  command -v mmdebstrap >/dev/null || need+=(mmdebstrap)
  command -v mkfs.ext4 >/dev/null || need+=(e2fsprogs)
  [ ${#need[@]} -eq 0 ] && return 0
  say "installing ${need[*]} with apt-get (Debian's packages)"
  { apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}"; } \
    >"$CACHE/host-tools.log" 2>&1 || did_not_run "apt-get could not install ${need[*]} (see $CACHE/host-tools.log)"
}

node_bin=$(readlink -f "$(command -v node)")
stamp="recipe $RECIPE $SUITE $PACKAGES node $("$node_bin" --version)"

# ---- the image: Debian with systemd, Debian's kernel and an initramfs from initramfs-tools --------
build() {
  local t0 dir=$CACHE/rootfs.tmp
  t0=$(date +%s)
  rm -rf "$dir" "$CACHE/rootfs.ext4.tmp"
  # Before the kernel's package runs update-initramfs: a small initramfs (the listed modules and
  # what the hook adds: the virtio disk and ext4), gzip (zstd is not installed).
  local setup='mkdir -p "$1/etc/initramfs-tools/conf.d" "$1/etc/initramfs-tools/hooks"
    printf "MODULES=list\nCOMPRESS=gzip\n" > "$1/etc/initramfs-tools/conf.d/prl-vm"
    printf "#!/bin/sh\n[ \"\$1\" = prereqs ] && exit 0\n. /usr/share/initramfs-tools/hook-functions\n%s\n" \
      "manual_add_modules virtio_pci virtio_blk ext4 crc32c_generic" > "$1/etc/initramfs-tools/hooks/prl-vm"
    chmod 755 "$1/etc/initramfs-tools/hooks/prl-vm"'
  # apt's own downloader, with apt's proxy settings: can the archive be reached at all?
  /usr/lib/apt/apt-helper download-file "$MIRROR/dists/$SUITE/InRelease" "$CACHE/InRelease" >"$CACHE/probe.log" 2>&1 ||
    did_not_run "Debian's package archive ($MIRROR) is out of reach: $(tail -1 "$CACHE/probe.log")"
  rm -f "$CACHE/InRelease"
  say "building the image: mmdebstrap $SUITE from $MIRROR (about two minutes)"
  if ! mmdebstrap --quiet --variant=minbase --include="$PACKAGES" --setup-hook="$setup" \
    "$SUITE" "$dir" "deb $MIRROR $SUITE main" "deb $MIRROR $SUITE-updates main" >"$CACHE/mmdebstrap.log" 2>&1; then
    grep -q 'apt-get update .* failed' "$CACHE/mmdebstrap.log" &&
      did_not_run "Debian's package archive ($MIRROR) did not answer apt-get update (see $CACHE/mmdebstrap.log)"
    tail -20 "$CACHE/mmdebstrap.log" >&2
    say "mmdebstrap failed (log: $CACHE/mmdebstrap.log)"
    exit 125
  fi
  configure "$dir"
  cp "$(ls "$dir"/boot/vmlinuz-* | tail -1)" "$CACHE/vmlinuz.tmp"
  cp "$(ls "$dir"/boot/initrd.img-* | tail -1)" "$CACHE/initrd.img.tmp"
  # The file system from the folder, without a loop device; free space for the disk-bound scenario.
  mkfs.ext4 -q -F -L prl-vm -d "$dir" "$CACHE/rootfs.ext4.tmp" 6G >/dev/null
  mv -f "$CACHE/vmlinuz.tmp" "$CACHE/vmlinuz"
  mv -f "$CACHE/initrd.img.tmp" "$CACHE/initrd.img"
  mv -f "$CACHE/rootfs.ext4.tmp" "$CACHE/rootfs.ext4"
  rm -rf "$dir"
  echo "$stamp" >"$CACHE/stamp"
  say "image built in $(($(date +%s) - t0)) s: $CACHE"
}

configure() {
  local r=$1 unit
  echo prl-vm >"$r/etc/hostname"
  printf '127.0.0.1 localhost\n127.0.1.1 prl-vm\n' >"$r/etc/hosts"
  echo '/dev/vda / ext4 rw,noatime 0 0' >"$r/etc/fstab"
  # Each boot of the unchanged image would otherwise be a first boot (presets applied again).
  rm -f "$r/etc/machine-id" && chroot "$r" systemd-machine-id-setup >/dev/null 2>&1
  # As on a hosted runner: `runner`, uid 1001, HOME 0750, sudo without a password.
  chroot "$r" useradd --create-home --uid 1001 --shell /bin/bash runner
  chmod 0750 "$r/home/runner"
  echo 'runner ALL=(ALL) NOPASSWD:ALL' >"$r/etc/sudoers.d/runner" && chmod 0440 "$r/etc/sudoers.d/runner"
  # The Node that runs the tests here runs them there (the stamp names its version).
  install -m 0755 "$node_bin" "$r/usr/local/bin/node"
  # systemd turns the controllers on below the root only for what units account for; a hosted
  # runner's root cgroup.subtree_control lists cpu, io, memory and pids.
  mkdir -p "$r/etc/systemd/system.conf.d"
  cat >"$r/etc/systemd/system.conf.d/prl-vm.conf" <<'EOF'
[Manager]
DefaultCPUAccounting=yes
DefaultIOAccounting=yes
DefaultMemoryAccounting=yes
DefaultTasksAccounting=yes
EOF
  # Nothing periodic, no login prompt, and none of the modules a VM without them waits 15 s each for
  # under emulation (device mapper, DRM, FUSE, loop, EFI pstore).
  for unit in apt-daily.timer apt-daily-upgrade.timer dpkg-db-backup.timer e2scrub_all.timer fstrim.timer \
    systemd-tmpfiles-clean.timer getty@tty1.service serial-getty@ttyS0.service serial-getty@ttyS1.service \
    modprobe@dm_mod.service modprobe@drm.service modprobe@fuse.service modprobe@loop.service \
    modprobe@efi_pstore.service systemd-pstore.service; do
    ln -sf /dev/null "$r/etc/systemd/system/$unit"
  done
  # The service: unpacks the work tree from the second disk (a tar file) and hands over to its
  # in-vm.sh, which runs the stage, prints the exit status last, and powers off (what the stage does
  # changes with the work tree, not with the image).
  cat >"$r/usr/local/sbin/prl-vm-stage" <<'EOF'
#!/bin/bash
exec >/dev/ttyS1 2>&1
work=/home/runner/work/pr-review-loop
install -d -o runner -g runner /home/runner/work "$work"
if runuser -u runner -- tar -x -C "$work" </dev/vdb; then
  exec bash "$work/scripts/cgroup-v2/in-vm.sh" "$work"
fi
echo "vm: exit 125 (the work tree could not be unpacked)"
systemctl poweroff --force --force >/dev/null 2>&1
EOF
  chmod 755 "$r/usr/local/sbin/prl-vm-stage"
  cat >"$r/etc/systemd/system/prl-vm-stage.service" <<'EOF'
[Unit]
Description=The cgroup v2 stage of pr-review-loop
After=basic.target

[Service]
Type=exec
ExecStart=/usr/local/sbin/prl-vm-stage
# A weight makes systemd turn the cpu controller on down from the root, as on a hosted runner.
CPUWeight=100
TasksMax=infinity
LimitNOFILE=65536

[Install]
WantedBy=multi-user.target
EOF
  chroot "$r" systemctl enable prl-vm-stage.service >/dev/null 2>&1
}

mkdir -p "$CACHE"
exec 8>"$CACHE/lock"
flock 8 # one build and one VM at a time per cache
host_tools
if [ "$rebuild" = 1 ] || [ "$(cat "$CACHE/stamp" 2>/dev/null)" != "$stamp" ] || [ ! -f "$CACHE/rootfs.ext4" ]; then
  build
fi
[ "$build_only" = 1 ] && { say "image ready: $CACHE"; exit 0; }
started=$(date +%s) # the budget is the stage's: a build happens once

# ---- the run --------------------------------------------------------------------------------------
if [ -z "$accel" ]; then
  # PVM (kvm_pvm, a nested paravirtual hypervisor) offers /dev/kvm but runs only kernels built for
  # it: Debian's hangs there, so such a machine emulates.
  if [ -w /dev/kvm ] && { [ -d /sys/module/kvm_intel ] || [ -d /sys/module/kvm_amd ]; } &&
    [ ! -d /sys/module/kvm_pvm ]; then
    accel=kvm
  else
    accel=tcg
  fi
fi
case $accel in
  kvm) machine=(-machine q35,accel=kvm -cpu host) ;;
  tcg) machine=(-machine q35 -accel tcg,thread=multi,tb-size=512 -cpu max) ;;
  *) echo "vm.sh: --accel is kvm or tcg, not $accel" >&2; exit 2 ;;
esac

run=$(mktemp -d "$CACHE/run.XXXXXX")
qemu_pid=''
finish() {
  [ -n "$qemu_pid" ] && kill "$qemu_pid" 2>/dev/null && wait "$qemu_pid" 2>/dev/null
  rm -rf "$run"
}
trap finish EXIT
trap 'exit 130' INT TERM

# The work tree as git sees it (tracked files and new ones not ignored), as a tar file the VM reads as
# a disk; node_modules as an ext4 image, made again when npm changed it (unpacking its 11,000 files
# took a minute of an emulated machine's time).
[ $# -gt 0 ] && printf '%s\n' "$*" >"$run/.prl-vm-command"
(cd "$ROOT" && git ls-files -z -co --exclude-standard |
  tar -c --null -T - -f "$run/tree.tar" --owner=0 --group=0 --mode=u+w)
[ $# -gt 0 ] && tar -r -f "$run/tree.tar" -C "$run" .prl-vm-command
modules_key=$(cat "$ROOT/package-lock.json" "$ROOT/node_modules/.package-lock.json" | sha256sum | cut -c1-16)
if [ "$(cat "$CACHE/node_modules.key" 2>/dev/null)" != "$modules_key" ]; then
  # Owned by `runner`, as a runner's own npm ci leaves it (vite writes below it).
  rm -rf "$CACHE/node_modules.tmp" "$CACHE/node_modules.ext4"
  cp -a "$ROOT/node_modules" "$CACHE/node_modules.tmp"
  rm -rf "$CACHE/node_modules.tmp/.vite" "$CACHE/node_modules.tmp/.vite-temp"
  chown -R 1001:1001 "$CACHE/node_modules.tmp"
  size=$(du -sm "$CACHE/node_modules.tmp" | cut -f1)
  mkfs.ext4 -q -F -L node_modules -d "$CACHE/node_modules.tmp" "$CACHE/node_modules.ext4" \
    "$((size * 3 / 2 + 64))M" >/dev/null
  rm -rf "$CACHE/node_modules.tmp"
  echo "$modules_key" >"$CACHE/node_modules.key"
fi
: >"$run/out" && : >"$run/console"

left=$((budget - ($(date +%s) - started)))
say "booting ($accel; $left s of the budget left)"
timeout -k 5 "$left" qemu-system-x86_64 -nodefaults -no-user-config "${machine[@]}" -smp 2 -m 4G \
  -display none -no-reboot -nic none \
  -kernel "$CACHE/vmlinuz" -initrd "$CACHE/initrd.img" \
  -append "root=/dev/vda rootfstype=ext4 rw console=ttyS0 quiet loglevel=3 panic=-1 systemd.show_status=0 \
systemd.unified_cgroup_hierarchy=1" \
  -drive "file=$CACHE/rootfs.ext4,format=raw,if=virtio,snapshot=on,cache=unsafe" \
  -drive "file=$run/tree.tar,format=raw,if=virtio,readonly=on" \
  -drive "file=$CACHE/node_modules.ext4,format=raw,if=virtio,readonly=on" \
  -device virtio-rng-pci \
  -serial "file:$run/console" -serial "file:$run/out" </dev/null >"$run/qemu.log" 2>&1 &
qemu_pid=$!
tail -n +1 -s 0.2 -F --pid="$qemu_pid" "$run/out" 2>/dev/null &
set +e
wait "$qemu_pid"
qemu_rc=$?
set -e
qemu_pid=''
wait 2>/dev/null
elapsed=$(($(date +%s) - started))
rc=$(sed -n 's/^vm: exit \([0-9]*\) .*/\1/p' "$run/out" | tail -1)
if [ -n "$rc" ]; then
  say "the stage took $elapsed s ($accel), budget $budget s; scenarios exit $rc"
  exit "$rc"
fi
if [ "$qemu_rc" = 124 ] || [ "$qemu_rc" = 137 ]; then
  say "over the budget of $budget s: the VM was stopped; last console lines:"
  tail -20 "$run/console" >&2
  exit 124
fi
say "the VM stopped before the scenarios finished (qemu exit $qemu_rc); console:"
tail -40 "$run/console" >&2
cat "$run/qemu.log" >&2
exit 125

#!/bin/bash
# Runs in the virtual machine of vm.sh, as root, once its service unpacked the work tree ($1): mounts
# node_modules from the third disk, runs scenarios.sh — or the command vm.sh was given —
# as `runner`, prints the exit status last (vm.sh reads it from there) and powers the machine off.
work=$1
echo "vm: booted in $(cut -d' ' -f1 /proc/uptime) s: kernel $(uname -r)," \
  "/sys/fs/cgroup is $(stat -fc %T /sys/fs/cgroup)"
# Writable, as a runner's is (vite writes its bundled config there): an overlay on the read-only image.
mkdir -p /mnt/node_modules /var/node_modules/upper /var/node_modules/work "$work/node_modules"
chown runner: /var/node_modules/upper
mount -o ro /dev/vdc /mnt/node_modules &&
  mount -t overlay node_modules \
    -o lowerdir=/mnt/node_modules,upperdir=/var/node_modules/upper,workdir=/var/node_modules/work "$work/node_modules"
cmd=scripts/cgroup-v2/scenarios.sh
[ -f "$work/.prl-vm-command" ] && cmd='bash .prl-vm-command'
# Through a pipe: the tests' output is a log here, not a terminal to redraw.
runuser -u runner -- env -i HOME=/home/runner USER=runner LOGNAME=runner SHELL=/bin/bash LANG=C.UTF-8 CI=true \
  PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin bash -c "cd $work && $cmd" 2>&1 | cat
rc=${PIPESTATUS[0]}
echo
echo "vm: exit $rc after $(cut -d' ' -f1 /proc/uptime) s"
sync
systemctl poweroff --force --force >/dev/null 2>&1

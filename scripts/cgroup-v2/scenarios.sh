#!/usr/bin/env bash
# npm run test:cgroup-v2 — the bounds of sandboxed calls where users run the action: on cgroup v2,
# on both privilege paths. CI runs it natively on a GitHub-hosted runner (.github/workflows/ci.yml),
# `npm run test:vm` in a virtual machine shaped like one (vm.sh beside this file).
#
# Run it as an ordinary user with passwordless sudo (a hosted runner's `runner`): it runs the
# scenarios as that user (the action reaches root through `sudo -n`), then as root (a container or
# a self-hosted runner run as root). A machine whose /sys/fs/cgroup is not cgroup v2 fails: the
# stage exists to run there, and a skip would read as a pass.
set -euo pipefail
cd "$(dirname "$0")/../.."

fail() { echo "cgroup-v2 stage: $*" >&2; exit 1; }
fs=$(stat -fc %T /sys/fs/cgroup)
[ "$fs" = cgroup2fs ] || fail "/sys/fs/cgroup is $fs, not cgroup v2 (cgroup2fs): this stage runs on cgroup v2 only"
[ "$(id -u)" != 0 ] || fail "run it as an ordinary user with passwordless sudo (it runs the root path itself)"
sudo -n true 2>/dev/null || fail "$(id -un) has no passwordless sudo (a hosted runner's user has)"
echo "cgroup-v2 stage: kernel $(uname -r); controllers: $(cat /sys/fs/cgroup/cgroup.controllers);" \
  "below the root: $(cat /sys/fs/cgroup/cgroup.subtree_control); this shell in $(cut -d: -f3 /proc/self/cgroup)"

# At most three scenarios per privilege path, and the check that the stage ran on cgroup v2: the
# call's /tmp filled past its memory bound (tmpfs pages are the call's memory), a fork bomb past its
# process bound, the checkout filled past the disk bound.
scenarios='ran on cgroup v2|fills /tmp past its memory|fork bomb|past its disk bound'
node=$(command -v node)
vitest=(node_modules/vitest/vitest.mjs run --config vitest.cgroup-v2.config.ts --testNamePattern "$scenarios")
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# Each path's log must show the calls bounded by cgroup v2, whatever the tests selected: a renamed
# test the pattern no longer selects would otherwise pass unseen.
on_path() { # $1: how the action reaches root (as the test prints it), then the command
  local how=$1
  shift
  "$@" 2>&1 | tee "$log"
  grep -q "cgroup stage, as $how: isolation: each call in a cgroup (v2) of its own" "$log" ||
    fail "the log as $how does not say: each call in a cgroup (v2) of its own"
}

echo "cgroup-v2 stage: as $(id -un) (uid $(id -u)), the action reaching root through sudo"
on_path sudo env PRL_CGROUP_STAGE=v2 "$node" "${vitest[@]}"
echo "cgroup-v2 stage: as root"
on_path root sudo -n env PATH="$PATH" HOME=/root PRL_CGROUP_STAGE=v2 "$node" "${vitest[@]}"
echo "cgroup-v2 stage: passed on both privilege paths"

#!/bin/sh
# The watchdog of one sandboxed call, started as root (directly, or through `sudo -n`) with the call's
# command line after `--`. It holds the read end of a pipe from the action on its stdin: when that pipe
# closes before the call ends — the action died, however (SIGKILL, the OOM killer, a crash) — it kills
# the call. And it puts the call in a cgroup of its own that bounds the call's memory
# (tmpfs pages its processes write are charged to it too), its number of processes and its CPU share.
# A call that writes to disk (the checkout, its layer over HOME) is held above a floor of free space
# on each disk it writes to: disk quotas are not available on a hosted runner's root file system, so
# the watchdog looks at the free space a few times a second and stops the call that goes below.
#
#   call-watchdog.sh <v2|v1|none> <cgroup name> <memory bytes|max> <pids|max> <cpu weight 1-10000>
#                    <free-disk floor bytes, 0: none> <folders on the disks to watch, one a line>
#                    <stdin file|-> -- command...
#
# Exit: the command's status; 137 after a kill. A call stopped at a bound says so on stderr, which the
# action shows with the call's output.
set -u
# It runs as root with the call's environment: it finds its own programs in the system's folders only
# (a folder on the call's PATH may be writable by others), and splits words the standard way. The
# call gets its own PATH again from its command line (/usr/bin/env PATH=…).
PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH
IFS='
 	'
kind=$1 name=$2 mem=$3 pids=$4 weight=$5 floor=$6 watched=$7 input=$8
shift 9

cgroups=''
bound() { # $1: folder, $2: file, $3: value
  printf '%s\n' "$3" > "$1/$2" 2>/dev/null
}
case $kind in
v2)
  d=/sys/fs/cgroup/$name
  if mkdir "$d" 2>/dev/null; then
    bound "$d" memory.max "$mem"
    bound "$d" memory.swap.max 0
    # The whole call ends at its memory bound, not one process of it chosen by the kernel.
    bound "$d" memory.oom.group 1
    bound "$d" pids.max "$pids"
    bound "$d" cpu.weight "$weight"
    cgroups=$d
  fi
  ;;
v1)
  for c in memory pids cpu; do
    d=/sys/fs/cgroup/$c/$name
    [ -d "/sys/fs/cgroup/$c" ] && mkdir "$d" 2>/dev/null || continue
    case $c in
    memory)
      # Swap counts too where it is accounted: a tmpfs file swapped out is still the call's.
      [ "$mem" = max ] || { bound "$d" memory.limit_in_bytes "$mem" && bound "$d" memory.memsw.limit_in_bytes "$mem"; }
      ;;
    pids) bound "$d" pids.max "$pids" ;;
    cpu) bound "$d" cpu.shares $((weight * 1024 / 100)) ;;
    esac
    cgroups="$cgroups $d"
  done
  ;;
esac

exec 3<&0
[ "$input" = - ] && input=/dev/null
# The call enters its cgroups before it starts anything; the watchdog stays outside them, so a call at
# its memory bound can never have the watchdog chosen by the OOM killer.
enter='for d in $1; do echo $$ > "$d/cgroup.procs" || exit 125; done; shift; exec "$@"'
# (An asynchronous command's stdin is /dev/null unless redirected: the call's own is given here.)
# The call holds nothing of the lifeline (fd 3): only the action's end of it matters.
/bin/sh -c "$enter" call-watchdog "$cgroups" "$@" <"$input" 3<&- &
child=$!

# Only a process that is still our child is killed: its pid cannot have been reused meanwhile.
kill_child() {
  [ -r "/proc/$child/stat" ] || return 0
  set -- $(sed 's/^.*) //' "/proc/$child/stat" 2>/dev/null)
  [ "${2:-}" = $$ ] && kill -KILL "$child" 2>/dev/null
  return 0
}
kill_all() {
  kill_child
  for d in $cgroups; do
    if [ -w "$d/cgroup.kill" ]; then
      echo 1 > "$d/cgroup.kill" 2>/dev/null
    else
      while read -r p; do [ "$p" = $$ ] || kill -KILL "$p" 2>/dev/null; done < "$d/cgroup.procs"
    fi
  done
}

# The guard: a shell builtin read until end of file, so it is a single process the watchdog can end.
(
  while IFS= read -r _; do :; done <&3
  kill_all
) &
guard=$!
exec 3<&-

# The free space of the disk holding $1, in bytes, for an unprivileged writer; below_floor sets $low
# to the first folder of $watched below the floor, and $f to its free bytes.
free_bytes() {
  set -- $(stat -f -c '%a %S' -- "$1" 2>/dev/null)
  [ $# = 2 ] && echo $(($1 * $2))
}
below_floor() {
  low=''
  [ "$floor" = 0 ] && return 1
  while IFS= read -r w; do
    [ -n "$w" ] || continue
    f=$(free_bytes "$w") || continue
    [ -n "$f" ] && [ "$f" -lt "$floor" ] && low=$w && return 0
  done <<FOLDERS
$watched
FOLDERS
  return 1
}
# The disk guard: every quarter second while the call runs (ext4 counts a write as used when it is
# made, not when it reaches the disk). It ends with the call, or with the watchdog.
disk_guard=''
if [ "$floor" != 0 ] && [ -n "$watched" ]; then
  (
    while kill -0 "$child" 2>/dev/null && kill -0 $$ 2>/dev/null; do
      below_floor && kill_all && exit 0
      sleep 0.25
    done
  ) >/dev/null 2>&1 &
  disk_guard=$!
fi

# The action ends a call past its time with SIGTERM (then SIGKILL): the call goes at once, and the
# watchdog lives on to report and to remove the cgroup.
trap 'kill_child' TERM INT HUP
wait "$child"
code=$?
# A trapped signal ends `wait` early: wait again until the child is really gone.
while [ -r "/proc/$child/stat" ] && kill -0 "$child" 2>/dev/null; do
  wait "$child"
  code=$?
done
kill "$guard" $disk_guard 2>/dev/null

# Read with the shell's own `read`, not grep: no process more per call.
counted() { # $1: file, $2: key; true when the key's count is above 0
  [ -r "$1" ] || return 1
  while read -r key value; do
    [ "$key" = "$2" ] && [ "$value" != 0 ] && return 0
  done < "$1"
  return 1
}
stopped=''
for d in $cgroups; do
  case $d in
  */memory/*) counted "$d/memory.oom_control" oom_kill && stopped=memory ;;
  */pids/*) counted "$d/pids.events" max && stopped="${stopped:+$stopped, }processes" ;;
  */cpu/*) ;;
  *)
    counted "$d/memory.events" oom_kill && stopped=memory
    counted "$d/pids.events" max && stopped="${stopped:+$stopped, }processes"
    ;;
  esac
done

# Whatever the call left (it could not leave its PID namespace, but its cgroup may hold more).
for d in $cgroups; do
  [ -w "$d/cgroup.kill" ] && echo 1 > "$d/cgroup.kill" 2>/dev/null
  while read -r p; do kill -KILL "$p" 2>/dev/null; done < "$d/cgroup.procs"
  i=0
  until rmdir "$d" 2>/dev/null || [ $i -ge 50 ]; do
    i=$((i + 1))
    sleep 0.1
  done
done

# What the call wrote is still there: a disk below the floor now was taken below it by the call
# (or while it ran), whether the guard caught it or the call ended first.
if below_floor; then
  stopped="${stopped:+$stopped, }disk"
  echo "pr-review-loop: the disk holding $low has $((f / 1048576)) MiB free, below the" \
    "$((floor / 1048576)) MiB a call must leave free (call-limits disk=)" >&2
fi
if [ -n "$stopped" ]; then
  echo "pr-review-loop: this call reached its bound on $stopped (input call-limits) and was stopped" >&2
  # A process of it was killed at the bound: the call failed, whatever its first process said.
  [ "$code" = 0 ] && code=137
fi
exit $code

#!/bin/bash
# tools/kernel-check/run.sh - run every kreplay case on the running kernel.
#
#   sudo tools/kernel-check/run.sh [OUT]      (default OUT: results-raw.txt next to this script)
#
# Needs root and a kernel that allows loop devices. Not part of `npm test`.
# Builds kreplay.c into a temporary directory, creates a 512 MiB ext4 image
# there, attaches it to a loop device with --direct-io=on (so the loop driver
# keeps no second copy of the data in the page cache), sets the device's
# read_ahead_kb to 128 (the model's readahead_kb), mounts it with
# data=journal (ext4 then uses order-0 page-cache folios, as the model does),
# and mounts a tmpfs with huge=never. Every case runs RUNS times (default 5).
# The raw output goes to OUT; compare.mjs parses it. At the end (also on
# error or Ctrl-C) everything is unmounted, the loop device detached and the
# temporary directory removed.
#
# Environment: RUNS (default 5), KCHECK_TMP (where the temporary directory
# goes, default /var/tmp: it must be a disk file system so the loop device
# can use direct I/O - not a tmpfs).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${1:-$HERE/results-raw.txt}
RUNS=${RUNS:-5}

if [ "$(id -u)" != 0 ]; then
  echo "run.sh: needs root (loop device, mount, drop_caches, kpageflags); try: sudo $0 $*" >&2
  exit 1
fi
for t in gcc losetup mkfs.ext4 mount umount mountpoint truncate; do
  command -v $t >/dev/null || { echo "run.sh: '$t' not found" >&2; exit 1; }
done

WORK=$(mktemp -d "${KCHECK_TMP:-/var/tmp}/kernel-check.XXXXXX") || exit 1
IMG=$WORK/img.ext4
MNT=$WORK/ext4
TMNT=$WORK/tmpfs
BIN=$WORK/kreplay
LOOP=
cleanup() {
  mountpoint -q "$MNT" 2>/dev/null && umount "$MNT"
  mountpoint -q "$TMNT" 2>/dev/null && umount "$TMNT"
  [ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

T0=$(date +%s%N)
exec 3>&1 >"$OUT" 2>&1
FAILED=0
# one kreplay invocation; a failure is recorded in the output and the exit status
R() {
  "$BIN" "$@" || { echo "### FAILED: kreplay $* (exit $?)"; FAILED=$((FAILED + 1)); }
}

echo "### kernel-check raw output, $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
gcc -O2 -Wall -static -o "$BIN" "$HERE/kreplay.c" || { echo "### FAILED: gcc"; echo "run.sh: gcc failed, see $OUT" >&3; exit 1; }

echo "### environment"
echo "uname -r: $(uname -r)"
echo "nproc: $(nproc)"
echo "THP enabled: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>&1)"
echo "THP shmem_enabled: $(cat /sys/kernel/mm/transparent_hugepage/shmem_enabled 2>&1)"
for d in /sys/kernel/mm/transparent_hugepage/hugepages-*; do
  [ -e "$d/enabled" ] || continue
  printf '%s: enabled=%s shmem_enabled=%s\n' "$(basename "$d")" "$(cat "$d/enabled")" "$(cat "$d/shmem_enabled" 2>/dev/null)"
done
echo "vm.page-cluster: $(cat /proc/sys/vm/page-cluster)"
# read only if debugfs is already mounted (lockdown often forbids it); never mounts it
echo "fault_around_bytes: $(cat /sys/kernel/debug/fault_around_bytes 2>/dev/null || echo 'unreadable (debugfs not mounted or locked down)')"

echo "### setup ext4"
truncate -s 512M "$IMG"
mkfs.ext4 -q -F "$IMG" || exit 1
LOOP=$(losetup -f --show --direct-io=on "$IMG") || { echo "### FAILED: losetup"; echo "run.sh: losetup failed (no loop devices?), see $OUT" >&3; exit 1; }
LN=$(basename "$LOOP")
echo "loop device: $LOOP  default queue/read_ahead_kb=$(cat /sys/block/$LN/queue/read_ahead_kb)"
echo 128 > /sys/block/$LN/queue/read_ahead_kb
mkdir -p "$MNT" "$TMNT"
mount -o data=journal "$LOOP" "$MNT" || exit 1
echo "storage ext4 mount: $(grep " $MNT " /proc/mounts)"
echo "storage ext4 loop: $(losetup -n -O NAME,DIO,LOG-SEC,BACK-FILE "$LOOP")"
echo "storage ext4 direct-io: $(cat /sys/block/$LN/loop/dio 2>/dev/null || echo '?')"
BDI=$(mountpoint -d "$MNT")
echo "storage ext4 read_ahead_kb: queue=$(cat /sys/block/$LN/queue/read_ahead_kb) bdi($BDI)=$(cat /sys/class/bdi/$BDI/read_ahead_kb)"

echo "### K1"; R "$MNT" "$RUNS" K1
echo "### K2"; R "$MNT" "$RUNS" K2
echo "### K3"
for P in 17 40 100 200 513; do for v in a b c d; do R "$MNT" "$RUNS" K3 $v $P; done; done
echo "### K4"
for N in 20 40 72 100 150 300 333 1000 1025 1030; do R "$MNT" "$RUNS" K4 $N; done
for N in 100 300 1030; do R "$MNT" "$RUNS" K4 $N pre; done
echo "### K6"; R "$MNT" "$RUNS" K6
echo "### K8"
for N in 50 60 63 70 100 108 120 333; do for P in 17 40; do R "$MNT" "$RUNS" K8 $N $P; done; done
R "$MNT" "$RUNS" K8 1024 17
umount "$MNT"

echo "### setup tmpfs"
mount -t tmpfs -o huge=never,size=1G tmpfs "$TMNT" || exit 1
echo "storage tmpfs mount: $(grep " $TMNT " /proc/mounts)"
echo "### K5"
for v in i ii iii sparse; do R "$TMNT" "$RUNS" K5 $v; done
umount "$TMNT"

echo "### done $(date -u '+%Y-%m-%d %H:%M:%S UTC'), $FAILED failed invocation(s)"
MS=$((($(date +%s%N) - T0) / 1000000))
printf 'run.sh: wrote %s in %d.%01d s%s\n' "$OUT" $((MS / 1000)) $((MS % 1000 / 100)) \
  "$([ $FAILED -gt 0 ] && echo ", $FAILED kreplay invocation(s) FAILED")" >&3
[ $FAILED -eq 0 ]

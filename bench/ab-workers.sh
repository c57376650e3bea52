#!/usr/bin/env bash
# A/B comparison of tcheck binaries at one and two workers, interleaved so
# that a noisy (virtual) machine's drift falls on both alike:
#
#   ROUNDS=3 bench/ab-workers.sh /tmp/tcheck-old ./tcheck
#   ORDER=topological bench/ab-workers.sh ./tcheck   # another --order (default bfs)
#
# Each round runs every model with each binary at --workers 1 and 2 and
# prints one line per run: round, model, binary, workers, wall seconds,
# user seconds, and the machine's idle time in clock ticks (USER_HZ,
# usually 100 a second) over the run, from /proc/stat: a search that keeps
# both cores busy leaves next to none, one whose workers park on locks
# leaves some (docs/results.md, "Spinning shard locks").
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-3}
ORDER=${ORDER:-bfs}
[ $# -ge 1 ] || { echo "usage: bench/ab-workers.sh BINARY..." >&2; exit 2; }
models=(
  "fischer-10|testdata/fischer.yaml|--set N=10 -q mutex"
  "csmacd-11|testdata/csmacd.yaml|--set N=11 -q bus-exclusive"
  "agreement-f1-(1,1,2)|agreement|--set f=1 --set c1=1 --set c2=1 --set d=2 -q termination"
)
idle() { awk '/^cpu /{ print $5 }' /proc/stat; }
tmp=$(mktemp); trap 'rm -f "$tmp"' EXIT
echo "# $(nproc) CPUs: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
printf '%-5s %-22s %-24s %7s %7s %7s %10s\n' round model binary workers wall_s user_s idle_ticks
for r in $(seq "$ROUNDS"); do
  for m in "${models[@]}"; do
    IFS='|' read -r name model args <<<"$m"
    for b in "$@"; do
      for w in 1 2; do
        i0=$(idle)
        /usr/bin/time -o "$tmp" -f "%e %U" "$b" verify "$model" $args --no-progress --workers "$w" --order "$ORDER" >/dev/null 2>&1 || true
        i1=$(idle)
        read -r wall user <"$tmp"
        printf '%-5s %-22s %-24s %7s %7s %7s %10s\n' "$r" "$name" "$b" "$w" "$wall" "$user" "$((i1 - i0))"
      done
    done
  done
done

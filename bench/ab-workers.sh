#!/usr/bin/env bash
# A/B comparison of tcheck binaries at several worker counts, interleaved
# so that a noisy (virtual) machine's drift falls on all alike:
#
#   ROUNDS=3 bench/ab-workers.sh /tmp/tcheck-old ./tcheck
#   ORDER=topological bench/ab-workers.sh ./tcheck   # another --order (default bfs)
#   WORKERS="1 16" bench/ab-workers.sh ./tcheck      # other worker counts (default "1 2")
#   MODELS=large bench/ab-workers.sh ./tcheck        # also Fischer 11 (MODELS is a prefix, as in workers.sh)
#   TWINS=1 bench/ab-workers.sh ./tcheck             # also two searches at the first count at once
#   LATENCY=1 bench/ab-workers.sh ./tcheck           # also the core-to-core latency before each model's runs
#   ONECPU=1 bench/ab-workers.sh ./tcheck            # also the last worker count pinned to one CPU
#
# Each round runs every model with each binary at each worker count and
# prints one line per run: round, model, binary, workers, wall seconds,
# user seconds, and the machine's idle time in clock ticks (USER_HZ,
# usually 100 a second per CPU) over the run, from /proc/stat: a search
# that keeps the cores busy leaves next to none, one whose workers park
# on locks leaves some (docs/results.md, "Spinning shard locks"). At the
# end, for each model, binary and worker count above the first, the
# speedup of each round over the same round's run at the first count,
# smallest to largest, and their median. Times come from bash's own
# `time`, so the script needs no /usr/bin/time (the 16-core machines lent
# for measurements have none).
#
# With TWINS set, each round also runs two independent searches at the
# first worker count side by side (workers column "twins"), and the
# summary gives their throughput over one search alone in the same round
# (twice its wall time over theirs): what the machine gives two searches
# that share nothing, the ceiling against which the speedup of sharing
# one search between two workers is judged (on a virtual machine whose
# cores share a physical core or a host's memory with other guests it
# falls well short of 2, and varies from round to round).
#
# With LATENCY set, each round prints, before each model's runs, a line
# "latency NS": what moving a cache line between the two cores costs at
# that moment (bench/linelatency). On a virtual machine it changes as the
# host moves the virtual CPUs, and the speedup at two workers with it
# (docs/results.md, "Two workers and the host's core placement"); the
# summary then also gives each speedup's latency.
#
# With ONECPU set, each round also runs the last worker count with the
# process pinned to CPU 0 (`taskset -c 0`, workers column "N@cpu0"): the
# workers take turns on one core, so no cache line moves between cores,
# and what they spend over one worker is the parallel search's own cost
# (its shared list's lookups, second inclusion tests, locks). The summary
# then splits the CPU (user) time of N workers over one into that cost
# (N@cpu0 / 1) and the sharing's between cores (N / N@cpu0), medians of
# the rounds' ratios (docs/results.md, "Where the second worker's CPU
# goes").
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-3}
ORDER=${ORDER:-bfs}
WORKERS=${WORKERS:-1 2}
[ $# -ge 1 ] || { echo "usage: bench/ab-workers.sh BINARY..." >&2; exit 2; }
models=(
  "fischer-10|testdata/fischer.yaml|--set N=10 -q mutex"
  "csmacd-11|testdata/csmacd.yaml|--set N=11 -q bus-exclusive"
  "agreement-f1-(1,1,2)|agreement|--set f=1 --set c1=1 --set c2=1 --set d=2 -q termination"
  "large-fischer-11|testdata/fischer.yaml|--set N=11 -q mutex"
)
keep=()
for m in "${models[@]}"; do
  case "$m" in
    large-*) [ -n "${MODELS:-}" ] && case "$m" in ${MODELS}*) keep+=("$m") ;; esac ;;
    *) if [ -z "${MODELS:-}" ] || [ "$MODELS" = large ]; then keep+=("$m"); else case "$m" in ${MODELS}*) keep+=("$m") ;; esac; fi ;;
  esac
done
models=("${keep[@]}")
idle() { awk '/^cpu /{ print $5 }' /proc/stat; }
tmp=$(mktemp); runs=$(mktemp); lat=$(mktemp -d); trap 'rm -rf "$tmp" "$runs" "$lat"' EXIT
if [ -n "${LATENCY:-}" ]; then go build -o "$lat/linelatency" ./bench/linelatency; fi
echo "# $(nproc) CPUs: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
printf '%-5s %-22s %-24s %7s %7s %7s %10s\n' round model binary workers wall_s user_s idle_ticks
TIMEFORMAT='%R %U'
for r in $(seq "$ROUNDS"); do
  for m in "${models[@]}"; do
    IFS='|' read -r name model args <<<"$m"
    if [ -n "${LATENCY:-}" ]; then
      printf '%-5s %-22s %-24s %7s %7s\n' "$r" "$name" latency - "$("$lat/linelatency")" | tee -a "$runs"
    fi
    for b in "$@"; do
      for w in $WORKERS; do
        i0=$(idle)
        { time "$b" verify "$model" $args --no-progress --workers "$w" --order "$ORDER" >/dev/null 2>&1 || true; } 2>"$tmp"
        i1=$(idle)
        read -r wall user <"$tmp"
        printf '%-5s %-22s %-24s %7s %7s %7s %10s\n' "$r" "$name" "$b" "$w" "$wall" "$user" "$((i1 - i0))" | tee -a "$runs"
      done
      if [ -n "${ONECPU:-}" ]; then
        w=${WORKERS##* }
        i0=$(idle)
        { time taskset -c 0 "$b" verify "$model" $args --no-progress --workers "$w" --order "$ORDER" >/dev/null 2>&1 || true; } 2>"$tmp"
        i1=$(idle)
        read -r wall user <"$tmp"
        printf '%-5s %-22s %-24s %7s %7s %7s %10s\n' "$r" "$name" "$b" "$w@cpu0" "$wall" "$user" "$((i1 - i0))" | tee -a "$runs"
      fi
      if [ -n "${TWINS:-}" ]; then
        w=${WORKERS%% *}
        i0=$(idle)
        { time { "$b" verify "$model" $args --no-progress --workers "$w" --order "$ORDER" >/dev/null 2>&1 &
                 "$b" verify "$model" $args --no-progress --workers "$w" --order "$ORDER" >/dev/null 2>&1; wait; } || true; } 2>"$tmp"
        i1=$(idle)
        read -r wall user <"$tmp"
        printf '%-5s %-22s %-24s %7s %7s %7s %10s\n' "$r" "$name" "$b" twins "$wall" "$user" "$((i1 - i0))" | tee -a "$runs"
      fi
    done
  done
done
first=${WORKERS%% *}
echo "# speedup over --workers $first in the same round, smallest to largest (with LATENCY, @ the round's latency), and the median"
echo "# (twins: two searches' throughput over one's)"
awk -v first="$first" '
  $3 == "latency" { lat[$1 " " $2] = $5; next }
  $4 == first { base[$1 " " $2 " " $3] = $5; next }
  $4 ~ /@cpu0$/ { next }
  $5 > 0 {
    k = $2 " " $3 " " $4; r = ($4 == "twins" ? 2 : 1) * base[$1 " " $2 " " $3] / $5
    c = ++cnt[k]; val[k, c] = r; at[k, c] = lat[$1 " " $2]
    if (!(k in seen)) { seen[k] = 1; order[++n] = k }
  }
  END {
    for (i = 1; i <= n; i++) {
      k = order[i]; c = cnt[k]
      for (a = 1; a <= c; a++) { v[a] = val[k, a]; l[a] = at[k, a] }
      for (a = 1; a <= c; a++) for (b = a + 1; b <= c; b++) if (v[b] < v[a]) { t = v[a]; v[a] = v[b]; v[b] = t; t = l[a]; l[a] = l[b]; l[b] = t }
      line = ""; for (a = 1; a <= c; a++) line = line sprintf(" %.2f", v[a]) (l[a] != "" ? "@" l[a] "ns" : "")
      med = c % 2 ? v[(c + 1) / 2] : (v[c / 2] + v[c / 2 + 1]) / 2
      split(k, f, " "); printf "%-22s %-24s %4s:%s  median %.2fx\n", f[1], f[2], f[3], line, med
    }
  }' "$runs"
if [ -n "${ONECPU:-}" ]; then
  last=${WORKERS##* }
  echo "# CPU (user) time of --workers $last over --workers $first: its own cost (on one CPU) and the sharing's (on all CPUs over one CPU), medians of the rounds"
  awk -v first="$first" -v last="$last" '
    function median(arr, c,   a, b, t) {
      for (a = 1; a <= c; a++) for (b = a + 1; b <= c; b++) if (arr[b] < arr[a]) { t = arr[a]; arr[a] = arr[b]; arr[b] = t }
      return c % 2 ? arr[(c + 1) / 2] : (arr[c / 2] + arr[c / 2 + 1]) / 2
    }
    $3 == "latency" { next }
    { u[$1 " " $2 " " $3 " " $4] = $6; k = $2 " " $3; if (!(k in seen)) { seen[k] = 1; order[++n] = k }; if ($1 > rounds) rounds = $1 }
    END {
      for (i = 1; i <= n; i++) {
        split(order[i], f, " "); c = 0
        for (r = 1; r <= rounds; r++) {
          one = u[r " " order[i] " " first]; pin = u[r " " order[i] " " last "@cpu0"]; all = u[r " " order[i] " " last]
          if (one > 0 && pin > 0 && all > 0) { c++; own[c] = pin / one; shr[c] = all / pin }
        }
        if (c > 0) printf "%-22s %-24s own %.2fx  sharing %.2fx  (%d rounds)\n", f[1], f[2], median(own, c), median(shr, c), c
      }
    }' "$runs"
fi

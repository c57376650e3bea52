#!/usr/bin/env bash
# Multi-core scaling of the parallel search (issue 13): each model with
# --workers 1, 2, 4, ... up to the CPUs (or the list in WORKERS), one run
# each, printing wall time, speedup over --workers 1 and stored states.
#
#   bench/workers.sh               # builds ./tcheck first
#   WORKERS="1 2" bench/workers.sh # the 2-core machine's figures
#   MODELS=large bench/workers.sh  # Fischer 11, CSMA/CD 12, agreement-scalar f=1 (1,1,3)
#   CEILING=1 bench/workers.sh     # also the machine's own ceiling, below
#
# With CEILING=1, each model also runs as w independent --workers 1
# processes at the same time, for each w > 1 in WORKERS: the row
# "indep" prints the slowest one's wall time and the throughput w * t1 /
# that, which is what the machine itself gives w searches that share
# nothing (its memory bandwidth, shared caches and the host's scheduling).
# No parallel search can beat that ratio on the same machine.
#
# Ratios come from one run of this script on one machine: record the
# machine with them (docs/results.md).
set -euo pipefail
cd "$(dirname "$0")/.."
TCHECK=${TCHECK:-./tcheck}
if [ -z "${NOBUILD:-}" ]; then go build -o "$TCHECK" ./cmd/tcheck; fi
cpus=$(nproc)
if [ -z "${WORKERS:-}" ]; then
  WORKERS="1"; w=2
  while [ "$w" -le "$cpus" ]; do WORKERS="$WORKERS $w"; w=$((w * 2)); done
  case " $WORKERS " in *" $cpus "*) ;; *) WORKERS="$WORKERS $cpus" ;; esac
fi
# name | model | arguments
models=(
  "fischer-10|testdata/fischer.yaml|--set N=10 -q mutex"
  "csmacd-11|testdata/csmacd.yaml|--set N=11 -q bus-exclusive"
  "agreement-f1-(1,1,2)|agreement|--set f=1 --set c1=1 --set c2=1 --set d=2 -q termination"
  "agreement-f1-(1,1,2)-progress|agreement|--set f=1 --set c1=1 --set c2=1 --set d=2 -q termination --order progress"
  "large-fischer-11|testdata/fischer.yaml|--set N=11 -q mutex"
  "large-csmacd-12|testdata/csmacd.yaml|--set N=12 -q bus-exclusive"
  "large-agreement-scalar-f1-(1,1,3)|agreement-scalar|--set f=1 --set c1=1 --set c2=1 --set d=3"
)
# the large-* rows (minutes on one core) run only when MODELS names them
# (MODELS=large runs all three)
if [ -n "${MODELS:-}" ]; then
  keep=(); for m in "${models[@]}"; do case "$m" in ${MODELS}*) keep+=("$m") ;; esac; done; models=("${keep[@]}")
else
  keep=(); for m in "${models[@]}"; do case "$m" in large-*) ;; *) keep+=("$m") ;; esac; done; models=("${keep[@]}")
fi
echo "# $(nproc) CPUs: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
printf '%-36s %8s %10s %8s %12s %s\n' model workers wall_s speedup stored verdict
for m in "${models[@]}"; do
  IFS='|' read -r name model args <<<"$m"
  base=""
  for w in $WORKERS; do
    start=$(date +%s.%N)
    out=$($TCHECK verify "$model" $args --stats --no-progress --workers "$w" 2>&1 || true)
    end=$(date +%s.%N)
    wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')
    [ -z "$base" ] && base=$wall
    # a run without a verdict line (a crash, a kill) is printed as such
    # instead of ending the script (set -e, pipefail)
    stored=$(echo "$out" | sed -n 's/.*stored \([0-9]*\).*/\1/p' | head -1 || true)
    verdict=$(echo "$out" | grep -m1 -oE '^  (satisfied|violated|unknown|error)' | tr -d ' ' || true)
    if [ -z "$verdict" ]; then verdict="none: $(echo "$out" | tail -1)"; fi
    printf '%-36s %8s %10.2f %8.2f %12s %s\n' "$name" "$w" "$wall" "$(awk -v a="$base" -v b="$wall" 'BEGIN { printf "%.3f", a / b }')" "$stored" "$verdict"
  done
  if [ -n "${CEILING:-}" ]; then
    for w in $WORKERS; do
      [ "$w" -le 1 ] && continue
      start=$(date +%s.%N)
      for _ in $(seq "$w"); do
        $TCHECK verify "$model" $args --stats --no-progress --workers 1 >/dev/null 2>&1 &
      done
      wait
      end=$(date +%s.%N)
      wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')
      printf '%-36s %8s %10.2f %8.2f %12s %s\n' "$name" "indep$w" "$wall" "$(awk -v a="$base" -v b="$wall" -v w="$w" 'BEGIN { printf "%.3f", w * a / b }')" "-" "-"
    done
  fi
done

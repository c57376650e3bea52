#!/usr/bin/env bash
# Search orders side by side (docs/queries.md, "Search order"): each model
# with --order bfs, ranked and dfs, --workers 1, one run each, printing
# the wall time, the states explored and stored. Breadth first explores
# more than it stores where it finds a state's small zones before its
# large ones (Herbreteau and Tran, FORMATS 2015); ranked should explore
# close to what it stores there, and as bfs elsewhere.
#
#   bench/order.sh                 # builds ./tcheck first
#   ORDERS="bfs ranked" bench/order.sh
#   MODELS=agreement bench/order.sh  # only the rows whose name starts so
#
# Ratios come from one run of this script on one machine: record the
# machine with them (docs/results.md).
set -euo pipefail
cd "$(dirname "$0")/.."
TCHECK=${TCHECK:-./tcheck}
if [ -z "${NOBUILD:-}" ]; then go build -o "$TCHECK" ./cmd/tcheck; fi
ORDERS=${ORDERS:-bfs ranked dfs}
all="-q agreement -q validity -q termination -q output-enabled -q worst-time"
# name | model | arguments
models=(
  "fischer-10|testdata/fischer.yaml|--set N=10 -q mutex"
  "csmacd-11|testdata/csmacd.yaml|--set N=11 -q bus-exclusive"
  "corsso-4|testdata/corsso.yaml|--set N=4"
  "fddi-12|testdata/fddi.yaml|--set N=12 -q token-held"
  "agreement-f1-(1,1,2)|agreement|--set f=1 --set c1=1 --set c2=1 --set d=2 -q termination"
  "agreement-f1-(1,1,3)-all|agreement|--set f=1 --set c1=1 --set c2=1 --set d=3 $all"
  "agreement-f1-(9,10,20)-all|agreement|--set f=1 --set c1=9 --set c2=10 --set d=20 $all"
  "agreement-scalar-f1-(1,1,3)-all|agreement-scalar|--set f=1 --set c1=1 --set c2=1 --set d=3 $all -q deadlock"
)
if [ -n "${MODELS:-}" ]; then
  keep=(); for m in "${models[@]}"; do case "$m" in ${MODELS}*) keep+=("$m") ;; esac; done; models=("${keep[@]}")
fi
echo "# $(nproc) CPUs: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
printf '%-34s %7s %9s %12s %12s %s\n' model order wall_s explored stored verdict
for m in "${models[@]}"; do
  IFS='|' read -r name model args <<<"$m"
  for o in $ORDERS; do
    start=$(date +%s.%N)
    out=$($TCHECK verify "$model" $args --stats --no-progress --workers 1 --order "$o" 2>&1 || true)
    end=$(date +%s.%N)
    wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')
    # the largest exploration's counts (the queries may share one)
    counts=$(echo "$out" | sed -n 's/.*explored \([0-9]*\), stored \([0-9]*\).*/\1 \2/p' | sort -n -k2 | tail -1 || true)
    verdicts=$(echo "$out" | grep -oE '^  (satisfied|violated|unknown|error|[a-zA-Z.()]+ = [0-9]+)' | tr -d ' ' | tr '\n' ',' || true)
    printf '%-34s %7s %9.2f %12s %12s %s\n' "$name" "$o" "$wall" "${counts% *}" "${counts#* }" "${verdicts%,}"
  done
done

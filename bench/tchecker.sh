#!/usr/bin/env bash
# tcheck side by side with TChecker (issue 13's targets), one run each on
# this machine: stored zones and seconds of both, and TChecker's time over
# tcheck's. TChecker's tck-reach must be on PATH and its examples directory
# (the generators fischer.sh, csmacd.sh, corsso.sh, fddi.sh of the TChecker
# source tree) in TCHECKER_EXAMPLES; without them only tcheck's column is
# filled. tcheck runs with one worker, as TChecker does.
#
#   TCHECKER_EXAMPLES=~/src/tchecker/examples bench/tchecker.sh
#   ROWS="corsso" bench/tchecker.sh      # the rows whose name starts so
set -euo pipefail
cd "$(dirname "$0")/.."
TCHECK=${TCHECK:-./tcheck}
if [ -z "${NOBUILD:-}" ]; then go build -o "$TCHECK" ./cmd/tcheck; fi
have_tchecker=""
if command -v tck-reach >/dev/null && [ -n "${TCHECKER_EXAMPLES:-}" ] && [ -d "$TCHECKER_EXAMPLES" ]; then
  have_tchecker=1
else
  echo "# TChecker not found (tck-reach on PATH and TCHECKER_EXAMPLES): tcheck only" >&2
fi

# name | tcheck model and arguments | TChecker generator and arguments | tck-reach algorithm | labels
rows=(
  "fischer-10|testdata/fischer.yaml --set N=10 -q mutex --subsumption inclusion|fischer.sh 10 10|covreach|"
  "fischer-11|testdata/fischer.yaml --set N=11 -q mutex --subsumption inclusion|fischer.sh 11 10|covreach|"
  "csmacd-11|testdata/csmacd.yaml --set N=11 -q bus-exclusive --subsumption inclusion|csmacd.sh 11 808 26|covreach|"
  "csmacd-12|testdata/csmacd.yaml --set N=12 -q bus-exclusive --subsumption inclusion|csmacd.sh 12 808 26|covreach|"
  "corsso-4|testdata/corsso.yaml --set N=4 -q all-access|corsso.sh 4|aLU-covreach|access1,access2,access3,access4"
  "corsso-5|testdata/corsso.yaml --set N=5 -q all-access|corsso.sh 5|aLU-covreach|access1,access2,access3,access4,access5"
  "fddi-15|testdata/fddi.yaml --set N=15 -q token-held --subsumption inclusion|fddi.sh 15|covreach|"
)
echo "# $(nproc) CPUs: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
printf '%-12s %14s %10s %14s %10s %8s\n' row tcheck_stored tcheck_s tchecker_stored tchecker_s ratio
for r in "${rows[@]}"; do
  IFS='|' read -r name targs gen algo labels <<<"$r"
  case "$name" in ${ROWS:-}*) ;; *) continue ;; esac
  start=$(date +%s.%N)
  out=$($TCHECK verify $targs --stats --no-progress --workers 1 2>&1 || true)
  end=$(date +%s.%N)
  ts=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')
  tstored=$(echo "$out" | sed -n 's/.*stored \([0-9]*\).*/\1/p' | head -1)
  kstored="-"; ks="-"; ratio="-"
  if [ -n "$have_tchecker" ]; then
    # shellcheck disable=SC2086
    kout=$(bash "$TCHECKER_EXAMPLES/${gen%% *}" ${gen#* } | tck-reach -a "$algo" -s bfs ${labels:+-l "$labels"} 2>&1 || true)
    kstored=$(echo "$kout" | awk '$1 == "STORED_STATES" { print $2 }')
    ks=$(echo "$kout" | awk '$1 == "RUNNING_TIME_SECONDS" { printf "%.2f", $2 }')
    ratio=$(awk -v a="$ks" -v b="$ts" 'BEGIN { if (b > 0) printf "%.1f", a / b; else print "-" }')
  fi
  printf '%-12s %14s %10s %14s %10s %8s\n' "$name" "$tstored" "$ts" "$kstored" "$ks" "$ratio"
done

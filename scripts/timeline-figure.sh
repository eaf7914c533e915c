#!/usr/bin/env bash
# Draws timelines written by --timeline (docs/timeline.md) one above the other: per node,
# busy, overhead and idle spans, and task migrations as arrows, on one time axis (the
# longest run's) so that the panels compare. Needs jq and gnuplot.
#   scripts/timeline-figure.sh OUT.png TITLE1 FILE1.json [TITLE2 FILE2.json ...]
set -euo pipefail
[[ $# -ge 3 && $(( ($# - 1) % 2 )) -eq 0 ]] || { echo "usage: $0 OUT.png TITLE FILE.json [TITLE FILE.json ...]" >&2; exit 2; }
out=$1; shift
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
panels=$(( $# / 2 ))
script="set terminal pngcairo size 1000,$(( 60 + panels * 230 )) noenhanced
set output '$out'
set multiplot layout $panels,1
set xlabel 'time (s)'; set ylabel 'node'; set key outside right top
set style fill solid 1.0 noborder
"
# One time axis for every panel: from 0 to the latest span end of all the files (s).
end=$(for ((k = 2; k <= $#; k += 2)); do jq '[.traceEvents[] | select(.ph == "X") | .ts + .dur] | max // 0' "${!k}"; done |
      sort -g | tail -n 1)
script+="set xrange [0:$end / 1e6]
"
i=0
while [[ $# -gt 0 ]]; do
  title=$1 file=$2; shift 2; i=$((i + 1))
  # Spans: start (s), node, half length (s), kind; arrows: start, node, length, nodes apart.
  jq -r '.traceEvents[] | select(.ph == "X") | [.ts / 1e6, .tid, .dur / 2e6, .name] | @tsv' "$file" >"$work/spans$i"
  jq -r '[.traceEvents[] | select(.ph == "s" or .ph == "f")] | group_by(.id)[] | select(length == 2)
         | (map(select(.ph == "s"))[0]) as $s | (map(select(.ph == "f"))[0]) as $f
         | [$s.ts / 1e6, $s.tid, ($f.ts - $s.ts) / 1e6, $f.tid - $s.tid] | @tsv' "$file" >"$work/arrows$i"
  nodes=$(jq '[.traceEvents[] | select(.name == "thread_name") | .tid] | max' "$file")
  for kind in busy overhead idle; do
    awk -v k="$kind" '$4 == k' "$work/spans$i" >"$work/$kind$i"
    [[ -s "$work/$kind$i" ]] || printf '0\t0\t0\t%s\n' "$kind" >"$work/$kind$i"  # an empty panel still plots
  done
  [[ -s "$work/arrows$i" ]] || printf '0\t0\t0\t0\n' >"$work/arrows$i"
  script+="set title '$title'
set yrange [-0.6:$nodes + 0.6]; set ytics 1
plot '$work/idle$i' using (\$1 + \$3):2:3:(0.3) with boxxyerror lc rgb '#dddddd' title 'idle', \\
     '$work/busy$i' using (\$1 + \$3):2:3:(0.3) with boxxyerror lc rgb '#2b8c3e' title 'busy', \\
     '$work/overhead$i' using (\$1 + \$3):2:3:(0.3) with boxxyerror lc rgb '#e6550d' title 'overhead', \\
     '$work/arrows$i' using 1:2:3:4 with vectors head filled size screen 0.006,20 lc rgb '#3050c0' title 'migration'
"
done
printf '%s' "$script" >"$work/figure.gp"
gnuplot "$work/figure.gp"

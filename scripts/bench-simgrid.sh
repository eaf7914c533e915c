#!/usr/bin/env bash
# dlbkit's simulator beside SimGrid (Debian libsimgrid-dev) on the same scenario,
# bench/peers/load_updates.hpp: builds both programs (never part of the default build),
# runs them in alternation, checks that they simulate the same thing (tasks, messages, time
# of the last task completion) and prints the ratio of their wall times.
#   scripts/bench-simgrid.sh [DIMENSION ...]     (default: 10 12; REPEAT=3 pairs each; SimGrid needs hours from 2^14)
set -euo pipefail
cd "$(dirname "$0")/.."
dims=("${@:-10 12}")
read -r -a dims <<<"${dims[*]}"
repeat=${REPEAT:-3}
out=build/peers
mkdir -p "$out"
[ -f /usr/include/simgrid/s4u.hpp ] || {
  echo "bench-simgrid: SimGrid is not installed; accepted: Debian's libsimgrid-dev (apt-get install libsimgrid-dev)" >&2
  exit 2
}
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build --target dlbkit_sim >/dev/null
# The simulator's layer and those below it (docs/architecture.md), top first.
libs=()
for layer in sim strategies analysis core topology io; do libs+=("build/libdlbkit_$layer.a"); done
c++ -std=c++20 -O2 -DNDEBUG -Iinclude bench/peers/load_updates_dlbkit.cpp "${libs[@]}" -lfmt -pthread \
  -o "$out/load_updates_dlbkit"
c++ -std=c++20 -O2 -DNDEBUG bench/peers/load_updates_simgrid.cpp -lsimgrid -o "$out/load_updates_simgrid"

field() { sed -E "s/.* $1 ([0-9.]+).*/\1/" <<<"$2"; }
median() { sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

printf "%-6s %-8s %-9s %-10s %-18s %-10s %-10s %s\n" nodes tasks messages same? last_completion_s dlbkit_s simgrid_s simgrid/dlbkit
for d in "${dims[@]}"; do
  ours=() theirs=() same=yes
  for ((i = 0; i < repeat; i++)); do
    a=$("$out/load_updates_dlbkit" "$d")
    # A small stack and no guard page per actor: two actors per node, up to 2^17 of them
    # (guard pages would pass the kernel's limit of memory mappings per process).
    b=$("$out/load_updates_simgrid" "$d" --log=root.thres:critical --cfg=contexts/stack-size:64 --cfg=contexts/guard-size:0 \
      --cfg=network/latency-factor:1 --cfg=network/bandwidth-factor:1 2>/dev/null)
    for f in nodes tasks messages last_completion_ns; do
      [[ $(field "$f" "$a") == $(field "$f" "$b") ]] || same="no ($f: $(field "$f" "$a") vs $(field "$f" "$b"))"
    done
    [[ $(field received "$b") == $(field messages "$b") ]] || same="no (simgrid received $(field received "$b"))"
    ours+=("$(field wall_s "$a")") theirs+=("$(field wall_s "$b")")
  done
  t_ours=$(printf "%s\n" "${ours[@]}" | median)
  t_theirs=$(printf "%s\n" "${theirs[@]}" | median)
  ratios=$(for ((i = 0; i < repeat; i++)); do awk -v a="${theirs[i]}" -v b="${ours[i]}" 'BEGIN {print a / b}'; done | median)
  printf "%-6s %-8s %-9s %-10s %-18s %-10s %-10s %.1f\n" "$(field nodes "$a")" "$(field tasks "$a")" \
    "$(field messages "$a")" "$same" "$(awk -v ns="$(field last_completion_ns "$a")" 'BEGIN {printf "%.9f", ns / 1e9}')" \
    "$t_ours" "$t_theirs" "$ratios"
done
echo "(wall seconds: medians of $repeat alternating runs; the ratio is the median of the paired ratios)"

#!/usr/bin/env bash
# dlbkit's phase strategies beside LBAF's InformAndTransfer on one of LBAF's own data sets
# (opt-in, never part of the tests): LBAF runs from its source in a scratch folder with its
# shipped configuration for that data, dlbkit's strategies on the same vt LB data files with
# the same memory bound, and the script prints both (imbalance before and after, objects
# migrated, the largest node memory, wall time).
#   scripts/lbaf-peer.sh [DATA [CONFIG]]
#     DATA    a folder of LBAF's data/ (default challenging_toy_hundreds_tasks: 64 ranks, 23 709 objects)
#     CONFIG  a file of LBAF's config/ (default challenging-toy-hundreds-tasks.yaml)
#   LBAF_SRC  an LBAF checkout or bare git repository (default: cloned from GitHub)
#   VT_SRC    a vt checkout or bare git repository, for its LB data validator, which LBAF
#             imports at start (default: cloned from GitHub)
#   STRATEGIES  dlbkit's phase strategies to run (default: every one but none), with their
#             parameters after a colon: "tempered:transfer_strategy=Clustering greedy"
# LBAF needs Debian's python3-numpy python3-scipy python3-yaml python3-brotli python3-schema
# python3-colorama python3-typing-extensions.
set -euo pipefail
cd "$(dirname "$0")/.."
data=${1:-challenging_toy_hundreds_tasks}
config=${2:-challenging-toy-hundreds-tasks.yaml}
python=/usr/bin/python3  # Debian's, which sees Debian's modules
out=build/peers/lbaf
mkdir -p "$out"
out=$(cd "$out" && pwd)

for m in numpy scipy yaml brotli schema colorama typing_extensions; do
  "$python" -c "import $m" 2>/dev/null || {
    echo "lbaf-peer: LBAF needs the Python module $m; accepted: Debian's python3-numpy python3-scipy python3-yaml" \
      "python3-brotli python3-schema python3-colorama python3-typing-extensions installed" >&2
    exit 2
  }
done

# A source tree from a checkout, a bare repository or GitHub, into $2.
source_tree() {
  local from=$1 into=$2 url=$3
  rm -rf "$into" && mkdir -p "$into"
  if [ -z "$from" ]; then
    git clone -q --depth 1 "$url" "$into"
  elif [ -d "$from/.git" ] || [ -f "$from/README.md" ]; then
    cp -r "$from/." "$into"
  else
    git -C "$from" archive HEAD | tar -x -C "$into"
  fi
}
source_tree "${LBAF_SRC:-}" "$out/lbaf" https://github.com/DARMA-tasking/LB-analysis-framework.git
source_tree "${VT_SRC:-}" "$out/vt" https://github.com/DARMA-tasking/vt.git
mkdir -p "$out/lbaf/src/lbaf/imported"
cp "$out/vt/scripts/JSON_data_files_validator.py" "$out/vt/scripts/LBDatafile_schema.py" "$out/lbaf/src/lbaf/imported/"
[ -d "$out/lbaf/data/$data" ] || { echo "lbaf-peer: no data set '$data' in LBAF's data/" >&2; exit 2; }
[ -f "$out/lbaf/config/$config" ] || { echo "lbaf-peer: no configuration '$config' in LBAF's config/" >&2; exit 2; }

# LBAF's configuration, pointed at the data and at our output folder, writing its result as vt
# LB data files (so that the objects it moved can be counted).
stem=$(ls "$out/lbaf/data/$data" | sed -n 's/\.0\.json$//p' | head -1)
bound=$(sed -n 's/^ *max_memory_usage: *//p' "$out/lbaf/config/$config" | head -1)
sed -e "s|data_stem: .*|data_stem: $out/lbaf/data/$data/$stem|" -e "s|output_dir: .*|output_dir: $out/output|" \
  -e "s|overwrite_validator: .*|overwrite_validator: false|" "$out/lbaf/config/$config" |
  grep -v -e '^write_JSON' -e '^  \(compressed\|suffix\|communications\|offline_lb_compatible\|lb_iterations\):' \
    >"$out/config.yaml"
grep -q "overwrite_validator" "$out/config.yaml" || echo "overwrite_validator: false" >>"$out/config.yaml"
cat >>"$out/config.yaml" <<'YAML'
write_JSON:
  compressed: false
  suffix: json
  communications: true
  offline_lb_compatible: false
  lb_iterations: false
YAML

rm -rf "$out/output"
start=$(date +%s.%N)
(cd "$out/lbaf" && PYTHONPATH=src "$python" -m lbaf -c "$out/config.yaml" >"$out/lbaf.log" 2>&1) ||
  { echo "lbaf-peer: LBAF failed; its log: $out/lbaf.log" >&2; exit 1; }
lbaf_seconds=$(echo "$(date +%s.%N) - $start" | bc)

# LBAF's figures: the imbalance of the rank loads before and after (its statistics), the
# objects whose rank changed (its output files against its input), the largest rank memory.
read -r lbaf_before lbaf_after lbaf_moved lbaf_memory < <("$python" - "$out" "$data" "$stem" <<'PY'
import json, os, re, sys
out, data, stem = sys.argv[1:]
log = open(f"{out}/lbaf.log").read()
before = re.search(r"initial rank load:\n.*?imbalance: ([0-9.e+-]+)", log).group(1)
after = re.search(r"rebalanced rank load:\n.*?imbalance: ([0-9.e+-]+)", log).group(1)
memory = re.search(r"rebalanced rank maximum memory usage:\n.*?\n.*?maximum: ([0-9.e+-]+)", log).group(1)
def ranks(prefix):
    where, r = {}, 0
    while os.path.exists(f"{prefix}.{r}.json"):
        for phase in json.load(open(f"{prefix}.{r}.json"))["phases"]:
            for task in phase["tasks"]:
                e = task["entity"]
                where[(e.get("collection_id"), e.get("id", e.get("seq_id")))] = r
        r += 1
    return where
a = ranks(f"{out}/lbaf/data/{data}/{stem}")
output_stem = next(f[:-len(".0.json")] for f in os.listdir(f"{out}/output") if f.endswith(".0.json"))
b = ranks(f"{out}/output/{output_stem}")
print(before, after, sum(1 for k in a if b.get(k) != a[k]), memory)
PY
)

build_dlbkit() { [ -x build/bin/dlbkit ] || scripts/build.sh >/dev/null; }
build_dlbkit
strategies=${STRATEGIES:-$(build/bin/dlbkit list phase-strategies | awk '/^  [a-z_]+ / && $1 != "none" {print $1}' | tr '\n' ' ')}
printf "%-44s %10s %10s %9s %14s %10s\n" "balancer" "I before" "I after" "migrated" "max memory" "wall s"
printf "%-44s %10s %10s %9s %14s %10.3f\n" "LBAF InformAndTransfer ($config)" "$lbaf_before" "$lbaf_after" \
  "$lbaf_moved" "$lbaf_memory" "$lbaf_seconds"
for s in $strategies; do
  name=${s%%:*} params=()
  if [[ $s == *:* ]]; then for p in ${s#*:}; do params+=(-p "$p"); done; fi
  args=(phases -s "$name" "${params[@]}" --data "$out/lbaf/data/$data/$stem" --json)
  [ -n "$bound" ] && args+=(--memory-bound "$bound")
  if ! json=$(build/bin/dlbkit "${args[@]}" 2>"$out/dlbkit.err"); then
    printf "%-44s %s\n" "dlbkit $s" "$(cat "$out/dlbkit.err")"
    continue
  fi
  jq -r --arg s "dlbkit $s" '[$s, .imbalance_before, .imbalance_after, .objects_migrated, (.max_memory_after // 0), .wall_seconds]
    | "\(.[0]) \(.[1]) \(.[2]) \(.[3]) \(.[4]) \(.[5])"' <<<"$json" |
    awk '{printf "%-44s %10.5f %10.5f %9d %14.6g %10.3f\n", $1 " " $2, $3, $4, $5, $6, $7}'
done
echo "(LBAF's wall time includes its start and its statistics; dlbkit's is the strategy's decision only."
echo " Memory bound: ${bound:-none}, LBAF's max_memory_usage.)"

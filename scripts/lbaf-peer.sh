#!/usr/bin/env bash
# dlbkit's phase strategies beside LBAF's InformAndTransfer on one of LBAF's own data sets
# (opt-in, never part of the tests): LBAF runs from its source in a scratch folder with its
# shipped configuration for that data, dlbkit's strategies on the same problem read from the
# same configuration (dlbkit phases --lbaf-config: its data, phase, memory bound and group,
# tempered with its InformAndTransfer parameters), and the script prints both (imbalance before
# and after, objects migrated, the largest rank memory, the largest rank work as the
# configuration's work model counts it, wall time).
#   scripts/lbaf-peer.sh [DATA [CONFIG]]
#     DATA    a folder of LBAF's data/ (default challenging_toy_hundreds_tasks: 64 ranks, 23 709 objects)
#     CONFIG  a file of LBAF's config/ (default challenging-toy-hundreds-tasks.yaml)
#   LBAF_SRC  an LBAF checkout or bare git repository (default: cloned from GitHub)
#   VT_SRC    a vt checkout or bare git repository, for its LB data validator, which LBAF
#             imports at start (default: cloned from GitHub)
#   STRATEGIES  dlbkit's phase strategies to run (default: every one but none), with
#             parameters over the configuration's after a colon, separated by commas:
#             "tempered tempered:peers=vt greedy"
#   RUNS      LBAF's runs, and dlbkit's with seeds 1 to RUNS (default 1): LBAF is not
#             deterministic, so each figure is then the median (min..max) over the runs
#   JOBS      LBAF's runs at once (default 1), each in a folder of its own: a run on
#             LBAF's thousands-tasks data takes about 2 h 30 min on one core
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
runs=${RUNS:-1}
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "lbaf-peer: RUNS=$runs is not accepted; accepted: an integer >= 1" >&2; exit 2; }
jobs=${JOBS:-1}
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "lbaf-peer: JOBS=$jobs is not accepted; accepted: an integer >= 1" >&2; exit 2; }
# The configuration's own stem (a data folder may hold several, synthetic-blocks' does).
stem=$(sed -n 's|^ *data_stem: *.*/||p' "$out/lbaf/config/$config" | head -1)
[ -f "$out/lbaf/data/$data/$stem.0.json" ] ||
  { echo "lbaf-peer: configuration '$config' reads data stem '$stem', not in LBAF's data/$data" >&2; exit 2; }
sed -e "s|data_stem: .*|data_stem: $out/lbaf/data/$data/$stem|" -e "s|output_dir: .*|output_dir: $out/output|" \
  -e "s|overwrite_validator: .*|overwrite_validator: false|" "$out/lbaf/config/$config" |
  awk '/^[^ #]/ { skip = /^(write_JSON|visualization):/ } !skip' >"$out/config.yaml"  # ours below; no vt-tv
grep -q "overwrite_validator" "$out/config.yaml" || echo "overwrite_validator: false" >>"$out/config.yaml"
cat >>"$out/config.yaml" <<'YAML'
write_JSON:
  compressed: false
  suffix: json
  communications: true
  offline_lb_compatible: false
  lb_iterations: false
YAML

# One LBAF run: its figures (imbalance of the rank loads before and after from its statistics,
# the objects whose rank changed from its output files against its input, the largest rank
# memory, the largest rank work after its last iteration) and its wall time, on one line. Run
# K has the folder $out/run-K: its configuration, log and output.
run_lbaf() {
  local dir="$out/run-$1" start seconds
  rm -rf "$dir" && mkdir -p "$dir"
  sed "s|output_dir: .*|output_dir: $dir/output|" "$out/config.yaml" >"$dir/config.yaml"
  start=$(date +%s.%N)
  (cd "$out/lbaf" && PYTHONPATH=src "$python" -m lbaf -c "$dir/config.yaml" >"$dir/lbaf.log" 2>&1) ||
    { echo "lbaf-peer: LBAF failed; its log: $dir/lbaf.log" >&2; exit 1; }
  seconds=$(echo "$(date +%s.%N) - $start" | bc)
  "$python" - "$out" "$dir" "$data" "$stem" "$seconds" <<'PY'
import json, os, re, sys
out, dir, data, stem, seconds = sys.argv[1:]
log = open(f"{dir}/lbaf.log").read()
before = re.search(r"initial rank load:\n.*?imbalance: ([0-9.e+-]+)", log).group(1)
after = re.search(r"rebalanced rank load:\n.*?imbalance: ([0-9.e+-]+)", log).group(1)
memory = re.search(r"rebalanced rank maximum memory usage:\n.*?\n.*?maximum: ([0-9.e+-]+)", log)
work = re.findall(r"maximum rank work: ([0-9.e+-]+|inf)", log)[-1]
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
output_stem = next(f[:-len(".0.json")] for f in os.listdir(f"{dir}/output") if f.endswith(".0.json"))
b = ranks(f"{dir}/output/{output_stem}")
print(before, after, sum(1 for k in a if b.get(k) != a[k]), memory.group(1) if memory else 0, work, seconds)
PY
}

# Lines "before after migrated memory work seconds", one per run, as one row: each column's
# median, with (min..max) when the runs differ.
summary() {
  "$python" -c '
import statistics, sys
label, rows = sys.argv[1], [list(map(float, l.split())) for l in sys.stdin if l.strip()]
def cell(values, form):
    m = statistics.median(values)
    low, high = min(values), max(values)
    return form.format(m) + ("" if low == high else " (" + form.format(low) + ".." + form.format(high) + ")")
forms = ["{:.5g}", "{:.5g}", "{:.0f}", "{:.6g}", "{:.5g}", "{:.3g}"]
print(" | ".join([label] + [cell([r[k] for r in rows], forms[k]) for k in range(6)]))
' "$1"
}

# JOBS runs at a time; a failed run stops the script.
rm -rf "$out"/run-*
for ((first = 0; first < runs; first += jobs)); do
  pids=()
  for ((i = first; i < runs && i < first + jobs; ++i)); do
    run_lbaf "$i" >"$out/run-$i.row" &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid" || exit 1; done
done
lbaf_rows=$(cat "$out"/run-*.row)

build_dlbkit() { [ -x build/bin/dlbkit ] || scripts/build.sh >/dev/null; }
build_dlbkit
strategies=${STRATEGIES:-$(build/bin/dlbkit list phase-strategies | awk '/^  [a-z_]+ / && $1 != "none" {print $1}' | tr '\n' ' ')}
echo "balancer | I before | I after | migrated | max memory | max work | wall s"
summary "LBAF InformAndTransfer ($config)" <<<"$lbaf_rows"
for s in $strategies; do
  name=${s%%:*} params=()
  if [[ $s == *:* ]]; then
    IFS=, read -ra assignments <<<"${s#*:}"
    for p in "${assignments[@]}"; do params+=(-p "$p"); done
  fi
  args=(phases --lbaf-config "$out/config.yaml" -s "$name" "${params[@]}" --json)
  rows=""
  for ((seed = 1; seed <= runs; ++seed)); do
    if ! json=$(build/bin/dlbkit "${args[@]}" --seed "$seed" 2>"$out/dlbkit.err"); then
      echo "dlbkit $s | $(cat "$out/dlbkit.err")"
      continue 2
    fi
    rows+=$(jq -r '"\(.imbalance_before) \(.imbalance_after) \(.objects_migrated) \(.max_memory_after // 0) \(.max_work_after // .phases[-1].max_load_after) \(.wall_seconds)"' <<<"$json")$'\n'
  done
  summary "dlbkit $s" <<<"$rows"
done
echo "(LBAF's wall time includes its start and its statistics; dlbkit's is the strategy's decision only."
echo " dlbkit's problem is the configuration's (--lbaf-config). Runs: $runs, dlbkit's with seeds 1 to $runs.)"

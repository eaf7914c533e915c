#!/usr/bin/python3
"""The figures of docs/objects.md, on this machine (not in CI: they time real runs).

  scripts/objects-figures.py balance    the stencil's balanced phase time over total work / P,
                                        threads and MPI on 2 workers, median of 3 runs each
  scripts/objects-figures.py predict    the simulator's replay of a recorded unbalanced run
                                        under each strategy, beside the strategy's real run
  scripts/objects-figures.py advise     dlbkit advise --data on a recorded unbalanced run: every
                                        row it ranks run for real, and its pick beside the real best
  scripts/objects-figures.py messages   MPI, the stencil and the particles: each strategy's real
                                        run beside its replay with the messages and migrated bytes
                                        priced, and advise's pick beside the real best
  scripts/objects-figures.py default    the evidence for the default strategy: each candidate on
                                        the examples' recorded runs (replayed, threads and MPI
                                        priced) and on LBAF's data sets (one step: imbalance and
                                        objects moved); LBAF's data folder from $LBAF_DATA, if set;
                                        $MIGRATION_COST (e.g. 24us): the MPI migration cost
                                        per object, instead of fitting it on greedy's real runs
  scripts/objects-figures.py protocol   MPI, each rank protocol's step (bench/mpi/plan_step_bench)
                                        beside its prediction, $RUNS runs on each of $RANKS ranks

$TIMED: a command put before each timed run (a real run, a calibration), e.g. "flock LOCKFILE"
on a machine shared with other timed work. `messages` runs $RUNS rounds (default 3) on $RANKS
ranks (default "2 4"), of the programs in $PROGRAMS (default "stencil particles"); the
particles with the options $PARTICLES_ARGS (default "--work 4").

Needs a build (scripts/build.sh) and mpirun; writes its scratch files under a temporary folder.
"""
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STENCIL = os.path.join(ROOT, "build/bin/dlbkit_example_stencil")
PARTICLES = os.path.join(ROOT, "build/bin/dlbkit_example_particles")
AMR = os.path.join(ROOT, "build/bin/dlbkit_example_amr")
DLBKIT = os.path.join(ROOT, "build/bin/dlbkit")
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
TIMED = shlex.split(os.environ.get("TIMED", ""))
STRATEGIES = ["greedy", "refine", "tempered", "diffusion"]
PROTOCOLS = {"tempered", "diffusion"}  # of STRATEGIES, those ObjectRuntime decides by their rank protocol


def stencil(engine, args, program=STENCIL, ranks=2):
    if engine == "threads":
        cmd = [program, "--workers", str(ranks)]
    else:
        cmd = ["mpirun", "--oversubscribe", "-np", str(ranks), program, "--engine", "mpi"]
    out = subprocess.run(TIMED + cmd + args + ["--json"], capture_output=True, text=True, env=ENV, check=True).stdout
    run = json.loads(out.strip().splitlines()[-1])
    if run["checksum_balanced"] != run["checksum_unbalanced"]:
        sys.exit("checksums differ: " + " ".join(cmd + args))
    return run


def balance():
    configs = [(s, every, []) for every in (1, 4) for s in STRATEGIES]
    configs += [(s, 1, ["--load-model", "linear"]) for s in ("greedy", "refine")]
    configs += [(s, 1, ["--phases", "160"]) for s in ("greedy", "refine", "tempered")]
    print("| strategy | --every | other options | threads: median (min-max) | migrated | MPI: median (min-max) | migrated |")
    print("|---|---|---|---|---|---|---|")
    for strategy, every, extra in configs:
        cells = []
        for engine in ("threads", "mpi"):
            runs = [stencil(engine, ["--strategy", strategy, "--every", str(every)] + extra) for _ in range(3)]
            ratios = sorted(r["mean_phase_seconds_balanced"] / r["ideal_phase_seconds"] for r in runs)
            moved = sorted(r["objects_migrated"] for r in runs)
            cells += ["%.2f (%.2f-%.2f)" % (ratios[1], ratios[0], ratios[2]), str(moved[1])]
        print("| %s | %d | %s | %s |" % (strategy, every, " ".join(extra), " | ".join(cells)), flush=True)


def replay(stem, strategy, cost, migration):
    out = subprocess.run([DLBKIT, "phases", "-s", strategy, "--data", stem, "--replay", "-c", "file:" + cost,
                          "--migration-cost", migration, "--json"], capture_output=True, text=True, check=True).stdout
    return json.loads(out)["mean_phase_seconds"]


def calibrated(scratch, engine):
    """The engine's cost model (dlbkit calibrate), its file."""
    cost = os.path.join(scratch, engine + ".json")
    calibrate = [DLBKIT, "calibrate", "--engine", engine, "-o", cost]
    if engine == "mpi":
        calibrate = ["mpirun", "--oversubscribe", "-np", "2"] + calibrate
    subprocess.run(TIMED + calibrate, capture_output=True, env=ENV, check=True)
    return cost


def duration_ns(text):
    for unit, scale in (("ns", 1), ("us", 1e3), ("ms", 1e6), ("s", 1e9)):
        if text.endswith(unit) and text[:-len(unit)].replace(".", "", 1).isdigit():
            return float(text[:-len(unit)]) * scale
    raise ValueError("not a duration: " + text)


def median_calibration(scratch, runs=3):
    """The MPI model of `runs` calibrations, each duration the median of theirs: one
    calibration's message costs move by up to a factor of two from one launch to the next here
    (where mpirun places the two ranks), the median less."""
    models = [json.load(open(calibrated(scratch, "mpi"))) for _ in range(runs)]
    model = models[runs // 2]
    # A plan API term measured as 0 is not written (a field left out is 0).
    keys = {key for m in models for key, value in m.items()
            if isinstance(value, str) and key not in ("name", "transfer", "checks", "mail")}
    for key in keys:
        model[key] = "%gns" % statistics.median(duration_ns(m.get(key, "0ns")) for m in models)
    path = os.path.join(scratch, "mpi-median.json")
    json.dump(model, open(path, "w"))
    return path


def migration_cost(engine, greedy_runs):
    """Between threads an object moves without a copy; between ranks the cost per object is
    fitted on one number: greedy's real balancing seconds per object migrated (median)."""
    if engine == "threads":
        return "0ns"
    per_object = statistics.median(r["balancing_seconds"] / r["objects_migrated"] for r in greedy_runs)
    print("MPI migration cost per object, fitted on greedy's real runs: %dns" % round(per_object * 1e9))
    return "%dns" % round(per_object * 1e9)


def predict(scratch):
    rows = {s: [] for s in STRATEGIES}
    for engine in ("threads", "mpi"):
        cost = calibrated(scratch, engine)
        stem = os.path.join(scratch, "none-" + engine)
        unbalanced = stencil(engine, ["--strategy", "none", "--record", stem])
        real = {s: [stencil(engine, ["--strategy", s]) for _ in range(3)] for s in STRATEGIES}
        migration = migration_cost(engine, real["greedy"])
        print("unbalanced, %s: real %.2f ms, replayed %.2f ms" % (
            engine, 1e3 * unbalanced["mean_phase_seconds_unbalanced"], 1e3 * replay(stem, "none", cost, migration)))
        for s in STRATEGIES:
            measured = statistics.median(r["mean_phase_seconds_balanced"] for r in real[s])
            predicted = replay(stem, s, cost, migration)
            rows[s] += ["%.2f ms" % (1e3 * measured), "%.2f ms" % (1e3 * predicted), "%+.0f%%" % (100 * (predicted / measured - 1))]
    print("| strategy | threads: real | predicted | error | MPI: real | predicted | error |")
    print("|---|---|---|---|---|---|---|")
    for s in STRATEGIES:
        print("| %s | %s |" % (s, " | ".join(rows[s])))


def advise(scratch):
    """advise --data's ranking of a recorded unbalanced run, each row run for real (median of 3,
    on hypercube:1, the two workers' network, so that hbm runs too)."""
    for engine in ("threads", "mpi"):
        cost = calibrated(scratch, engine)
        stem = os.path.join(scratch, "none-" + engine)
        stencil(engine, ["--strategy", "none", "--record", stem])
        migration = migration_cost(engine, [stencil(engine, ["--strategy", "greedy"]) for _ in range(3)])
        out = subprocess.run([DLBKIT, "advise", "--data", stem, "-t", "hypercube:1", "-c", "file:" + cost,
                              "--migration-cost", migration, "--json"], capture_output=True, text=True,
                             check=True).stdout
        advice = json.loads(out)
        ranking, search = advice["ranking"], advice["search"]
        print("\n%s: advise's ranking of the recorded run (%s phases), each row run for real" % (
            engine, advice["inputs"]["phases"]))
        print("| rank | strategy | parameters | predicted | real (median of 3) | error |")
        print("|---|---|---|---|---|---|")
        real = []
        for row in ranking:
            params = []
            for name, value in sorted(row["params"].items()):
                params += ["--param", "%s=%s" % (name, value if isinstance(value, str) else json.dumps(value))]
            runs = [stencil(engine, ["--strategy", row["strategy"], "--topology", "hypercube:1"] + params)
                    for _ in range(3)]
            measured = statistics.median(r["mean_phase_seconds_balanced"] for r in runs)
            real.append(measured)
            searched = search.get(row["strategy"], {})
            shown = " ".join(p for p in params[1::2] if p.split("=")[0] in searched) or "(defaults)"
            print("| %d | %s | %s | %.3f ms | %.3f ms | %+.1f%% |" % (
                row["rank"], row["strategy"], shown, 1e3 * row["predicted_phase_seconds"], 1e3 * measured,
                100 * (row["predicted_phase_seconds"] / measured - 1)), flush=True)
        best = min(range(len(real)), key=lambda i: real[i])
        print("advise's pick, %s: real %.3f ms; the real best, %s: %.3f ms; the pick is %+.1f%% from it" % (
            ranking[0]["strategy"], 1e3 * real[0], ranking[best]["strategy"], 1e3 * real[best],
            100 * (real[0] / real[best] - 1)))


def messages(scratch):
    """Under MPI, programs whose messages cross ranks: each strategy's real run beside the
    replay of a recorded unbalanced run, whose phases pay their crossing messages and whose
    migrations pay their recorded bytes (an object and its unread messages) at the calibrated
    model's costs, and the recorded times to pack and unpack them (nothing fitted). $RUNS rounds,
    each a recording and a real run of every strategy (so that a slower spell of the machine falls
    on all of them); real: the median of the runs, predicted: the median of the recordings'
    replays, error: of the two medians, paired error: the median over the rounds of each round's
    replay over its real run, scaled error: the same with the replay scaled by the host's speed in
    the real run's own process (its unbalanced run, which the example runs first, over the replay
    of that round's recording without balancing); the strategies that ObjectRuntime decides by
    their rank protocols priced as these run (--as-protocol: the calibrated plan API's rounds and step, the agents'
    computation as timed here). Beside them, the real runs' overhead (a phase's wall time beyond its busiest
    worker's load, which holds the messages' delivery) and balancing time per phase, and the bytes a
    phase puts across ranks, replayed and real (the real strategy decides on its own loads), and the
    strategies' order by the predicted and by the real times; then advise's pick (on the recording
    of the median unbalanced replay) beside the real best, the pick and every strategy run again in
    $RUNS new rounds."""
    programs = {"stencil": (STENCIL, []),
                "particles": (PARTICLES, shlex.split(os.environ.get("PARTICLES_ARGS", "--work 4")))}
    chosen = os.environ.get("PROGRAMS", "stencil particles").split()
    if not chosen or any(name not in programs for name in chosen):
        print("objects-figures: PROGRAMS=%r is not accepted; accepted: stencil, particles or both"
              % os.environ.get("PROGRAMS"), file=sys.stderr)
        sys.exit(2)
    cost = median_calibration(scratch)
    print("calibrated MPI model: send %s, handle %s, latency %s, per byte %s" % tuple(
        json.load(open(cost))[f] for f in ("send_overhead", "handle_cost", "latency", "per_byte")))
    rounds = int(os.environ.get("RUNS", "3"))
    for name in chosen:
        program, args = programs[name]
        for ranks in map(int, os.environ.get("RANKS", "2 4").split()):
            stems, runs = [], {s: [] for s in ["none"] + STRATEGIES}
            for k in range(rounds):
                stems.append(os.path.join(scratch, "%s-%d-%d" % (name, ranks, k)))
                stencil("mpi", ["--strategy", "none", "--record", stems[-1]] + args, program, ranks)
                for s in runs:
                    runs[s].append(stencil("mpi", ["--strategy", s] + args, program, ranks))

            def replays(strategy):  # as the runtime decides: by its rank protocol where it has one
                protocol = ["--as-protocol"] if strategy in PROTOCOLS else []
                return [json.loads(subprocess.run(
                    [DLBKIT, "phases", "-s", strategy, "--data", stem, "--replay", "-c", "file:" + cost, "--json"]
                    + protocol, capture_output=True, text=True, check=True).stdout) for stem in stems]
            print("\n%s, %d ranks (%s)" % (name, ranks, " ".join(args) or "defaults"))
            unbalanced = replays("none")
            print("| strategy | real | (min-max) | predicted | error | paired error | scaled error | real overhead "
                  "| predicted messages "
                  "| real balancing (decide + migrate) | predicted (protocol + migration) | crossing KB "
                  "| real crossing KB |")
            print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
            real, predictions = {}, {}
            for s in runs:
                real[s] = statistics.median(r["mean_phase_seconds_balanced"] for r in runs[s])
                js = unbalanced if s == "none" else replays(s)
                phases = len(js[0]["phases"])
                predicted = predictions[s] = statistics.median(j["mean_phase_seconds"] for j in js)
                if s == "none":  # advise reads the recording of the median unbalanced replay
                    median_stem = stems[sorted(range(rounds), key=lambda k: js[k]["mean_phase_seconds"])[rounds // 2]]
                times = [r["mean_phase_seconds_balanced"] for r in runs[s]]
                # Each round's replay against that round's real run, made minutes apart at most:
                # the machine's drift over the whole script falls out of the ratio.
                paired = statistics.median(j["mean_phase_seconds"] / t for j, t in zip(js, times))
                # A process runs the example's unbalanced phases, then its balanced ones: the host's speed
                # in that process (it moves by up to a sixth from one minute to the next here) is the
                # unbalanced run's time over the replay of the recording, which ran no balancing either.
                scaled = statistics.median(j["mean_phase_seconds"] * r["mean_phase_seconds_unbalanced"]
                                           / (u["mean_phase_seconds"] * r["mean_phase_seconds_balanced"])
                                           for j, u, r in zip(js, unbalanced, runs[s]))
                def real_ms(field):  # per phase, the median over the rounds
                    return 1e3 * statistics.median(r[field] / r["phases"] for r in runs[s])

                def predicted_ms(field):
                    return 1e3 * statistics.median(j[field] for j in js) / phases
                print("| %s | %.2f ms | %.2f-%.2f | %.2f ms | %+.1f%% | %+.1f%% | %+.1f%% | %.3f ms | %.3f ms "
                      "| %.3f (%.3f + %.3f) ms | %.3f (%.3f + %.3f) ms | %.0f | %.0f |" % (
                    s, 1e3 * real[s], 1e3 * min(times), 1e3 * max(times), 1e3 * predicted,
                    100 * (predicted / real[s] - 1), 100 * (paired - 1), 100 * (scaled - 1),
                    1e3 * statistics.median(r["overhead_phase_seconds"] for r in runs[s]),
                    1e3 * statistics.median(j["communication_seconds"] for j in js) / phases,
                    real_ms("balancing_seconds"), real_ms("decide_seconds"), real_ms("migrate_seconds"),
                    predicted_ms("balancing_seconds"), predicted_ms("protocol_seconds"),
                    predicted_ms("migration_seconds"),
                    statistics.median(sum(p["crossing_bytes"] for p in j["phases"]) for j in js) / phases / 1e3,
                    statistics.median(r["crossing_phase_bytes"] for r in runs[s]) / 1e3), flush=True)
            order = {"predicted": sorted(runs, key=predictions.get), "real": sorted(runs, key=real.get)}
            print("order, fastest first: predicted %s; real %s (%s)" % (
                " < ".join(order["predicted"]), " < ".join(order["real"]),
                "the same" if order["predicted"] == order["real"] else "they differ"))
            out = subprocess.run([DLBKIT, "advise", "--data", median_stem, "-t", "complete:%d" % ranks,
                                  "-c", "file:" + cost, "--as-protocol", "--json"],
                                 capture_output=True, text=True, check=True).stdout
            pick = json.loads(out)["ranking"][0]
            params = []
            for key, value in sorted(pick["params"].items()):
                params += ["--param", "%s=%s" % (key, value if isinstance(value, str) else json.dumps(value))]
            label = "advise's pick " + " ".join([pick["strategy"]] + params[1::2])
            # The pick beside every strategy run again, in the same rounds, so that the machine's
            # drift since the runs above falls on all of them alike.
            again = {label: ["--strategy", pick["strategy"]] + params}
            again.update((s, ["--strategy", s]) for s in runs)
            block = {name: [] for name in again}
            for _ in range(rounds):
                for name, options in again.items():
                    block[name].append(stencil("mpi", options + args, program, ranks))
            picked = block[label]
            real = {name: statistics.median(r["mean_phase_seconds_balanced"] for r in block[name]) for name in block}
            best = min(real, key=real.get)
            print("%s: predicted %.2f ms, real %.2f ms (%.2f-%.2f); the real best, %s: %.2f ms; the pick %+.1f%% "
                  "from it" % (label, 1e3 * pick["predicted_phase_seconds"], 1e3 * real[label],
                               1e3 * min(r["mean_phase_seconds_balanced"] for r in picked),
                               1e3 * max(r["mean_phase_seconds_balanced"] for r in picked), best, 1e3 * real[best],
                               100 * (real[label] / real[best] - 1)))


CANDIDATES = ["greedy", "refine", "tempered", "diffusion", "hbm", "hierarchical", "partition"]


def phases(args, strategy, ranks):
    """dlbkit phases' JSON for one candidate; hbm on the hypercube of the ranks (it needs one)."""
    topology = ["-t", "hypercube:%d" % (ranks.bit_length() - 1)] if strategy == "hbm" else []
    out = subprocess.run([DLBKIT, "phases", "-s", strategy] + topology + args + ["--json"],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def vt_file(path):
    """One of vt's LB data files, plain or brotli-compressed (as vt writes them)."""
    data = open(path, "rb").read()
    if not data.startswith(b"{"):
        import brotli  # python3-brotli
        data = brotli.decompress(data)
    return json.loads(data)


def default(scratch):
    """Each candidate on the examples' recorded unbalanced runs (2 workers), replayed and priced
    as threads (migrations free) and as MPI (the calibrated messages, and the migration cost per
    object fitted on greedy's real runs, as `predict` does); then one balancing step of each
    LBAF data set (tests/data/vt's two, and LBAF's own data folder from $LBAF_DATA if set)."""
    programs = [("stencil", STENCIL), ("particles", PARTICLES)] + ([("amr", AMR)] if os.path.exists(AMR) else [])
    cost = {"threads": ["-c", "ideal", "--migration-cost", "0ns"]}
    mpi_cost = calibrated(scratch, "mpi")
    # On a machine busy with other work the fit is the waiting, not the copy: give the cost then.
    migration = os.environ.get("MIGRATION_COST") or migration_cost(
        "mpi", [stencil("mpi", ["--strategy", "greedy"]) for _ in range(3)])
    cost["mpi"] = ["-c", "file:" + mpi_cost, "--migration-cost", migration]
    ratios = {s: [] for s in CANDIDATES}
    print("| program | priced as | none | %s |" % " | ".join(CANDIDATES))
    print("|---|---|---|%s" % ("---|" * len(CANDIDATES)))
    for name, program in programs:
        stem = os.path.join(scratch, name)
        stencil("threads", ["--strategy", "none", "--record", stem], program)
        for engine in ("threads", "mpi"):
            runs = {s: phases(["--data", stem, "--replay"] + cost[engine], s, 2) for s in ["none"] + CANDIDATES}
            best = min(runs[s]["mean_phase_seconds"] for s in CANDIDATES)
            for s in CANDIDATES:
                ratios[s].append(runs[s]["mean_phase_seconds"] / best)
            print("| %s | %s | %s |" % (name, engine, " | ".join(
                "%.2f ms (%d)" % (1e3 * runs[s]["mean_phase_seconds"], runs[s]["objects_migrated"])
                for s in ["none"] + CANDIDATES)), flush=True)
    print("(phase time, and objects moved in all) geometric mean of phase time over the best: " + ", ".join(
        "%s %.3f" % (s, statistics.geometric_mean(ratios[s])) for s in CANDIDATES))

    sets = [os.path.join(ROOT, "tests/data/vt", stem) for stem in ("toy_mem", "synthetic-dataset-blocks")]
    lbaf = os.environ.get("LBAF_DATA")
    if lbaf:
        sets += [os.path.join(lbaf, stem) for stem in (
            "challenging_toy_fewer_tasks/toy", "challenging_toy_hundreds_tasks/toy",
            "challenging_toy_thousands_tasks/toy", "nolb-8color-16nodes-data/data")]
    print("\n(imbalance after one step, and objects moved)")
    print("| data set | ranks | objects | I before | lower bound | %s |" % " | ".join(CANDIDATES))
    print("|---|---|---|---|---|%s" % ("---|" * len(CANDIDATES)))
    for stem in sets:
        files = [os.path.join(os.path.dirname(stem), f) for f in os.listdir(os.path.dirname(stem))
                 if f.startswith(os.path.basename(stem) + ".") and f.endswith(".json")]
        ranks = len(files)
        objects = sum(len(vt_file(f)["phases"][0]["tasks"]) for f in files)  # the first phase's
        runs = {s: phases(["--data", stem], s, ranks) for s in CANDIDATES}
        first = runs[CANDIDATES[0]]
        print("| %s | %d | %d | %.3f | %.3f | %s |" % (
            os.path.relpath(stem, lbaf if lbaf and stem.startswith(lbaf) else ROOT), ranks, objects,
            first["imbalance_before"], first["imbalance_lower_bound"],
            " | ".join("%.3f (%d)" % (runs[s]["imbalance_after"], runs[s]["objects_migrated"]) for s in CANDIDATES)),
            flush=True)


PLAN_STEP = os.path.join(ROOT, "build/bench/plan_step_bench")
PROTOCOL_STRATEGIES = ["tempered", "diffusion", "dimension_exchange", "sos", "chebyshev", "hbm", "hierarchical"]


def protocol(scratch):
    """Each rank protocol's step under MPI (bench/mpi/plan_step_bench, 200 objects a rank on a
    hot spot) beside its prediction, the agents run in process and priced by the median of
    three calibrations (`dlbkit phases --as-protocol`'s meter). Per run: the median decision
    time of 21 plans of the same objects after 10 not timed, the slowest rank's; $RUNS runs
    (default 7) on each of $RANKS (default "2") ranks, their median."""
    cost = median_calibration(scratch)
    model = json.load(open(cost))
    print("calibrated MPI model (median of 3): send %s, handle %s, latency %s, protocol_round %s, protocol_step %s, "
          "protocol_object %s" % tuple(model.get(f, "0ns") for f in ("send_overhead", "handle_cost", "latency",
                                                                     "protocol_round", "protocol_step",
                                                                     "protocol_object")))  # a term measured as 0 is left out
    print("| strategy | ranks | rounds | messages | predicted | measured: median (range) | measured / predicted |")
    print("|---|---|---|---|---|---|---|")
    for ranks in map(int, os.environ.get("RANKS", "2").split()):
        for strategy in PROTOCOL_STRATEGIES:
            topology = ["--topology", "hypercube:%d" % (ranks.bit_length() - 1)] if strategy == "hbm" else []
            runs = []
            for _ in range(int(os.environ.get("RUNS", "7"))):
                out = subprocess.run(TIMED + ["mpirun", "--oversubscribe", "-np", str(ranks), PLAN_STEP, "--strategy",
                                              strategy, "--objects", "200", "--steps", "1", "--warmup", "10",
                                              "--timed", "21", "--predict", "file:" + cost] + topology,
                                     capture_output=True, text=True, env=ENV, check=True).stdout
                runs.append(json.loads(out.strip().splitlines()[-1]))
            predicted = statistics.median(r["predicted_seconds"] for r in runs)
            measured = [r["steps"][0]["decision_seconds"] for r in runs]
            if any(r["steps"][0]["protocol_rounds"] != r["predicted_rounds"] or
                   r["steps"][0]["protocol_messages"] != r["predicted_messages"] for r in runs):
                sys.exit("%s on %d ranks: the rounds or messages differ from the prediction's" % (strategy, ranks))
            print("| %s | %d | %d | %d | %.4f ms | %.4f ms (%.4f to %.4f) | %.2f |" % (
                strategy, ranks, runs[0]["predicted_rounds"], runs[0]["predicted_messages"], 1e3 * predicted,
                1e3 * statistics.median(measured), 1e3 * min(measured), 1e3 * max(measured),
                statistics.median(measured) / predicted), flush=True)


if __name__ == "__main__":
    modes = {"balance": None, "predict": predict, "advise": advise, "messages": messages, "default": default,
             "protocol": protocol}
    if len(sys.argv) != 2 or sys.argv[1] not in modes:
        sys.exit("usage: scripts/objects-figures.py balance|predict|advise|messages|default|protocol")
    if sys.argv[1] == "balance":
        balance()
    else:
        with tempfile.TemporaryDirectory() as scratch:
            modes[sys.argv[1]](scratch)

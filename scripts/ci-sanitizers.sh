#!/usr/bin/env bash
# The sanitizer stages of CI:
#   fuzz  the libFuzzer targets of fuzz/, each from its seed corpus fuzz/corpus/<target>/ for
#         FUZZ_SECONDS (default 10) s; FUZZ_TARGETS="uts_tree ..." runs some only. 10 s, down
#         from 25, saves 2 minutes of CI (8 targets); every seed input of the corpus still runs
#         under the sanitizers, but the search for new inputs is shorter, so weaker: search
#         longer by hand (FUZZ_SECONDS=600) after changing a parser.
#   asan  every test under AddressSanitizer + UndefinedBehaviorSanitizer with libstdc++'s
#         assertions (-D_GLIBCXX_ASSERTIONS), halting on the first report
#   tsan  the runtime and objects tests (the threads engine, MPI ranks with threads of their
#         own, the runtime example) and the simulator's parallel windows under ThreadSanitizer
# fuzz and asan share build-asan/ (Clang: libFuzzer is Clang's), its layers and tests compiled
# in batches of sources (DLBKIT_UNITY_BUILD) as in scripts/test.sh; tsan builds with GCC in
# build-tsan/, only the runtime tests and the CLI, each file alone, so that CI also compiles
# those files as an edit does (a file that compiles only in a batch, for a header another file
# of the batch includes, fails there). All at -O1 with assertions on.
# Usage: scripts/ci-sanitizers.sh [fuzz] [asan] [tsan]   (default: all three)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
source scripts/compiler-cache.sh
stages=("$@")
[ ${#stages[@]} -eq 0 ] && stages=(fuzz asan tsan)
jobs=$(nproc)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export ASAN_OPTIONS=halt_on_error=1:detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1

configure() {  # build directory, sanitizers, further CMake arguments
  local dir=$1 sanitize=$2
  shift 2
  cmake -S . -B "$dir" -G Ninja -DDLBKIT_SANITIZE="$sanitize" -DDLBKIT_WERROR=ON -DDLBKIT_BUILD_BENCH=OFF \
        -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" "${compiler_cache[@]}" "$@" >/dev/null
}
configure_asan() {
  configure build-asan address,undefined -DCMAKE_CXX_COMPILER=clang++ -DDLBKIT_BUILD_FUZZ=ON -DDLBKIT_UNITY_BUILD=ON
}

# Runs one fuzz target; it fails on a crash, a sanitizer report, an exception other than
# dlbkit::InputError, a broken check, an input slower than 10 s or more than 2 GiB of memory,
# and keeps the input as build-asan/fuzz/<target>-crash-... (add it to the corpus with the
# fix). New inputs go to a scratch corpus, not to the repository.
fuzz_one() {
  local t=$1 seconds=${FUZZ_SECONDS:-10} scratch log
  scratch=$(mktemp -d)
  log=build-asan/fuzz/$t.log
  if build-asan/fuzz/fuzz_"$t" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -max_len=4096 \
       -print_final_stats=1 -artifact_prefix="build-asan/fuzz/$t-" "$scratch" "fuzz/corpus/$t" >"$log" 2>&1; then
    echo "fuzz $t: $(sed -n 's/^stat::number_of_executed_units: *//p' "$log") executions in $seconds s," \
         "$(find "fuzz/corpus/$t" -type f | wc -l) seeds, $(find "$scratch" -type f | wc -l) new inputs; within the contract"
    rm -rf "$scratch"
  else
    echo "fuzz $t: FAILED; the end of $log:"
    tail -n 40 "$log"
    rm -rf "$scratch"
    return 1
  fi
}

for stage in "${stages[@]}"; do
  start=$SECONDS
  case "$stage" in
    fuzz)
      targets=(${FUZZ_TARGETS:-})
      if [ ${#targets[@]} -eq 0 ]; then
        for dir in fuzz/corpus/*/; do targets+=("$(basename "$dir")"); done
      fi
      configure_asan
      cmake --build build-asan -j "$jobs" --target "${targets[@]/#/fuzz_}"
      failed=0
      for t in "${targets[@]}"; do fuzz_one "$t" || failed=$((failed + 1)); done
      [ $failed -eq 0 ] || { echo "fuzz: $failed of ${#targets[@]} targets failed"; exit 1; }
      ;;
    asan)
      configure_asan
      cmake --build build-asan -j "$jobs"
      # The MPI tests one at a time, and without LeakSanitizer: Open MPI keeps allocations of
      # its plugins until exit, unloaded before the leak check can name them. The simulations
      # on mpirun's processes compare every strategy (70 s here) and are left to the Release
      # run: their windows run under ASan in ParallelWindows.ProcessesGiveTheVeryRunOfOneThread.
      (cd build-asan && ASAN_OPTIONS=halt_on_error=1:detect_leaks=0 ctest --output-on-failure --timeout 900 -R '^(Mpi(Engine|Runtime)|Calibration\.Mpi)|_mpi$' \
        -E '^simulate_same_runs_')
      # The longest simulations (the liveness sweep over every strategy's parameter ends, and
      # reproductions of minutes under ASan) are left to the Release run: the same code paths
      # run under ASan in the shorter tests of their layers. So are the largest instances of
      # code a smaller test of the same suite runs whole: the largest torus and odd graph
      # (Torus.SizesAndDiameters, Odd.PetersenGraph ...), the sparse solver on a 2^20-node
      # hypercube (Spectrum.DenseAndLanczosAgree..., TorusClosedFormMatchesBothSolvers) and
      # closed-form distances on larger instances (Distance.MatchesBfsOnEveryFamily); together
      # about 4% of the Release test time of the tests ASan runs (32 of 867 s, loaded machine).
      # Two sweeps whose every run takes paths that shorter tests take under ASan, 115 of the
      # 857 test seconds of the tests it ran before: every strategy on 1 to 4 threads (the
      # tsan stage runs it whole; ParallelWindows.ProcessesGive... and ObserversSee... take
      # the windows under ASan) and 90 simulations with their tasks deferred and held (the
      # other DeferredTasks tests and every simulation take either path). Kept although slow:
      # the round agents' conservation sweeps (no shorter test runs them under every cost
      # model) and the streaming and past-the-table paths, which only large instances take.
      # Left out too: the checks that compile (label build) or compare the docs with the
      # reproductions' output (Docs.*), which test no sanitized code of their own.
      (cd build-asan && ctest --output-on-failure -j "$jobs" --timeout 900 -LE '^build$' \
        -E '^(Mpi(Engine|Runtime)|Calibration\.Mpi)|_mpi$|^Docs\.|^StrategyLiveness\.|^AhmadReproductions\.Fig11|^CybenkoTable[12]\.|^Torus\.LargestBuilds$|^Odd\.LargestBuildsWithTheRightCount$|^Spectrum\.HypercubeOfDimension20BySparseSolver$|^Distance\.MatchesBfsOnLargerClosedFormInstances$|^ParallelWindows\.EveryThreadCountGivesTheVeryRunOfOneThread$|^DeferredTasks\.SimulationsAreTheSameAsWithTheTasksHeld$')
      ;;
    tsan)
      configure build-tsan thread -DDLBKIT_UNITY_BUILD=OFF
      cmake --build build-tsan -j "$jobs" --target dlbkit_cli dlbkit_runtime_tests dlbkit_objects_tests dlbkit_example_tree_count \
        dlbkit_sim_tests dlbkit_topology_tests
      # Of the MPI tests, the MpiRuntime ones, among them ranks that run threads (the threads
      # engine under mpirun, a Runtime on a thread of the program's). A rank of the MPI engine
      # is one thread (one worker a rank, MPI called from the Runtime's thread), where
      # ThreadSanitizer has no race to find: the MpiEngine tests run under ASan (210 s here
      # under TSan). One at a time: each mpirun starts up to four ranks, which under
      # ThreadSanitizer run 5-15 times slower, against the tests' 120 s limit per mpirun.
      # UtsRuntime.T1CountsAsPublishedForEveryStrategy is left to the Release run: it walks
      # the same engine paths as ThreadsEngine.EveryStrategyCountsTheTreeExactly on a 4-million-node tree.
      (cd build-tsan && export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$PWD/../scripts/tsan-suppressions.txt" &&
        ctest --output-on-failure -j "$jobs" --timeout 900 -L '^(runtime|objects)$' -E '^(Mpi(Engine|Runtime)|Calibration\.Mpi)|_mpi$|T1CountsAsPublishedForEveryStrategy' &&
        ctest --output-on-failure --timeout 900 -L runtime -R '^MpiRuntime\.' &&
        ctest --output-on-failure -j "$jobs" --timeout 900 -R '^(ParallelWindows|ListsOnFirstUse)\.')  # the simulator's threads, the lists they share
      ;;
    *) echo "scripts/ci-sanitizers.sh: unknown stage '$stage'; accepted: fuzz, asan, tsan" >&2; exit 2 ;;
  esac
  echo "stage $stage: $((SECONDS - start)) s"
done

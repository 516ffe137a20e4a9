#!/usr/bin/env bash
# The one device runner: named suites of GPU checks, each under its own time limit, logs in $OUT.
#
#   bash tools/device.sh SUITE [SUITE...]        (from the checkout's root, on the GPU machine)
#
# It sources tools/gpu-machine.sh (the wheels of .whl/, LA_GRAPH_DATA=.data/), so a device call
# carries [".whl", ".data"] and its command is just `bash tools/device.sh gpu-tests stress`.
# Suites:
#   gpu-tests   pytest -m "gpu and not stress" over tests/ (every GPU unit test; GPU_TEST_FILES, e.g.
#               "tests/test_sssp.py tests/test_louvain.py", only those files), in GPU_SHARDS
#               (default 4) processes at once, logs gpu-tests-<i>.log
#   stress      pytest -m "gpu and stress" (tests/test_gpu_stress.py: every algorithm called
#               LA_GRAPH_STRESS_REPEAT times, default 20, on R-MAT 20 and the real graphs,
#               each answer equal to the CPU engine's and checked by la_graph.verify), in
#               STRESS_SHARDS (default 4) processes (the tests dealt round robin);
#               logs stress-<i>.log
#   bench       `la-graph bench` once per line of $BENCH (each line the bench arguments, e.g.
#               "hits katz --graphs rmat22 --engines cpu,gpu --processes 3"), records $OUT/bench-<i>.json,
#               logs bench-<i>.log, each line under LIMIT_BENCH seconds (default 300)
#   networkx    the NetworkX backend's speed table on the GPU engine (python -m la_graph.bench.networkx_dispatch
#               --engine gpu $NX_ARGS, default "--graphs facebook,gnm100k --ways networkx,la_graph,la_graph_cached"),
#               record $OUT/networkx-gpu.json, log networkx.log, under LIMIT_NETWORKX seconds (default 400)
#   ecl         build the ECL suite's programs carried in .ecl/ (python -m la_graph.bench.external fetch, here)
#               with nvcc, so that `--peers ecl` runs them; log ecl.log
#   sanitizer   compute-sanitizer (tools in SANITIZER_TOOLS, default "racecheck synccheck
#               memcheck initcheck", all at once, each in SANITIZER_SHARDS processes, default 3)
#               over the stress suite on one small graph of each generator family, one call each
#               (LA_GRAPH_STRESS_GRAPHS=small, REPEAT=1), logs sanitizer-<tool>-<i>.log;
#               a hazard or error fails the suite (--error-exitcode).  compute-sanitizer
#               needs the nvidia-h100 kinds: on the gVisor H200 it reports "Device not supported"
# SUITE+SUITE (e.g. gpu-tests+stress) runs those suites at the same time, each in a child of this script;
# the parent waits for them by PID (never by `pgrep -f` on text: that matches the device call's own shell).
# Knobs (environment):
#   LIMIT_GPU_TESTS, LIMIT_STRESS, LIMIT_SANITIZER   seconds a suite may run (default 300, 300,
#                    120 per sanitizer tool); at the limit the suite is stopped and marked 124
#   PYTEST_ARGS      extra pytest arguments for every suite (split at spaces, e.g. "-x")
#   STRESS_K         a pytest -k expression choosing the stress suite's tests (e.g. "rmat20 and katz")
#   SANITIZER_TOOLS  the compute-sanitizer tools of the sanitizer suite
#   SANITIZER_GRAPHS the sanitizer suite's graphs (LA_GRAPH_STRESS_GRAPHS; default small)
#   SANITIZER_SHARDS_<TOOL>, SANITIZER_GRAPHS_<TOOL>   the same for one tool (e.g. SANITIZER_SHARDS_RACECHECK=6)
# Logs: $OUT/<suite>.log (sanitizer-<tool>.log for each tool); at most 8 files come back from a device call,
# so past 8 the logs are packed into $OUT/logs.tgz (records stay beside it).  Without $OUT (elsewhere) they
# go to ./device-logs.  The exit status is the first failing suite's.
set -u
cd "$(dirname "$0")/.." || exit 1
OUT=${OUT:-$PWD/device-logs}
mkdir -p "$OUT"
. tools/gpu-machine.sh || { echo "device.sh: tools/gpu-machine.sh failed (are .whl/ and .data/ carried?)"; exit 1; }
export PYTHONUNBUFFERED=1 LA_GRAPH_SLOW=1   # the slow tests too: the device has the cores

status=0
summary=()

# run LOG LIMIT COMMAND...: one step, its output to the screen and $OUT/LOG, stopped at LIMIT seconds
run() {
    local log=$1 limit=$2
    shift 2
    local t0=$SECONDS rc
    echo "=== $log: $* (limit ${limit}s)"
    set -o pipefail
    timeout -k 10 "$limit" "$@" 2>&1 | tee "$OUT/$log.log"
    rc=$?
    set +o pipefail
    summary+=("$log: rc $rc, $((SECONDS - t0)) s")
    [ "$rc" -ne 0 ] && [ "$status" -eq 0 ] && status=$rc
    last_rc=$rc
    return 0
}

# wait_named: wait for each child in pids (named in names), its exit status into the summary and status
wait_named() {
    local k rc
    for k in "${!pids[@]}"; do
        wait "${pids[k]}"
        rc=$?
        summary+=("${names[k]}: rc $rc")
        [ "$rc" -ne 0 ] && [ "$status" -eq 0 ] && status=$rc
    done
}

pytest_cmd=(python3 -m pytest -p no:cacheprovider -q -rfEs ${PYTEST_ARGS:-})

for suite in "$@"; do
    if [[ "$suite" == *+* ]]; then
        # SUITE+SUITE...: those suites at once, each in its own child of this script (the GPU and 16 cores
        # shared: the GPU tests beside the stress shards); the parent waits on their PIDs, sums up and packs;
        # each child's screen output stays in $OUT/<suite>.out
        pids=()
        for part in ${suite//+/ }; do
            DEVICE_SH_CHILD=1 bash "$0" "$part" > "$OUT/$part.out" 2>&1 &
            pids+=($!)
        done
        parts=(${suite//+/ })
        for i in "${!pids[@]}"; do
            wait "${pids[i]}"
            rc=$?
            grep -E "^(shard|stress shard|===)" "$OUT/${parts[i]}.out" | grep -v "^=== summary" || true
            summary+=("${parts[i]} (at once with the others of $suite): rc $rc")
            [ "$rc" -ne 0 ] && [ "$status" -eq 0 ] && status=$rc
            [ -f "$OUT/${parts[i]}.summary" ] && mapfile -t -O "${#summary[@]}" summary < "$OUT/${parts[i]}.summary"
            rm -f "$OUT/${parts[i]}.summary"
        done
        continue
    fi
    case "$suite" in
    gpu-tests)
        # GPU_SHARDS pytest processes share the GPU, the test files dealt to them largest first
        # (one process runs ~2,400 GPU tests in ~330 s; the machine has 16 cores)
        shards=${GPU_SHARDS:-4}
        mapfile -t files < <(ls -S ${GPU_TEST_FILES:-tests/test_*.py})
        pids=()
        for ((i = 0; i < shards; i++)); do
            mine=()
            for ((j = i; j < ${#files[@]}; j += 2 * shards)); do mine+=("${files[j]}"); done
            for ((j = 2 * shards - 1 - i; j < ${#files[@]}; j += 2 * shards)); do mine+=("${files[j]}"); done
            [ "${#mine[@]}" -eq 0 ] && continue     # fewer files than shards (pytest without files runs them all)
            run "gpu-tests-$i" "${LIMIT_GPU_TESTS:-300}" "${pytest_cmd[@]}" -m "gpu and not stress" "${mine[@]}" \
                >/dev/null &
            pids+=($!)
        done
        for pid in "${pids[@]}"; do wait "$pid"; done
        for ((i = 0; i < shards; i++)); do
            [ -f "$OUT/gpu-tests-$i.log" ] || continue
            tail -n 40 "$OUT/gpu-tests-$i.log" | grep -E "^(FAILED|ERROR)|passed|failed|error" | sed "s/^/shard $i: /"
            grep -qE "(passed|skipped)" "$OUT/gpu-tests-$i.log" && ! grep -qE "[0-9]+ (failed|error)" "$OUT/gpu-tests-$i.log" \
                || { [ "$status" -eq 0 ] && status=1; }
            summary+=("gpu-tests-$i: $(tail -n 1 "$OUT/gpu-tests-$i.log")")
        done
        ;;
    stress)
        # STRESS_SHARDS pytest processes share the GPU and the cores (NUMBA_NUM_THREADS and OMP_NUM_THREADS split
        # between them: the CPU engine's reference answers).  The tests are dealt one by one, round robin in
        # collection order (R-MAT 20's first): each process builds or reads every graph it meets (seconds), but
        # no process is left with one heavy graph's whole row (a real graph's Louvain and trussness, 20 calls each)
        shards=${STRESS_SHARDS:-4}
        threads=$(( $(nproc) / shards > 0 ? $(nproc) / shards : 1 ))
        kexpr=()
        [ -n "${STRESS_K:-}" ] && kexpr=(-k "$STRESS_K")
        mapfile -t ids < <("${pytest_cmd[@]}" --collect-only -m "gpu and stress" "${kexpr[@]}" tests/test_gpu_stress.py \
                          2>/dev/null | grep "::")
        declare -A load=()
        for k in "${!ids[@]}"; do load[$((k % shards))]+="${ids[k]} "; done
        pids=()
        names=()
        for ((i = 0; i < shards; i++)); do
            read -r -a mine <<< "${load[$i]:-}"
            [ "${#mine[@]}" -eq 0 ] && continue
            # -v -v against the command's -q: a line per test with its time, so a shard stopped at its limit still says
            # how far it got and where the time went
            { run "stress-$i" "${LIMIT_STRESS:-300}" env NUMBA_NUM_THREADS="$threads" OMP_NUM_THREADS="$threads" \
                  "${pytest_cmd[@]}" -v -v -o console_output_style=times "${mine[@]}" >/dev/null
              exit "$last_rc"; } &
            pids+=($!)
            names+=("stress-$i")
        done
        wait_named    # each shard runs in a child, so its status comes back through wait
        for ((i = 0; i < shards; i++)); do
            [ -f "$OUT/stress-$i.log" ] || continue
            tail -n 40 "$OUT/stress-$i.log" | grep -E "^(FAILED|ERROR)|passed|failed|error" | sed "s/^/stress shard $i: /"
        done
        ;;
    bench)
        i=0
        while IFS= read -r line; do
            [ -z "${line// /}" ] && continue
            read -r -a bargs <<< "$line"
            run "bench-$i" "${LIMIT_BENCH:-300}" python3 -m la_graph.cli bench "${bargs[@]}" --out "$OUT/bench-$i.json" --no-progress
            i=$((i + 1))
        done <<< "${BENCH:-}"
        [ "$i" -eq 0 ] && { echo "device.sh: the bench suite needs BENCH (bench arguments, a line per run)"; status=2; }
        ;;
    networkx)
        read -r -a nargs <<< "${NX_ARGS:---graphs facebook,gnm100k --ways networkx,la_graph,la_graph_cached}"
        run networkx "${LIMIT_NETWORKX:-400}" python3 -m la_graph.bench.networkx_dispatch --engine gpu "${nargs[@]}" \
            --out "$OUT/networkx-gpu.json"
        ;;
    ecl)
        run ecl "${LIMIT_ECL:-240}" python3 -m la_graph.bench.external build
        ;;
    sanitizer)
        # every tool at once, each over SANITIZER_SHARDS processes (the small graphs dealt to them): racecheck
        # alone, one process, covered ~80 of the suite's ~490 calls in 140 s
        pids=()
        names=()
        for tool in ${SANITIZER_TOOLS:-racecheck synccheck memcheck initcheck}; do
            # SANITIZER_SHARDS_<TOOL> and SANITIZER_GRAPHS_<TOOL> override the shared knobs for one tool (racecheck
            # is the slowest: ~9 s a call against memcheck's ~4)
            shards_var="SANITIZER_SHARDS_${tool^^}"
            graphs_var="SANITIZER_GRAPHS_${tool^^}"
            shards=${!shards_var:-${SANITIZER_SHARDS:-3}}
            mapfile -t graphs < <(env LA_GRAPH_STRESS_GRAPHS="${!graphs_var:-${SANITIZER_GRAPHS:-small}}" \
                                  "${pytest_cmd[@]}" --collect-only -m "gpu and stress" tests/test_gpu_stress.py \
                                  2>/dev/null | grep "::" | sed -E 's/.*\[(.*)-[^-]*\]$/\1/' | awk '!seen[$0]++')
            extra=()
            [ "$tool" = racecheck ] && extra=(--racecheck-report hazard)
            for ((i = 0; i < shards; i++)); do
                mine=()
                for ((j = i; j < ${#graphs[@]}; j += shards)); do mine+=("${graphs[j]}"); done
                [ "${#mine[@]}" -eq 0 ] && continue
                spec=$(IFS=,; echo "${mine[*]}")
                { run "sanitizer-$tool-$i" "${LIMIT_SANITIZER:-120}" \
                    env LA_GRAPH_STRESS_GRAPHS="$spec" LA_GRAPH_STRESS_REPEAT=1 NUMBA_NUM_THREADS=2 \
                    compute-sanitizer --tool "$tool" "${extra[@]}" --error-exitcode 99 --print-limit 30 \
                    "${pytest_cmd[@]}" -m "gpu and stress" tests/test_gpu_stress.py >/dev/null
                  exit "$last_rc"; } &
                pids+=($!)
                names+=("sanitizer-$tool-$i")
            done
        done
        wait_named
        for f in "$OUT"/sanitizer-*.log; do
            [ -f "$f" ] || continue
            t=$(basename "$f" .log)
            tail -n 40 "$f" | grep -E "ERROR SUMMARY|passed|failed|error" | tail -n 3 | sed "s/^/$t: /"
            echo "$t: $(grep -c "Hazard\|hazard" "$f") hazard lines, $(grep -c "^=========     at " "$f") report frames"
        done
        ;;
    *)
        echo "device.sh: unknown suite '$suite' (gpu-tests, stress, bench, networkx, ecl, sanitizer; SUITE+SUITE at once)"
        status=2
        ;;
    esac
done

if [ -n "${DEVICE_SH_CHILD:-}" ]; then   # a child of SUITE+SUITE: its parent sums up and packs
    : > "$OUT/$1.summary"
    [ "${#summary[@]}" -gt 0 ] && printf '%s\n' "${summary[@]}" > "$OUT/$1.summary"
    exit "$status"
fi
echo "=== summary"
printf '%s\n' "${summary[@]}" | tee "$OUT/summary.log"
if [ "$(find "$OUT" -maxdepth 1 -type f | wc -l)" -gt 8 ]; then
    (cd "$OUT" && tar czf logs.tgz -- *.log && rm -f -- *.log)
fi
exit "$status"

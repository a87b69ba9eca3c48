#!/usr/bin/env bash
# Tuning at scale on a machine with two GPUs of one model (issue 19): run
# from the repository root with the build folder there and $OUT set (the
# device tool's output folder). Every run tunes conv1d:1e6:2047 with the
# same 600 candidates (--strategy random --seed 42 --budget 600), so rates
# and winners compare:
#   (a) warm cache, one GPU             (b) warm cache, --gpu 0,1
#   (c) cold cache, one GPU, then --gpu 0,1
#   (d) precompile --shard 0/2 and 1/2 in two processes at once into an
#       empty cache, then a tune on GPU 0 that must compile nothing
#   (e) a two-shard run, shard 0 on GPU 0 and shard 1 on GPU 1 at once, each
#       into its own database, then db import, retime --top 3, export
# Writes everything to $OUT/multi.log and a summary table to
# $OUT/multi_summary.txt; exits 1 when a check fails (0 compiles in (d),
# the --gpu 0,1 winner within 3% of the single-GPU one, every step's exit
# status). About 3 to 5 minutes on two H200s (the cold runs compile 600
# candidates each on the host's cores); every step has a time limit so the
# whole stays under 9 minutes.
set -uo pipefail
B=${B:-build/convtune}
OUT=${OUT:?set OUT to the output folder}
P=conv1d:1e6:2047
BUDGET=${BUDGET:-600}   # smaller only to try the script itself
RUN=(--problem "$P" --strategy random --seed 42 --budget "$BUDGET")
ARCH=${ARCH:-sm_90}
W=$(mktemp -d /tmp/ct_multi_XXXXXX)
LOG=$OUT/multi.log
SUM=$OUT/multi_summary.txt
: >"$LOG"
fails=0
T0=$(date +%s)
say() { echo "$*" | tee -a "$LOG"; }
fail() { say "FAIL: $*"; fails=$((fails + 1)); }
left() { echo $((530 - ($(date +%s) - T0))); }   # seconds before the 9-minute mark, with a margin
since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }

# step NAME SECONDS CMD...: run with a time limit, the output in the log.
step() {
  local name=$1 limit=$2; shift 2
  [ "$limit" -gt "$(left)" ] && limit=$(left)
  if [ "$limit" -le 5 ]; then fail "$name: no time left"; return 1; fi
  say "=== $name ($(date -u +%T), limit ${limit}s): $*"
  local t=$(date +%s.%N)
  timeout "$limit" "$@" >>"$LOG" 2>&1
  local rc=$?
  say "--- $name: exit $rc in $(since "$t") s"
  [ $rc -eq 0 ] || fail "$name exited $rc"
  return $rc
}

# tune NAME SECONDS CACHE DB ARGS...: a tuning run, its JSON summary kept.
tune() {
  local name=$1 limit=$2 cache=$3 db=$4; shift 4
  CONVTUNE_CACHE=$cache step "$name" "$limit" sh -c '"$0" "$@" --json >"'"$W/$name.json"'"' \
    "$B" "${RUN[@]}" --db "$db" "$@"
  cat "$W/$name.json" >>"$LOG" 2>/dev/null
}

# The JSON summary's fields: candidates/s, candidates, cache hits, reused,
# compile CPU seconds, wall seconds, winner median and params.
field() {
  python3 -c 'import json,sys
try: j=json.load(open(sys.argv[1]))
except Exception: print("-"); sys.exit()
t=j.get("time",{}); w=j.get("winner") or {}
v={"cps":t.get("candidates_per_s"),"n":j.get("candidates"),"hits":j.get("cache_hits"),"reused":j.get("reused"),
   "cpu":t.get("compile_cpu_s"),"wall":t.get("wall_s"),"us":w.get("median_us"),
   "compiles":(j.get("candidates",0)-j.get("cache_hits",0)-j.get("reused",0)),
   "winner":"%s %s"%(w.get("template"),json.dumps(w.get("params"),separators=(",",":"))) if w else "-"}[sys.argv[2]]
print("-" if v is None else v)' "$W/$1.json" "$2"
}

say "gpu_multi: $(date -u) on $(hostname)"
nvidia-smi --query-gpu=index,name,uuid,driver_version,clocks.sm,temperature.gpu --format=csv | tee -a "$LOG"
"$B" --version | tee -a "$LOG"
say "host CPUs: $(nproc)"

# The warm cache: the run's 600 candidates compiled once, unsharded (its
# rate is the host's compile rate).
CONVTUNE_CACHE=$W/warm step precompile_warm 150 "$B" precompile "${RUN[@]}" --arch "$ARCH"
compile_rate=$(grep -o '([0-9.]* candidates/s)' "$LOG" | tail -1 | tr -d '()' | cut -d' ' -f1)

# Both GPUs' ceilings measured once into the database the runs share (with
# --fresh, so none reuses another's outcomes), outside their timings.
step ceilings 90 "$B" --problem conv1d:15:4:right --budget 4 --seed 1 --gpu 0,1 --db "$W/common.db"
tune a_warm_1gpu 90 "$W/warm" "$W/common.db" --gpu 0 --fresh
tune b_warm_2gpu 90 "$W/warm" "$W/common.db" --gpu 0,1 --fresh
tune c_cold_1gpu 150 "$W/cold1" "$W/common.db" --gpu 0 --fresh
tune c_cold_2gpu 150 "$W/cold2" "$W/common.db" --gpu 0,1 --fresh

# (d) two precompile shards at once, then a cold run that compiles nothing.
say "=== d: precompile --shard 0/2 and 1/2 at once"
td=$(date +%s.%N)
for i in 0 1; do
  CONVTUNE_CACHE=$W/shared timeout 150 "$B" precompile "${RUN[@]}" --arch "$ARCH" --shard $i/2 >"$W/pre$i.txt" 2>&1 &
  pids[$i]=$!
done
for i in 0 1; do wait "${pids[$i]}" || fail "precompile --shard $i/2 exited $?"; cat "$W/pre$i.txt" >>"$LOG"; done
shard_compile_s=$(since "$td")
say "--- d: both shards compiled in $shard_compile_s s"
tune d_precompiled_1gpu 90 "$W/shared" "$W/common.db" --gpu 0 --fresh
[ "$(field d_precompiled_1gpu compiles)" = 0 ] || fail "d: the run after precompile compiled $(field d_precompiled_1gpu compiles) candidates (expected 0)"

# (e) two shards, one per GPU, at once; merge, retime, export.
say "=== e: --shard 0/2 on GPU 0 and --shard 1/2 on GPU 1 at once"
te=$(date +%s.%N)
for i in 0 1; do
  CONVTUNE_CACHE=$W/warm timeout 120 "$B" "${RUN[@]}" --shard $i/2 --gpu $i --db "$W/shard$i.db" --json \
    >"$W/e_shard$i.json" 2>"$W/e_shard$i.txt" &
  pids[$i]=$!
done
for i in 0 1; do wait "${pids[$i]}" || fail "shard $i/2 exited $?"; cat "$W/e_shard$i.txt" "$W/e_shard$i.json" >>"$LOG"; done
shards_s=$(since "$te")
say "--- e: both shards tuned in $shards_s s"
step e_import 60 "$B" db import "$W/shard0.db" "$W/shard1.db" --db "$W/merged.db"
step e_retime 90 "$B" retime --problem "$P" --top 3 --gpu 0 --db "$W/merged.db"
step e_export 60 "$B" export --problem "$P" --db "$W/merged.db" -o "$OUT/multi_winner.cu" --force
step e_query 30 "$B" query --problem "$P" --winners --db "$W/merged.db"

# Winners within 3% of the single-GPU (warm) one.
base_us=$(field a_warm_1gpu us)
for r in b_warm_2gpu c_cold_2gpu; do
  us=$(field $r us)
  python3 -c "import sys; a,b=float(sys.argv[1]),float(sys.argv[2]); sys.exit(0 if b <= a*1.03 else 1)" "$base_us" "$us" \
    2>/dev/null || fail "$r: winner $us us is not within 3% of the single-GPU winner $base_us us"
done
a_cps=$(field a_warm_1gpu cps); b_cps=$(field b_warm_2gpu cps)
c1=$(field c_cold_1gpu cps); c2=$(field c_cold_2gpu cps)
{
  echo "gpu_multi summary ($(date -u +%F), $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1) x2, $(nproc) CPUs)"
  printf "%-22s %8s %6s %6s %9s %9s %10s  %s\n" run cand/s cands hits compiles cpu_s winner_us winner
  for r in a_warm_1gpu b_warm_2gpu c_cold_1gpu c_cold_2gpu d_precompiled_1gpu; do
    printf "%-22s %8s %6s %6s %9s %9s %10s  %s\n" $r "$(field $r cps)" "$(field $r n)" "$(field $r hits)" \
      "$(field $r compiles)" "$(field $r cpu)" "$(field $r us)" "$(field $r winner)"
  done
  for i in 0 1; do
    printf "%-22s %8s %6s %6s %9s %9s %10s  %s\n" "e_shard$i/2_gpu$i" "$(field e_shard$i cps)" "$(field e_shard$i n)" \
      "$(field e_shard$i hits)" "$(field e_shard$i compiles)" "$(field e_shard$i cpu)" "$(field e_shard$i us)" \
      "$(field e_shard$i winner)"
  done
  echo "warm speedup --gpu 0,1 / one GPU: $(python3 -c "print('%.2fx' % ($b_cps/$a_cps))" 2>/dev/null) (target >= 1.8x, >= 115/s)"
  echo "cold speedup --gpu 0,1 / one GPU: $(python3 -c "print('%.2fx' % ($c2/$c1))" 2>/dev/null)"
  echo "host compile rate (precompile, $(nproc) CPUs): $compile_rate candidates/s; GPU measuring rate (warm): $a_cps/s per GPU"
  echo "precompile --shard 0/2 + 1/2 at once: $shard_compile_s s; two shards tuned at once: $shards_s s (wall, with start-up)"
  echo "merged + re-timed winner: $(grep -m1 '^winner:' <(sed -n '/=== e_retime/,/--- e_retime/p' "$LOG") || echo -)"
  echo "checks failed: $fails; total $(($(date +%s) - T0)) s"
} | tee "$SUM" | tee -a "$LOG"
rm -rf "$W"
exit $((fails > 0))

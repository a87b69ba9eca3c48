#!/usr/bin/env bash
# slurm_pipeline - the job-array scripts (scripts/slurm) on a real Slurm:
# a single-node cluster (slurmctld and slurmd on this host, auth/none, a
# generated slurm.conf in a temporary folder) started here and torn down at
# the end, whatever happens. It runs the CPU stages of submit.sh:
#   compile  a 3-task array of convtune precompile shards into one shared
#            cache; afterwards an unsharded precompile of the same run must
#            find every candidate there (0 compiled)
#   merge    a job dependent on the compile array that merges shard
#            databases made by the steps before (two overlapping halves of
#            the report fixture's records, imported into two databases)
#            with no GPU stage (--retime-top 0), and exports the winner;
#            the merged database must hold every record once and give the
#            fixture's winners
# Usage: slurm_pipeline.sh CONVTUNE SOURCE_DIR
# Exit 0 when all checks pass; 77 (SKIPPED) only when the Slurm daemons
# cannot start in this environment (a sandbox without the privileges they
# need), said on the output with their logs; anything else fails. Missing
# Slurm packages fail: scripts/setup-deps.sh installs slurm-wlm.
set -uo pipefail
convtune="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
src="$(cd "$2" && pwd)"
problem="conv1d:1000000:2047:valid"

for tool in slurmctld slurmd sbatch squeue scontrol sinfo python3; do
  if ! command -v "$tool" >/dev/null; then
    echo "FAIL: $tool not found: install slurm-wlm (scripts/setup-deps.sh does)"
    exit 1
  fi
done

T="$(mktemp -d /tmp/ct_slurm_XXXXXX)"
ctld_pid="" slurmd_pid=""
cleanup() {
  # Only the daemons this test started, by their process ids.
  for pid in $slurmd_pid $ctld_pid; do
    kill "$pid" 2>/dev/null
  done
  for pid in $slurmd_pid $ctld_pid; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null
  done
  rm -rf "$T"
}
trap cleanup EXIT

fails=0
check() {   # check DESCRIPTION COMMAND...
  local what="$1"; shift
  if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; fails=$((fails + 1)); fi
}

# A free pair of ports: a second cluster on the machine must not collide.
port=$((20000 + RANDOM % 20000))
host="$(hostname -s)"
mkdir -p "$T/state" "$T/spool" "$T/work"
cat > "$T/slurm.conf" <<CONF
ClusterName=convtuneci
SlurmctldHost=$host(127.0.0.1)
AuthType=auth/none
CredType=cred/none
SlurmUser=$(id -un)
SlurmdUser=$(id -un)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
MinJobAge=600
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=1000 State=UNKNOWN
PartitionName=ci Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$T/slurm.conf"
slurmctld -D -f "$SLURM_CONF" >"$T/slurmctld.out" 2>&1 &
ctld_pid=$!
slurmd -D -f "$SLURM_CONF" >"$T/slurmd.out" 2>&1 &
slurmd_pid=$!
up=0
for _ in $(seq 60); do
  if [ "$(sinfo -h -o %T 2>/dev/null)" = idle ]; then up=1; break; fi
  kill -0 "$ctld_pid" 2>/dev/null && kill -0 "$slurmd_pid" 2>/dev/null || break
  sleep 0.5
done
if [ $up -ne 1 ]; then
  echo "SKIPPED: Slurm could not start in this environment (slurmctld and slurmd on localhost); their logs:"
  tail -n 20 "$T"/slurmctld.out "$T"/slurmd.out "$T"/slurmctld.log "$T"/slurmd.log 2>/dev/null
  exit 77
fi
echo "Slurm is up: $(sinfo -h -o '%P %D %T %c CPUs') (slurm.conf in $T)"

# Earlier steps: two shard databases, overlapping halves of the fixture.
"$convtune" db export --db "$src/tests/fixtures/report.db" -o "$T/all.json" >/dev/null || exit 1
python3 - "$T/all.json" "$T" <<'PY' || exit 1
import json, sys
doc = json.load(open(sys.argv[1]))
recs = doc["records"]
for i, part in enumerate((recs[: len(recs) * 3 // 5], recs[len(recs) * 2 // 5 :])):
    json.dump(dict(doc, records=part), open(f"{sys.argv[2]}/half-{i}.json", "w"), separators=(",", ":"))
print(len(recs), file=open(f"{sys.argv[2]}/count", "w"))
PY
mkdir -p "$T/work/shards"
for i in 0 1; do
  "$convtune" db import "$T/half-$i.json" --db "$T/work/shards/tune-$i.db" >/dev/null || exit 1
done

# The pipeline's CPU stages, through submit.sh.
export CONVTUNE_CACHE="$T/work/cache"
out="$("$src/scripts/slurm/submit.sh" --problem "$problem" --shards 3 --seed 17 --budget 6 --arch sm_90 \
        --work "$T/work" --convtune "$convtune" --stages compile,merge --retime-top 0 \
        --cpu-args "--cpus-per-task=1" --merge-args "--cpus-per-task=1" 2>&1)"
echo "$out"
compile_id="$(awk '$1 == "compile" {print $2}' <<<"$out")"
merge_id="$(awk '$1 == "merge" {print $2}' <<<"$out")"
check "submit.sh submitted the compile array and the merge job" test -n "$compile_id" -a -n "$merge_id"

state() { scontrol show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | sort -u | tr '\n' ' '; }
for _ in $(seq 240); do
  [ -z "$(squeue -h 2>/dev/null)" ] && break
  sleep 0.5
done
squeue -h -o '%i %T %r' | sed 's/^/still queued: /'
check "every job left the queue within 2 minutes" test -z "$(squeue -h)"
echo "compile array: $(state "$compile_id"); merge: $(state "$merge_id")"
check "the three compile tasks completed" test "$(state "$compile_id")" = "JobState=COMPLETED "
check "the merge job completed" test "$(state "$merge_id")" = "JobState=COMPLETED "
for i in 0 1 2; do
  echo "--- compile task $i:"; cat "$T/work/logs/compile-$i.out"
  check "compile task $i took shard $i/3 from Slurm" grep -q "shard $i/3 from SLURM_ARRAY_TASK_ID" \
    "$T/work/logs/compile-$i.out"
  check "compile task $i compiled 2 candidates" grep -q "shard $i/3: 2 of the 6 candidates" \
    "$T/work/logs/compile-$i.out"
done
echo "--- merge:"; cat "$T/work/logs/merge.out"
whole="$("$convtune" precompile --problem "$problem" --arch sm_90 --strategy random --seed 17 --budget 6 2>&1)"
echo "$whole"
check "the whole run finds every binary in the shared cache" grep -q "0 compiled, 6 already in the cache" <<<"$whole"
n="$(cat "$T/count")"
check "the merge imported the first shard whole" grep -q "tune-0.db: $((n * 3 / 5)) records: $((n * 3 / 5)) imported" \
  "$T/work/logs/merge.out"
check "the merge skipped the overlap as duplicates" \
  grep -q "tune-1.db: $((n - n * 2 / 5)) records: $((n - n * 3 / 5)) imported, $((n * 3 / 5 - n * 2 / 5)) skipped" \
  "$T/work/logs/merge.out"
merged="$("$convtune" db export --db "$T/work/merged.db" --format csv | tail -n +2 | wc -l)"
check "the merged database holds each of the $n records once" test "$merged" -eq "$n"
check "the merged database passes db check" "$convtune" db check --db "$T/work/merged.db"
check "the merged winners are the fixture's" \
  diff <("$convtune" query --winners --db "$src/tests/fixtures/report.db") \
       <("$convtune" query --winners --db "$T/work/merged.db")
check "the merge job exported the winner" grep -q "__global__" "$T/work/kernel.cu"
[ $fails -eq 0 ] && echo "slurm_pipeline: all checks passed" || echo "slurm_pipeline: $fails checks failed"
exit $((fails > 0))

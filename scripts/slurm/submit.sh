#!/usr/bin/env bash
# Tune one problem on a Slurm cluster as three dependent job arrays:
#   compile  N tasks on CPU nodes: convtune precompile, shard I of N each,
#            into one binary cache on the shared filesystem
#   tune     N tasks on GPU nodes (one GPU each): convtune tune, shard I of
#            N each, into a database of its own (SQLite over NFS is unsafe
#            with several writers); task I starts when compile task I is done
#   merge    one task on a GPU node, after every tune task succeeded:
#            db import of the shard databases, retime of the best on one GPU,
#            export of the winner
# Every task finds its shard in SLURM_ARRAY_TASK_ID/COUNT. See docs/CLUSTER.md.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

usage() {
  cat <<'USAGE'
usage: scripts/slurm/submit.sh --problem SPEC --shards N --seed S --work DIR
         [--arch sm_90] [--budget 600] [--strategy random] [--stages compile,tune,merge]
         [--convtune PATH] [--retime-top 3] [--cpu-args "SBATCH OPTIONS"]
         [--gpu-args "SBATCH OPTIONS"] [--merge-args "SBATCH OPTIONS"]
DIR must be on a filesystem every node sees: it gets cache/ (the binaries),
shards/ (one database per tune task), logs/, merged.db and the export.
--cpu-args, --gpu-args and --merge-args go to sbatch for the compile, tune and
merge jobs (partition, account, time; the tune and merge jobs ask for
--gres=gpu:1 themselves). Prints each job's id as "STAGE JOBID".
USAGE
}

problem="" shards="" seed="" work="" arch="sm_90" budget=600 strategy=random stages="compile,tune,merge"
convtune="$(command -v convtune || true)" retime_top=3 cpu_args="" gpu_args="" merge_args=""
while [ $# -gt 0 ]; do
  case "$1" in
    --problem) problem="$2"; shift 2 ;;
    --shards) shards="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --work) work="$2"; shift 2 ;;
    --arch) arch="$2"; shift 2 ;;
    --budget) budget="$2"; shift 2 ;;
    --strategy) strategy="$2"; shift 2 ;;
    --stages) stages="$2"; shift 2 ;;
    --convtune) convtune="$2"; shift 2 ;;
    --retime-top) retime_top="$2"; shift 2 ;;
    --cpu-args) cpu_args="$2"; shift 2 ;;
    --gpu-args) gpu_args="$2"; shift 2 ;;
    --merge-args) merge_args="$2"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "submit.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
for v in problem shards seed work; do
  if [ -z "${!v}" ]; then echo "submit.sh: --$v is required (see --help)" >&2; exit 2; fi
done
case "$shards" in ''|*[!0-9]*|0) echo "submit.sh: --shards: expected a positive integer" >&2; exit 2 ;; esac
if [ -z "$convtune" ] || [ ! -x "$convtune" ]; then
  echo "submit.sh: no convtune binary: give --convtune PATH (on the shared filesystem)" >&2; exit 2
fi
convtune="$(cd "$(dirname "$convtune")" && pwd)/$(basename "$convtune")"
mkdir -p "$work/cache" "$work/shards" "$work/logs"
work="$(cd "$work" && pwd)"

# The stage scripts read their settings from these (sbatch exports the
# environment).
export CONVTUNE="$convtune" CT_PROBLEM="$problem" CT_ARCH="$arch" CT_BUDGET="$budget" CT_SEED="$seed"
export CT_STRATEGY="$strategy" CT_WORK="$work" CT_RETIME_TOP="$retime_top" CONVTUNE_CACHE="$work/cache"
last=$((shards - 1))
compile_id="" tune_id=""
case ",$stages," in *,compile,*)
  # shellcheck disable=SC2086
  compile_id=$(sbatch --parsable --job-name=ct-compile --array="0-$last" -o "$work/logs/compile-%a.out" \
                 $cpu_args "$here/compile.sbatch")
  echo "compile $compile_id" ;;
esac
case ",$stages," in *,tune,*)
  dep=()
  [ -n "$compile_id" ] && dep=(--dependency="aftercorr:$compile_id")
  # shellcheck disable=SC2086
  tune_id=$(sbatch --parsable --job-name=ct-tune --array="0-$last" -o "$work/logs/tune-%a.out" --gres=gpu:1 \
              "${dep[@]}" $gpu_args "$here/tune.sbatch")
  echo "tune $tune_id" ;;
esac
case ",$stages," in *,merge,*)
  dep=()
  after="${tune_id:-$compile_id}"
  [ -n "$after" ] && dep=(--dependency="afterok:$after")
  gres=(--gres=gpu:1)
  [ "$retime_top" = 0 ] && gres=()
  # shellcheck disable=SC2086
  merge_id=$(sbatch --parsable --job-name=ct-merge -o "$work/logs/merge.out" "${gres[@]}" "${dep[@]}" \
               $merge_args "$here/merge.sbatch")
  echo "merge $merge_id" ;;
esac

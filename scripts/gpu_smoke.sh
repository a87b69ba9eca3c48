#!/usr/bin/env bash
# First contact with a GPU machine: tune small problems and the headline one.
set -u
B=${B:-build/convtune}
export CONVTUNE_DB=$OUT/smoke.db
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv | tee $OUT/smoke.log
for p in conv1d:6:3:right conv1d:15:4:right conv1d:1000:31 conv1d:100000:2047:same; do
  $B --problem $p --max-candidates 40 --seed 7 2>&1 | tail -12 | tee -a $OUT/smoke.log
done
$B --problem conv1d:1e6:2047 --max-candidates 150 --seed 11 --verbose 2>$OUT/verbose.log | tee -a $OUT/smoke.log
grep -v " ok " $OUT/verbose.log | head -20
$B query --problem conv1d:1e6:2047 --format json | head -c 600; echo
$B export --problem conv1d:1e6:2047 -o $OUT/best.cu && nvcc -arch=sm_90 -DCONVTUNE_SELFTEST $OUT/best.cu -o /tmp/selftest && /tmp/selftest | tee -a $OUT/smoke.log
$B compile --problem conv1d:1e6:2047 --arch sm_90 --param OUTPUTS_PER_THREAD=16 --param BLOCK_SIZE=128 --param MASK_PAD=1 -o /tmp/a.cubin && cuobjdump --dump-sass /tmp/a.cubin > $OUT/a.sass
python3 - <<'PY' 2>&1 | tee -a $OUT/smoke.log
import torch, torch.nn.functional as F
torch.backends.cudnn.benchmark=True; torch.backends.cudnn.allow_tf32=False
x=torch.randn(1,1,1000000,device='cuda'); w=torch.randn(1,1,2047,device='cuda')
for _ in range(10): F.conv1d(x,w)
s=torch.cuda.Event(enable_timing=True); e=torch.cuda.Event(enable_timing=True); t=[]
for _ in range(50):
    s.record(); F.conv1d(x,w); e.record(); torch.cuda.synchronize(); t.append(s.elapsed_time(e))
t.sort(); print("torch F.conv1d conv1d:1e6:2047 median ms", t[25])
PY

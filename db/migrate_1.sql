-- Version 1 to 2: the measured half tensor-core ceiling of a device
-- (mma.sync with fp32 accumulation), what `% of peak` of bf16 and f16
-- problems is taken against. NULL where it was not measured: devices stored
-- before it existed, and GPUs without a half mma (before sm_75).
ALTER TABLE devices ADD COLUMN tc_half_tflops REAL CHECK (tc_half_tflops > 0);

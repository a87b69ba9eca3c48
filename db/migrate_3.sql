-- Version 3 to 4: how a candidate's time was measured and how sure it is.
-- ci_lo_us and ci_hi_us bound the median (a distribution-free 95% interval
-- from the samples' order statistics; [min, max] below 6 samples). timing is
-- the method of a sample: 'events' (one execution between two events),
-- 'graph' (a CUDA graph of batch launches) or 'calls' (batch calls back to
-- back between two events); a batched sample's time is its time over batch,
-- and reps counts samples. NULL for candidates stored before it existed:
-- they were timed with events around each launch.
ALTER TABLE candidates ADD COLUMN ci_lo_us REAL CHECK (ci_lo_us > 0);
ALTER TABLE candidates ADD COLUMN ci_hi_us REAL CHECK (ci_hi_us > 0);
ALTER TABLE candidates ADD COLUMN timing TEXT CHECK (timing IN ('events', 'graph', 'calls'));
ALTER TABLE candidates ADD COLUMN batch INTEGER CHECK (batch > 0);

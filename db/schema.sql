-- schema.sql - the convtune database, schema version 1.
--
-- tuner/db.c runs this file as one script inside the BEGIN IMMEDIATE
-- transaction that also sets PRAGMA user_version = 1, so a crash leaves either
-- an empty file or a complete version-1 database. The file therefore must not
-- contain BEGIN/COMMIT or set user_version itself. Later versions are added as
-- migration steps in db.c, never by editing this file in place.
--
-- Conventions:
--   * timestamps are ISO 8601 UTC text ("2025-01-31T12:00:00Z"), filled in by
--     the defaults below, so they sort and compare as text;
--   * a measurement that does not exist (a failed candidate's time, an
--     unmeasured ceiling, an unchecked error) is NULL, never 0 or -1;
--   * JSON columns hold one JSON object as text (checked with json_valid).

-- One row per (GPU model, board, compute capability, driver, NVRTC) seen:
-- timings taken under another driver or compiler are kept apart. The
-- measured ceilings are what %peak in query output is relative to.
CREATE TABLE devices (
    id             INTEGER PRIMARY KEY,
    name           TEXT    NOT NULL CHECK (name <> ''),   -- "NVIDIA H100 80GB HBM3"
    uuid           TEXT    NOT NULL DEFAULT '',         -- '' when unknown: NULLs would defeat UNIQUE
    cc_major       INTEGER NOT NULL CHECK (cc_major >= 0),
    cc_minor       INTEGER NOT NULL CHECK (cc_minor >= 0),
    sm_count       INTEGER NOT NULL DEFAULT 0 CHECK (sm_count >= 0),
    driver_version INTEGER NOT NULL DEFAULT 0,          -- cuDriverGetVersion, e.g. 13000
    nvrtc_version  TEXT    NOT NULL DEFAULT '',         -- "13.0"
    fma_tflops     REAL    CHECK (fma_tflops > 0),      -- measured fp32 FMA ceiling
    bandwidth_gbs  REAL    CHECK (bandwidth_gbs > 0),   -- measured memory ceiling (read+write)
    launch_us      REAL    CHECK (launch_us > 0),       -- measured empty-kernel launch time
    measured_at    TEXT,                                -- when a ceiling was last stored
    UNIQUE (name, uuid, cc_major, cc_minor, driver_version, nvrtc_version)
);

-- A problem is identified by its canonical string ("conv1d:1000000:2047:valid");
-- flops and bytes are the family's counts, stored so that query output can
-- give TFLOP/s and GB/s without knowing the family.
CREATE TABLE problems (
    id         INTEGER PRIMARY KEY,
    family     TEXT NOT NULL CHECK (family <> ''),
    canonical  TEXT NOT NULL UNIQUE CHECK (canonical <> ''),
    flops      REAL NOT NULL DEFAULT 0 CHECK (flops >= 0),
    bytes      REAL NOT NULL DEFAULT 0 CHECK (bytes >= 0),
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

-- One `convtune tune` invocation for one problem on one device. status is
-- 'running' until the tuner records how it ended (e.g. 'ok', 'no_result',
-- 'interrupted'); a run left 'running' was killed. settings is the JSON object
-- of measurement settings (repetitions, tolerances, ...) the run used.
CREATE TABLE runs (
    id          INTEGER PRIMARY KEY,
    problem_id  INTEGER NOT NULL REFERENCES problems (id),
    device_id   INTEGER NOT NULL REFERENCES devices (id),
    started_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    finished_at TEXT,
    status      TEXT    NOT NULL DEFAULT 'running' CHECK (status <> ''),
    settings    TEXT    CHECK (settings IS NULL OR json_valid(settings)),
    -- Target of the candidates' composite foreign key below.
    UNIQUE (id, problem_id, device_id)
);

-- Every candidate a run tried, failed ones included, so query can show what
-- was tried and why it was rejected. problem_id and device_id repeat the
-- run's (the composite foreign key keeps them equal to it) so that the winner
-- lookup is one index range scan on candidates_winner.
CREATE TABLE candidates (
    id            INTEGER PRIMARY KEY,
    run_id        INTEGER NOT NULL,
    problem_id    INTEGER NOT NULL,
    device_id     INTEGER NOT NULL,
    template      TEXT    NOT NULL CHECK (template <> ''),
    template_hash TEXT    NOT NULL DEFAULT '',          -- 16 hex digits of the template source hash
    params        TEXT    NOT NULL DEFAULT '{}'
                  CONSTRAINT candidate_params_json CHECK (json_valid(params)),
    status        TEXT    NOT NULL
                  CONSTRAINT candidate_status CHECK (status IN ('ok', 'compile_failed',
                      'exceeds_limits', 'launch_failed', 'crashed', 'timed_out', 'wrong_result')),
    error         TEXT,                                 -- why, for a failed candidate
    median_us     REAL    CHECK (median_us > 0),
    min_us        REAL    CHECK (min_us > 0),
    max_us        REAL    CHECK (max_us > 0),
    spread        REAL    CHECK (spread >= 0),          -- (max-min)/median of the repetitions
    reps          INTEGER CHECK (reps > 0),
    relerr        REAL    CHECK (relerr >= 0),          -- relative L2 error vs the fp64 reference; NULL: not checked
    registers     INTEGER CHECK (registers >= 0),
    smem_bytes    INTEGER CHECK (smem_bytes >= 0),
    local_bytes   INTEGER CHECK (local_bytes >= 0),
    compile_ms    REAL    CHECK (compile_ms >= 0),
    created_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    -- A winner must have a time: the winner query orders by median_us.
    CONSTRAINT candidate_ok_timed CHECK (status <> 'ok' OR median_us IS NOT NULL),
    FOREIGN KEY (run_id, problem_id, device_id)
        REFERENCES runs (id, problem_id, device_id) ON DELETE CASCADE
);

-- The winner of a (problem, device) is the first 'ok' row of this index.
CREATE INDEX candidates_winner ON candidates (problem_id, device_id, status, median_us);
-- Baseline lookups (latest measurement of one template).
CREATE INDEX candidates_template ON candidates (problem_id, device_id, template, run_id);
-- Foreign-key checks and cascades from runs.
CREATE INDEX candidates_run ON candidates (run_id);
CREATE INDEX runs_problem_device ON runs (problem_id, device_id);

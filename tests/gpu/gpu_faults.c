/* gpu_faults.c - a tuning run survives candidates that fault, hang or
 * compute a wrong answer.
 *
 * A test copy of the templates replaces conv1d_naive with one whose
 * BLOCK_SIZE selects a fault: 64 writes far out of bounds (illegal address),
 * 96 never terminates, 160 gets one output wrong, 192 stores through a
 * misaligned pointer; 32, 128 and 256 are correct. They are mixed into an
 * exhaustive run with real tiled and FFT candidates. The run must finish,
 * store each bad candidate with its own status, measure the good ones and
 * name a correct winner (on this small problem it may well be a good naive
 * one). Then compute-sanitizer (memcheck and racecheck, when
 * it is installed) watches the worker processes of a short ordinary run. */
#include <unistd.h>

#include "db.h"
#include "gpu_common.h"

static const char faulty_naive[] =
    "// conv1d_naive with injected faults (tests/gpu/gpu_faults.c)\n"
    "extern \"C\" __global__ void __launch_bounds__(BLOCK_SIZE)\n"
    "conv1d_naive(const float *__restrict__ in, const float *__restrict__ mask, float *__restrict__ out)\n"
    "{\n"
    "    const long long i = (long long)blockIdx.x * BLOCK_SIZE + threadIdx.x;\n"
    "    if (i >= CONV_OUT)\n"
    "        return;\n"
    "#if BLOCK_SIZE == 64\n"
    "    out[i + (1LL << 38)] = 1.0f;                    // 1 TiB past the output\n"
    "#elif BLOCK_SIZE == 96\n"
    "    volatile float *vo = out;\n"
    "    for (;;)                                        // never returns\n"
    "        vo[i] = 0.0f;\n"
    "#elif BLOCK_SIZE == 192\n"
    "    *(volatile float *)((char *)out + 2 + 4 * i) = 0.0f;   // misaligned\n"
    "#endif\n"
    "    float acc = 0.0f;\n"
    "    for (int j = 0; j < CONV_K; ++j) {\n"
    "        const long long x = i + j - CONV_OFF;\n"
    "        if (x >= 0 && x < CONV_N)\n"
    "            acc += in[x] * mask[j];\n"
    "    }\n"
    "#if BLOCK_SIZE == 160\n"
    "    if (i == CONV_OUT / 2)\n"
    "        acc += 1.0f;                                // one wrong element\n"
    "#endif\n"
    "    out[i] = acc;\n"
    "}\n";

static const char fault_ini[] =
    "[measure]\n"
    "timeout_s = 3\n"
    "[space.conv1d_naive]\n"
    "BLOCK_SIZE = 32, 64, 96, 128, 160, 192, 256\n"
    "[space.conv1d_tiled]\n"
    "BLOCK_SIZE = 128\n"
    "OUTPUTS_PER_THREAD = 8, 16\n"
    "MASK_PLACEMENT = constant, shared\n"
    "MASK_PAD = 0\n"
    "ALIGN = 16\n"
    "STAGE_INPUT = 1\n"
    "VEC_WIDTH = 4\n"
    "UNROLL = 1\n"
    "KCHUNK = 1024\n"
    "MIN_BLOCKS = 1\n"
    "[space.conv1d_fft]\n"
    "FFT_SIZE = 4096\n"
    "BLOCK_SIZE = 256\n";

typedef struct seen {
    char naive_status[7][24];   /* by BLOCK_SIZE 32, 64, ... */
    int ok, total;
    ct_result best;
} seen;

static const int sizes[7] = {32, 64, 96, 128, 160, 192, 256};

static int seen_cb(const ct_result *r, void *user)
{
    seen *s = user;
    s->total++;
    if (strcmp(r->tmpl, "conv1d_naive") == 0) {
        for (int i = 0; i < 7; i++) {
            char want[40];
            snprintf(want, sizeof want, "{\"BLOCK_SIZE\":%d}", sizes[i]);
            if (strcmp(r->params_json, want) == 0)
                snprintf(s->naive_status[i], sizeof s->naive_status[i], "%s", ct_result_status_name(r->status));
        }
    }
    if (r->status == CT_RS_OK) {
        if (s->ok == 0 || r->median_us < s->best.median_us)
            s->best = *r;
        s->ok++;
    }
    return 0;
}

static int file_has(const char *path, const char *needle)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[4096];
    int found = 0;
    while (!found && fgets(line, sizeof line, f))
        found = strstr(line, needle) != NULL;
    fclose(f);
    return found;
}

int main(void)
{
    ct_gpu g;
    gpu_or_skip(&g);
    ct_gpu_close(&g);
    const char *dir = scratch_dir();
    char tdir[512], ini[512], db[512], log[512], path[600];
    snprintf(tdir, sizeof tdir, "%s/templates", dir);
    snprintf(ini, sizeof ini, "%s/faults.ini", dir);
    snprintf(db, sizeof db, "%s/faults.db", dir);
    snprintf(log, sizeof log, "%s/run.log", dir);
    CHECK(sh("mkdir -p %s && cp %s/templates/*/*.cu %s/templates/*/*.cuh %s/templates/kernels/*/*.cuh %s/", tdir,
             CT_SOURCE_DIR, CT_SOURCE_DIR, CT_SOURCE_DIR, tdir) == 0);
    snprintf(path, sizeof path, "%s/conv1d_naive.cu", tdir);
    FILE *f = fopen(path, "w");
    CHECK(f && fputs(faulty_naive, f) >= 0 && fclose(f) == 0);
    f = fopen(ini, "w");
    CHECK(f && fputs(fault_ini, f) >= 0 && fclose(f) == 0);

    int rc = sh("%s --problem conv1d:100000:31 --templates %s --config %s --db %s --strategy exhaustive "
                "--no-cache --verbose > %s 2>&1; st=$?; cat %s; exit $st",
                CT_BINARY, tdir, ini, db, log, log);
    CHECK_MSG(rc == 0, "the run with faulty candidates ended with status %d", rc);

    seen s = {0};
    ct_db *h;
    ct_err e;
    CHECK(ct_db_open(db, 0, &h, &e) == CT_OK);
    ct_query q = {.problem = "conv1d:100000:31:valid"};
    CHECK(ct_db_query(h, &q, seen_cb, &s, &e) == CT_OK);
    ct_db_close(h);
    static const char *const want[7] = {"ok", "crashed", "timed_out", "ok", "wrong_result", "crashed", "ok"};
    int faults = 0;
    for (int i = 0; i < 7; i++) {
        CHECK_MSG(strcmp(s.naive_status[i], want[i]) == 0, "conv1d_naive BLOCK_SIZE=%d stored as '%s', want '%s'",
                  sizes[i], s.naive_status[i], want[i]);
        faults += strcmp(want[i], "ok") != 0 && strcmp(s.naive_status[i], want[i]) == 0;
    }
    /* 3 good naive, 4 tiled, 1 FFT: every good one measured. */
    CHECK_MSG(s.ok == 8, "%d verified candidates, want 8 (of %d stored)", s.ok, s.total);
    CHECK(s.ok > 0 && s.best.relerr >= 0 && s.best.relerr <= 1e-5);
    /* One worker to begin with, one more after each of the three faults
     * that take the process down (the wrong answer does not). */
    CHECK_MSG(file_has(log, "worker processes 4"), "the log does not report 4 worker processes");
    printf("faults survived: %d of 4 (crashed x2, timed_out, wrong_result); %d candidates stored, %d verified, "
           "winner %s %.2f us relerr %.2g\n", faults, s.total, s.ok, s.best.tmpl, s.best.median_us, s.best.relerr);

    /* compute-sanitizer over the worker processes of a short ordinary run. */
    if (sh("command -v compute-sanitizer > /dev/null") != 0) {
        printf("compute-sanitizer is not installed: the sanitizer part was not run\n");
    } else {
        static const char *const tools[] = {"memcheck", "racecheck"};
        for (int i = 0; i < 2; i++) {
            snprintf(path, sizeof path, "%s/san_%s.db", dir, tools[i]);
            /* convtune probes on purpose (a module without a __constant__
             * copy answers cuModuleGetGlobal with NOT_FOUND): API error
             * returns are not kernel errors. */
            rc = sh("compute-sanitizer --tool %s --target-processes all --error-exitcode 99 --print-limit 20 "
                    "--report-api-errors no %s --problem conv1d:5000:63 --db %s --strategy random --budget 12 "
                    "--seed %d --no-cache > %s/san.log 2>&1; st=$?; grep '^=========' %s/san.log | head -40; "
                    "exit $st",
                    tools[i], CT_BINARY, path, 11 + i, dir, dir);
            CHECK_MSG(rc == 0, "compute-sanitizer %s: exit %d", tools[i], rc);
            printf("compute-sanitizer %s over 12 sampled candidates: %s\n", tools[i], rc == 0 ? "0 errors" : "ERRORS");
        }
    }
    sh("rm -rf %s", dir);
    CHECK_DONE();
}

/* tune_cudnn.c - the vendor baseline of a run (tune_cudnn.h). */
#include "tune_cudnn.h"

#include <math.h>
#include <string.h>

/* The reason for none, as stored with the run: the run's settings object
 * (its settings, conditions and this note) is read back into 1 KiB. */
#define CT_TUNE_CUDNN_NOTE_WHY 160

void ct_tune_cudnn_run(ct_worker *wk, ct_tune_result *res)
{
    ct_err e;
    res->cudnn_asked = 1;
    if (ct_worker_cudnn(wk, &res->cudnn, &e) != CT_OK) {
        memset(&res->cudnn, 0, sizeof res->cudnn);
        snprintf(res->cudnn.why, sizeof res->cudnn.why, "%.399s", e.msg);
    }
}

/* The timing of the fp32 problem with TF32 on (the second), NULL for a
 * half type or when it failed. */
static const ct_cudnn_timing *tf32_timing(const ct_cudnn_outcome *o)
{
    return o->n == 2 && o->t[1].ok ? &o->t[1] : NULL;
}

/* The timing without TF32 (fp32) or in the problem's half type. */
static const ct_cudnn_timing *main_timing(const ct_cudnn_outcome *o)
{
    return o->n >= 1 && o->t[0].ok ? &o->t[0] : NULL;
}

void ct_tune_cudnn_print(FILE *out, const ct_tune_result *res, double winner_us)
{
    const ct_cudnn_outcome *o = &res->cudnn;
    if (!res->cudnn_asked)
        return;
    if (!o->ran) {
        fprintf(out, "  cuDNN baseline: none (%s)\n", o->why[0] ? o->why : "no reason given");
        return;
    }
    fprintf(out, "  cuDNN %s", o->version);
    for (int i = 0; i < o->n && i < CT_CUDNN_TIMINGS; i++) {
        const ct_cudnn_timing *t = &o->t[i];
        fprintf(out, "%s (%s): ", i ? ";" : "", t->label);
        if (t->ok)
            fprintf(out, "%.2f us, relerr %.1e: convtune %.2fx", t->us, t->relerr, t->us / winner_us);
        else
            fprintf(out, "none (%s)", t->why);
        /* Which of cuDNN's APIs gave the time (Find's algorithm or the
         * backend's engine), and what the other gave. */
        if (t->ok && t->api[0])
            fprintf(out, " [%s API %s %d%s%s]", t->api, strcmp(t->api, "backend") ? "algo" : "engine", t->algo,
                    t->api_other[0] ? "; " : "", t->api_other);
    }
    fputc('\n', out);
}

static void number_or_null(ct_jw *j, const char *key, const char *fmt, int have, double v)
{
    if (have && isfinite(v))
        ct_jw_number(j, key, fmt, v);
    else
        ct_jw_null(j, key);
}

/* The fields of both forms, under prefix ("cudnn_" or ""), the reason for
 * none cut to at most why_max bytes (at a character's start: the stored
 * settings are read back as strict UTF-8). */
static void fields(ct_jw *j, const ct_tune_result *res, double winner_us, const char *prefix, size_t why_max)
{
    const ct_cudnn_outcome *o = &res->cudnn;
    const ct_cudnn_timing *m = o->ran ? main_timing(o) : NULL, *t = o->ran ? tf32_timing(o) : NULL;
    char key[48];
#define KEY(name) (snprintf(key, sizeof key, "%s%s", prefix, name), key)
    ct_jw_string_or_null(j, KEY("version"), o->ran ? o->version : "");
    number_or_null(j, KEY("us"), "%.4f", m != NULL, m ? m->us : 0);
    number_or_null(j, KEY("relerr"), "%.3g", m != NULL, m ? m->relerr : 0);
    number_or_null(j, KEY("speedup"), "%.3f", m && winner_us > 0, m ? m->us / winner_us : 0);
    ct_jw_string_or_null(j, KEY("timing"), m ? m->timing : "");
    if (prefix[0])   /* --json only: the stored note keeps its fields */
        ct_jw_string_or_null(j, KEY("api"), m ? m->api : "");
    number_or_null(j, KEY("tf32_us"), "%.4f", t != NULL, t ? t->us : 0);
    number_or_null(j, KEY("tf32_relerr"), "%.3g", t != NULL, t ? t->relerr : 0);
    number_or_null(j, KEY("tf32_speedup"), "%.3f", t && winner_us > 0, t ? t->us / winner_us : 0);
    char none[sizeof o->why];
    snprintf(none, sizeof none, "%s", o->ran ? "" : o->why[0] ? o->why : "not timed: no candidate was verified");
    if (strlen(none) > why_max) {
        size_t cut = why_max;
        while (cut > 0 && ((unsigned char)none[cut] & 0xC0) == 0x80)
            cut--;
        none[cut] = '\0';
    }
    ct_jw_string_or_null(j, KEY("none"), none);
#undef KEY
}

void ct_tune_cudnn_json(ct_jw *j, const ct_tune_result *res, double winner_us)
{
    fields(j, res, winner_us, "cudnn_", sizeof res->cudnn.why);
}

int ct_tune_cudnn_note(const ct_tune_result *res, double winner_us, char *buf, size_t len)
{
    ct_jw j;
    ct_jw_buffer(&j, buf, len, 0);
    ct_jw_object(&j, NULL);
    fields(&j, res, winner_us, "", CT_TUNE_CUDNN_NOTE_WHY);
    ct_jw_end(&j);
    return ct_jw_fits(&j);
}

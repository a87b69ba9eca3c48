/* gpus.c - candidates dealt to the GPUs of one host (gpus.h).
 *
 * Every worker is started, fed and stopped by its lane's own thread, which
 * lives as long as the run: the worker dies with the thread that forked it
 * (PR_SET_PDEATHSIG follows the thread), so a worker must never be started
 * from a short-lived helper thread. */
#include "gpus.h"
#include "text.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum { CMD_NONE, CMD_START, CMD_CEILINGS, CMD_WORKLOAD };

typedef struct item {
    ct_compile_job *job;
    int tmpl;
    double race_us;
    ct_result oc;   /* the measured fields and conditions */
    int gpu;
} item;

#define QCAP (CT_MAX_GPUS + 1)

typedef struct lane {
    struct ct_gpus *g;
    int k, ordinal;
    pthread_t th;
    int have_thread;
    ct_worker *wk;
    ct_worker_device dev;
    int cmd;                   /* a request for this lane's thread */
    ct_status cmd_rc;
    ct_err cmd_err;
    int alive;                 /* takes candidates */
    ct_status dead_rc;         /* why it stopped taking them */
    ct_err dead_err;
    int measured;
} lane;

struct ct_gpus {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    ct_worker_spec spec;
    FILE *log;
    int n, nalive, quit;
    lane lane[CT_MAX_GPUS];
    item pending[QCAP], done[QCAP];
    int npending, ndone;
    int busy;                  /* dealt, not yet taken back */
};

ct_status ct_gpus_parse(const char *text, int *ordinals, int *n, ct_err *e)
{
    if (!strcmp(text, "all")) {
        *n = -1;
        return CT_OK;
    }
    int k = 0;
    const char *s = text;
    for (;;) {
        char *end;
        errno = 0;
        long v = *s >= '0' && *s <= '9' ? strtol(s, &end, 10) : -1;
        int dup = 0;
        for (int i = 0; i < k && v >= 0; i++)
            dup |= ordinals[i] == v;
        if (v < 0 || v > 1023 || errno || (*end != ',' && *end) || dup || k == CT_MAX_GPUS)
            return ct_fail(e, CT_ERR_USAGE, "--gpu: bad value '%s' (expected a device ordinal 0..1023, a list of "
                           "up to %d distinct ones such as 0,1, or all)",
                           ct_echo(text, (char[CT_ECHO_LEN]){0}, CT_ECHO_LEN), CT_MAX_GPUS);
        ordinals[k++] = (int)v;
        if (!*end)
            break;
        s = end + 1;
    }
    *n = k;
    return CT_OK;
}

static ct_status lane_cmd(lane *l, int cmd, ct_err *e)
{
    switch (cmd) {
    case CMD_START: {
        ct_worker_spec s = l->g->spec;
        s.gpu = l->ordinal;
        return ct_worker_start(&s, &l->wk, &l->dev, e);
    }
    case CMD_CEILINGS:
        return ct_worker_ceilings(l->wk, &l->dev, e);
    default:
        return ct_worker_workload(l->wk, e);
    }
}

static void *lane_main(void *arg)
{
    lane *l = arg;
    ct_gpus *g = l->g;
    pthread_mutex_lock(&g->mu);
    for (;;) {
        while (!g->quit && l->cmd == CMD_NONE && !(l->alive && g->npending > 0))
            pthread_cond_wait(&g->cv, &g->mu);
        if (g->quit)
            break;
        if (l->cmd != CMD_NONE) {
            int cmd = l->cmd;
            pthread_mutex_unlock(&g->mu);
            ct_err err = {0};
            ct_status rc = lane_cmd(l, cmd, &err);
            pthread_mutex_lock(&g->mu);
            l->cmd_rc = rc;
            l->cmd_err = err;
            l->cmd = CMD_NONE;
            pthread_cond_broadcast(&g->cv);
            continue;
        }
        item it = g->pending[0];
        memmove(g->pending, g->pending + 1, (size_t)--g->npending * sizeof *g->pending);
        pthread_mutex_unlock(&g->mu);
        ct_err err = {0};
        ct_result_init(&it.oc);
        ct_status rc = ct_worker_run(l->wk, it.tmpl, &it.job->cand->params, &it.job->bin, it.race_us, &it.oc, &err);
        pthread_mutex_lock(&g->mu);
        if (rc != CT_OK) {
            /* This GPU cannot take candidates any more: hand its candidate
             * to the others, who go on. */
            l->alive = 0;
            g->nalive--;
            l->dead_rc = rc;
            l->dead_err = err;
            memmove(g->pending + 1, g->pending, (size_t)g->npending++ * sizeof *g->pending);
            g->pending[0] = it;
            if (g->log)
                fprintf(g->log, "convtune: GPU %d leaves the run (%s); %d GPU%s go%s on\n", l->ordinal, err.msg,
                        g->nalive, g->nalive == 1 ? "" : "s", g->nalive == 1 ? "es" : "");
        } else {
            it.gpu = l->k;
            l->measured++;
            g->done[g->ndone++] = it;
        }
        pthread_cond_broadcast(&g->cv);
    }
    pthread_mutex_unlock(&g->mu);
    /* Stopped from the thread that started it (see the top). */
    ct_worker_stop(l->wk);
    l->wk = NULL;
    return NULL;
}

/* Run cmd in lanes [from, n), in parallel; the first failure is returned. */
static ct_status lanes_call(ct_gpus *g, int cmd, int from, const int *only, ct_err *e)
{
    pthread_mutex_lock(&g->mu);
    for (int k = from; k < g->n; k++)
        if (!only || only[k])
            g->lane[k].cmd = cmd;
    pthread_cond_broadcast(&g->cv);
    ct_status rc = CT_OK;
    for (int k = from; k < g->n; k++) {
        if (only && !only[k])
            continue;
        while (g->lane[k].cmd != CMD_NONE)
            pthread_cond_wait(&g->cv, &g->mu);
        if (g->lane[k].cmd_rc != CT_OK && rc == CT_OK) {
            rc = g->lane[k].cmd_rc;
            if (e)
                *e = g->lane[k].cmd_err;
        }
    }
    pthread_mutex_unlock(&g->mu);
    return rc;
}

/* Lanes [g->n, n) with their threads, then started in parallel. */
static ct_status add_lanes(ct_gpus *g, const int *ordinals, int n, ct_err *e)
{
    int from = g->n;
    for (int k = from; k < n; k++) {
        lane *l = &g->lane[k];
        memset(l, 0, sizeof *l);
        l->g = g;
        l->k = k;
        l->ordinal = ordinals[k];
        if (pthread_create(&l->th, NULL, lane_main, l) != 0)
            return ct_fail(e, CT_ERR_INTERNAL, "cannot start a thread for GPU %d", l->ordinal);
        l->have_thread = 1;
        g->n = k + 1;
    }
    ct_status rc = lanes_call(g, CMD_START, from, NULL, e);
    for (int k = from; k < g->n; k++)
        g->lane[k].alive = g->lane[k].wk != NULL;
    return rc;
}

ct_status ct_gpus_start(const ct_worker_spec *spec, const int *ordinals, int n, FILE *log, ct_gpus **out,
                        ct_worker_device *dev, ct_err *e)
{
    *out = NULL;
    if (n == 0 || n > CT_MAX_GPUS)
        return ct_fail(e, CT_ERR_USAGE, "--gpu: between 1 and %d GPUs", CT_MAX_GPUS);
    ct_gpus *g = calloc(1, sizeof *g);
    if (!g)
        return ct_fail(e, CT_ERR_INTERNAL, "out of memory");
    pthread_mutex_init(&g->mu, NULL);
    pthread_cond_init(&g->cv, NULL);
    g->spec = *spec;
    g->log = log;
    int all[CT_MAX_GPUS];
    for (int k = 0; k < CT_MAX_GPUS; k++)
        all[k] = k;
    /* "all": the first worker tells how many GPUs there are. */
    ct_status rc = add_lanes(g, n < 0 ? all : ordinals, n < 0 ? 1 : n, e);
    if (rc == CT_OK && n < 0) {
        int count = g->lane[0].dev.device_count;
        rc = add_lanes(g, all, count < CT_MAX_GPUS ? count : CT_MAX_GPUS, e);
    }
    for (int k = 1; rc == CT_OK && k < g->n; k++) {
        const ct_worker_device *a = &g->lane[0].dev, *b = &g->lane[k].dev;
        if (strcmp(a->info.name, b->info.name) || a->info.cc_major != b->info.cc_major ||
            a->info.cc_minor != b->info.cc_minor || a->info.sm_count != b->info.sm_count)
            rc = ct_fail(e, CT_ERR_USAGE, "--gpu: GPU %d is an %s (%s, %d SMs) but GPU %d an %s (%s, %d SMs): one "
                         "run tunes GPUs of one model only; tune each model in its own run",
                         g->lane[k].ordinal, b->info.name, b->arch, b->info.sm_count, g->lane[0].ordinal,
                         a->info.name, a->arch, a->info.sm_count);
    }
    if (rc != CT_OK) {
        ct_gpus_stop(g);
        return rc;
    }
    g->nalive = g->n;
    *dev = g->lane[0].dev;
    *out = g;
    return CT_OK;
}

int ct_gpus_count(const ct_gpus *g)
{
    return g->n;
}

int ct_gpus_ordinal(const ct_gpus *g, int k)
{
    return g->lane[k].ordinal;
}

const ct_worker_device *ct_gpus_device(const ct_gpus *g, int k)
{
    return &g->lane[k].dev;
}

ct_worker *ct_gpus_worker(ct_gpus *g, int k)
{
    return g->lane[k].wk;
}

ct_status ct_gpus_devices(ct_gpus *g, ct_db *db, int remeasure, FILE *out, long long *device_ids, ct_err *e)
{
    int measure[CT_MAX_GPUS] = {0}, any = 0;
    for (int k = 0; k < g->n; k++) {
        ct_device_info *in = &g->lane[k].dev.info;
        /* Ceilings are measured once per device and driver, then reused;
         * a device stored before the tensor-core ceiling existed is measured
         * again for it. */
        measure[k] = remeasure ||
                     ct_db_device_ceilings(db, in, &in->fma_tflops, &in->tc_half_tflops, &in->bandwidth_gbs,
                                           &in->launch_us, NULL) != CT_OK ||
                     (ct_gpu_has_half_mma(in->cc_major, in->cc_minor) && !(in->tc_half_tflops > 0));
        if (measure[k] && g->n == 1)
            fprintf(out, "measuring the ceilings of %s ...\n", in->name);
        else if (measure[k])
            fprintf(out, "measuring the ceilings of %s (GPU %d) ...\n", in->name, g->lane[k].ordinal);
        any |= measure[k];
    }
    ct_status rc = any ? lanes_call(g, CMD_CEILINGS, 0, measure, e) : CT_OK;
    for (int k = 0; rc == CT_OK && k < g->n; k++)
        rc = ct_db_device_upsert(db, &g->lane[k].dev.info, &device_ids[k], e);
    return rc;
}

ct_status ct_gpus_workload(ct_gpus *g, ct_err *e)
{
    return lanes_call(g, CMD_WORKLOAD, 0, NULL, e);
}

ct_status ct_gpus_run(ct_gpus *g, ct_compile_job *job, int tmpl, double race_us, ct_gpus_done *done, ct_err *e)
{
    done->job = NULL;
    pthread_mutex_lock(&g->mu);
    if (job) {
        g->pending[g->npending++] = (item){.job = job, .tmpl = tmpl, .race_us = race_us};
        g->busy++;
        pthread_cond_broadcast(&g->cv);
    }
    for (;;) {
        if (g->ndone) {
            item it = g->done[0];
            memmove(g->done, g->done + 1, (size_t)--g->ndone * sizeof *g->done);
            g->busy--;
            done->job = it.job;
            done->oc = it.oc;
            done->gpu = it.gpu;
            break;
        }
        if (g->nalive == 0 && g->busy > 0) {
            /* Every GPU left: the last one's reason. */
            const lane *last = &g->lane[0];
            for (int k = 1; k < g->n; k++)
                if (g->lane[k].dead_rc != CT_OK)
                    last = &g->lane[k];
            ct_status rc = last->dead_rc != CT_OK ? last->dead_rc : CT_ERR_CUDA;
            pthread_mutex_unlock(&g->mu);
            return ct_fail(e, rc, "%s", last->dead_err.msg[0] ? last->dead_err.msg : "no GPU worker is left");
        }
        if (job ? g->busy < g->nalive : g->busy == 0)
            break;
        pthread_cond_wait(&g->cv, &g->mu);
    }
    pthread_mutex_unlock(&g->mu);
    return CT_OK;
}

int ct_gpus_busy(ct_gpus *g)
{
    pthread_mutex_lock(&g->mu);
    int b = g->busy;
    pthread_mutex_unlock(&g->mu);
    return b;
}

int ct_gpus_starts(const ct_gpus *g)
{
    /* Read while the lanes are idle (after the candidates). */
    int n = 0;
    for (int k = 0; k < g->n; k++)
        n += g->lane[k].wk ? ct_worker_starts(g->lane[k].wk) : 0;
    return n;
}

void ct_gpus_summary(ct_gpus *g, char *buf, size_t len)
{
    size_t o = 0;
    buf[0] = '\0';
    pthread_mutex_lock(&g->mu);
    for (int k = 0; k < g->n && o < len; k++)
        o += (size_t)snprintf(buf + o, len - o, "%sGPU %d: %d%s", k ? ", " : "", g->lane[k].ordinal,
                              g->lane[k].measured, g->lane[k].alive ? "" : " (left the run)");
    pthread_mutex_unlock(&g->mu);
}

void ct_gpus_stop(ct_gpus *g)
{
    if (!g)
        return;
    /* Each thread stops its worker when it leaves, after the candidate it
     * may be running. */
    pthread_mutex_lock(&g->mu);
    g->quit = 1;
    pthread_cond_broadcast(&g->cv);
    pthread_mutex_unlock(&g->mu);
    for (int k = 0; k < g->n; k++)
        if (g->lane[k].have_thread)
            pthread_join(g->lane[k].th, NULL);
    pthread_cond_destroy(&g->cv);
    pthread_mutex_destroy(&g->mu);
    free(g);
}

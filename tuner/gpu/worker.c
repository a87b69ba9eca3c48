/* worker.c - the supervised worker process and its protocol.
 *
 * Messages are a header (type, payload length) and a payload, over a
 * SOCK_STREAM socket pair. Both ends are the same convtune binary, so the
 * payload structs travel as raw bytes; pointers never do (parameters go as
 * their JSON text, a binary as its bytes after the header). */
#include "worker.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "timing.h"

enum {
    MSG_START = 1,   /* supervisor -> worker: start_msg                     */
    MSG_REPLY,       /* worker -> supervisor: reply_msg                     */
    MSG_CEILINGS,    /* measure the ceilings; answered by MSG_REPLY         */
    MSG_WORKLOAD,    /* build buffers and reference; answered by MSG_REPLY  */
    MSG_RUN,         /* run_msg then the binary's bytes                     */
    MSG_VERIFIED,    /* worker -> supervisor: verified_msg, timing starts   */
    MSG_RESULT,      /* worker -> supervisor: result_msg                    */
    MSG_QUIT,
    MSG_CUDNN,       /* time the cuDNN baseline; answered by MSG_REPLY      */
};

typedef struct msg_hdr {
    uint32_t type;
    uint32_t len;
} msg_hdr;

typedef struct start_msg {
    int gpu;
    char problem[160];
    unsigned long long seed;
    int has_templates;
    char templates_dir[1024];
    ct_settings s;
} start_msg;

typedef struct reply_msg {
    int status;
    char msg[1024];
    ct_worker_device dev;
    ct_cudnn_outcome cudnn;    /* MSG_CUDNN's answer */
} reply_msg;

/* The parameters travel typed: their values in the template's declaration
 * order (the names are the worker's own declarations: pointers do not cross
 * processes). */
typedef struct run_msg {
    int tmpl;
    int nparams;
    long values[CT_MAX_PARAMS];
    int is_cubin;
    double race_us;
    unsigned long long size;
} run_msg;

typedef struct verified_msg {
    double verify_ms;
} verified_msg;

/* Only the measured fields and the conditions of o are read. */
typedef struct result_msg {
    int status;
    char msg[1024];
    ct_result o;
} result_msg;

/* Binaries larger than this are not candidates but a corrupted stream. */
#define MAX_BINARY (256u << 20)

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int write_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n) {
        /* MSG_NOSIGNAL: a dead peer is an error return, not a SIGPIPE. */
        ssize_t k = send(fd, p, n, MSG_NOSIGNAL);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

/* Read exactly n bytes before deadline (0: none). 0 done, -1 end of stream
 * or error, -2 deadline passed. */
static int read_all(int fd, void *buf, size_t n, double deadline)
{
    char *p = buf;
    while (n) {
        if (deadline > 0) {
            double left = deadline - now_s();
            if (left <= 0)
                return -2;
            struct pollfd pf = {.fd = fd, .events = POLLIN};
            int r = poll(&pf, 1, (int)(left * 1000) + 1);
            if (r < 0 && errno == EINTR)
                continue;
            if (r < 0)
                return -1;
            if (r == 0)
                return -2;
        }
        ssize_t k = recv(fd, p, n, 0);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

static int send_msg(int fd, uint32_t type, const void *payload, size_t len, const void *extra, size_t extra_len)
{
    msg_hdr h = {.type = type, .len = (uint32_t)(len + extra_len)};
    if (write_all(fd, &h, sizeof h) || (len && write_all(fd, payload, len)) ||
        (extra_len && write_all(fd, extra, extra_len)))
        return -1;
    return 0;
}

/* Receive a message whose payload must be exactly len bytes (or, for
 * MSG_RUN, at least len, the rest left in the stream). */
static int recv_msg(int fd, uint32_t *type, void *payload, size_t len, double deadline, uint32_t *total)
{
    msg_hdr h;
    int r = read_all(fd, &h, sizeof h, deadline);
    if (r)
        return r;
    *type = h.type;
    if (total)
        *total = h.len;
    size_t want = h.type == MSG_QUIT || h.type == MSG_CEILINGS || h.type == MSG_WORKLOAD || h.type == MSG_CUDNN
                      ? 0 : len;
    if (h.len < want || (h.type != MSG_RUN && h.len != want))
        return -1;
    return want ? read_all(fd, payload, want, deadline) : 0;
}

/* ------------------------------------------------------------------------ */
/* The worker side                                                          */

static void send_verified(void *user, double verify_ms)
{
    verified_msg v = {.verify_ms = verify_ms};
    send_msg(*(int *)user, MSG_VERIFIED, &v, sizeof v, NULL, 0);
}

static void fill_device(const ct_gpu *g, ct_worker_device *dev)
{
    dev->info = g->info;
    dev->lim = g->lim;
    snprintf(dev->arch, sizeof dev->arch, "%s", g->arch);
    dev->total_mem = g->total_mem;
    dev->device_count = g->device_count;
}

int ct_worker_serve(int fd)
{
    /* The supervisor may be killed (kill -9, a power cut simulated by a
     * test): never outlive it. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    static start_msg st;
    static reply_msg rep;
    static result_msg res;
    uint32_t type;
    if (recv_msg(fd, &type, &st, sizeof st, 0, NULL) || type != MSG_START)
        return 2;
    ct_problem p;
    ct_err e = {{0}};
    ct_gpu g;
    ct_workload w = {0};
    int have_w = 0;
    rep.status = ct_problem_parse(st.problem, &p, &e);
    if (rep.status == CT_OK)
        rep.status = ct_gpu_open(st.gpu, &g, &e);
    snprintf(rep.msg, sizeof rep.msg, "%s", e.msg);
    if (rep.status == CT_OK)
        fill_device(&g, &rep.dev);
    if (send_msg(fd, MSG_REPLY, &rep, sizeof rep, NULL, 0) || rep.status != CT_OK)
        return 1;
    const char *tdir = st.has_templates ? st.templates_dir : NULL;
    int code = 0;
    for (;;) {
        run_msg rm;
        uint32_t total = 0;
        int r = recv_msg(fd, &type, &rm, sizeof rm, 0, &total);
        if (r || type == MSG_QUIT)
            break;
        if (type == MSG_CEILINGS || type == MSG_WORKLOAD) {
            memset(&e, 0, sizeof e);
            if (type == MSG_CEILINGS) {
                rep.status = ct_gpu_measure_ceilings(&g, &e);
            } else {
                if (have_w)
                    ct_workload_free(&g, &w);
                rep.status = ct_workload_create(&g, &p, st.seed, NULL, tdir, &w, &e);
                have_w = rep.status == CT_OK;
                w.on_verified = send_verified;
                w.hook_user = &fd;
            }
            snprintf(rep.msg, sizeof rep.msg, "%s", e.msg);
            fill_device(&g, &rep.dev);
            if (send_msg(fd, MSG_REPLY, &rep, sizeof rep, NULL, 0))
                break;
            continue;
        }
        if (type == MSG_CUDNN) {
            memset(&e, 0, sizeof e);
            memset(&rep.cudnn, 0, sizeof rep.cudnn);
            rep.status = have_w ? ct_cudnn_baseline(&g, &w, &st.s, &rep.cudnn, &e)
                                : ct_fail(&e, CT_ERR_INTERNAL, "no workload to time cuDNN on");
            snprintf(rep.msg, sizeof rep.msg, "%s", e.msg);
            if (send_msg(fd, MSG_REPLY, &rep, sizeof rep, NULL, 0))
                break;
            if (rep.status == CT_ERR_CUDA) {
                code = 3;   /* the context is gone */
                break;
            }
            continue;
        }
        if (type != MSG_RUN || total - sizeof rm != rm.size || rm.size > MAX_BINARY || !have_w ||
            rm.tmpl < 0 || rm.tmpl >= p.family->ntemplates) {
            code = 2;
            break;
        }
        ct_binary bin = {.size = rm.size, .is_cubin = rm.is_cubin};
        bin.data = malloc(rm.size + 1);
        if (!bin.data || read_all(fd, bin.data, rm.size, 0)) {
            free(bin.data);
            code = 2;
            break;
        }
        bin.data[rm.size] = '\0';   /* PTX is loaded as text */
        const ct_template *t = &p.family->templates[rm.tmpl];
        ct_params c;
        memset(&res, 0, sizeof res);
        memset(&e, 0, sizeof e);
        memset(&c, 0, sizeof c);
        ct_result_init(&res.o);
        res.status = rm.nparams == t->nparams ? CT_OK
                     : ct_fail(&e, CT_ERR_INTERNAL, "%d parameters for %s, which has %d", rm.nparams, t->name,
                               t->nparams);
        for (int i = 0; res.status == CT_OK && i < t->nparams; i++)
            res.status = ct_params_set(&c, t->params[i].name, rm.values[i], &e);
        if (res.status == CT_OK) {
            w.race_us = rm.race_us;
            res.status = ct_run_candidate(&g, &w, t, &c, &bin, &st.s, &res.o, &e);
        }
        free(bin.data);
        snprintf(res.msg, sizeof res.msg, "%s", e.msg);
        if (send_msg(fd, MSG_RESULT, &res, sizeof res, NULL, 0))
            break;
        if (res.status != CT_OK) {
            /* The context is gone: this process is of no further use. */
            code = 3;
            break;
        }
    }
    if (have_w && code != 3)
        ct_workload_free(&g, &w);
    if (code != 3)
        ct_gpu_close(&g);
    return code;
}

/* ------------------------------------------------------------------------ */
/* The supervisor side                                                      */
/* Its message buffers are static per thread: a run on several GPUs drives
 * one worker from each of its threads (gpus.h). */

struct ct_worker {
    char exe[4096];
    char templates_dir[1024];
    int has_templates;
    int gpu;
    unsigned long long seed;
    ct_settings s;
    ct_problem p;
    pid_t pid;
    int fd;
    int starts;
    int want_workload;
};

/* Kill (if still running) and reap the worker; describe how it ended. */
static void reap(ct_worker *w, int kill_it, char *how, size_t len)
{
    if (w->pid <= 0)
        return;
    if (kill_it)
        kill(w->pid, SIGKILL);
    int st = 0;
    pid_t r;
    while ((r = waitpid(w->pid, &st, 0)) < 0 && errno == EINTR)
        ;
    if (how && r == w->pid) {
        if (WIFSIGNALED(st))
            snprintf(how, len, "killed by signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
        else
            snprintf(how, len, "exited with status %d", WEXITSTATUS(st));
    }
    close(w->fd);
    w->fd = -1;
    w->pid = 0;
}

/* Deadline for a request that involves no candidate (start, ceilings,
 * reference): driver start-up and an fp64 reference can take a while. */
static double setup_deadline(const ct_worker *w)
{
    return now_s() + (w->s.timeout_s > 120 ? w->s.timeout_s : 120);
}

static ct_status request(ct_worker *w, uint32_t type, const void *payload, size_t len, reply_msg *rep,
                         const char *what, ct_err *e)
{
    char how[128] = "";
    uint32_t rt;
    if (send_msg(w->fd, type, payload, len, NULL, 0) == 0 &&
        recv_msg(w->fd, &rt, rep, sizeof *rep, setup_deadline(w), NULL) == 0 && rt == MSG_REPLY) {
        if (rep->status != CT_OK)
            return ct_fail(e, (ct_status)rep->status, "%s", rep->msg);
        return CT_OK;
    }
    reap(w, 1, how, sizeof how);
    return ct_fail(e, CT_ERR_CUDA, "the GPU worker process gave no answer to %s (%s)", what,
                   how[0] ? how : "no reply");
}

static ct_status spawn(ct_worker *w, ct_worker_device *dev, ct_err *e)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        return ct_fail(e, CT_ERR_INTERNAL, "socketpair: %s", strerror(errno));
    char fdarg[16];
    snprintf(fdarg, sizeof fdarg, "%d", sv[1]);
    char *argv[] = {(char *)"convtune", (char *)"__worker", fdarg, NULL};
    pid_t pid = fork();
    if (pid < 0) {
        close(sv[0]);
        close(sv[1]);
        return ct_fail(e, CT_ERR_INTERNAL, "fork: %s", strerror(errno));
    }
    if (pid == 0) {
        /* Only async-signal-safe calls between fork and exec: the parent
         * has compile threads that may hold locks. */
        int fl = fcntl(sv[1], F_GETFD);
        fcntl(sv[1], F_SETFD, fl & ~FD_CLOEXEC);
        execv(w->exe, argv);
        _exit(127);
    }
    close(sv[1]);
    w->fd = sv[0];
    w->pid = pid;
    w->starts++;
    static _Thread_local start_msg st;
    memset(&st, 0, sizeof st);
    st.gpu = w->gpu;
    snprintf(st.problem, sizeof st.problem, "%s", w->p.canonical);
    st.seed = w->seed;
    st.has_templates = w->has_templates;
    snprintf(st.templates_dir, sizeof st.templates_dir, "%s", w->templates_dir);
    st.s = w->s;
    static _Thread_local reply_msg rep;
    ct_status rc = request(w, MSG_START, &st, sizeof st, &rep, "start-up", e);
    if (rc != CT_OK) {
        reap(w, 1, NULL, 0);
        return rc;
    }
    if (dev)
        *dev = rep.dev;
    return CT_OK;
}

ct_status ct_worker_start(const ct_worker_spec *spec, ct_worker **out, ct_worker_device *dev, ct_err *e)
{
    *out = NULL;
    ct_worker *w = calloc(1, sizeof *w);
    if (!w)
        return ct_fail(e, CT_ERR_INTERNAL, "out of memory");
    if (strlen(spec->exe) >= sizeof w->exe ||
        (spec->templates_dir && strlen(spec->templates_dir) >= sizeof w->templates_dir)) {
        free(w);
        return ct_fail(e, CT_ERR_USAGE, "worker path too long");
    }
    w->p = *spec->problem;
    strcpy(w->exe, spec->exe);
    if (spec->templates_dir) {
        strcpy(w->templates_dir, spec->templates_dir);
        w->has_templates = 1;
    }
    w->gpu = spec->gpu;
    w->seed = spec->seed;
    w->s = spec->settings;
    w->fd = -1;
    ct_status rc = spawn(w, dev, e);
    if (rc != CT_OK) {
        free(w);
        return rc;
    }
    *out = w;
    return CT_OK;
}

ct_status ct_worker_ceilings(ct_worker *w, ct_worker_device *dev, ct_err *e)
{
    static _Thread_local reply_msg rep;
    ct_status rc = request(w, MSG_CEILINGS, NULL, 0, &rep, "the ceiling measurement", e);
    if (rc == CT_OK)
        *dev = rep.dev;
    return rc;
}

ct_status ct_worker_workload(ct_worker *w, ct_err *e)
{
    static _Thread_local reply_msg rep;
    w->want_workload = 1;
    return request(w, MSG_WORKLOAD, NULL, 0, &rep, "the buffers and the reference", e);
}

int ct_worker_starts(const ct_worker *w)
{
    return w->starts;
}

/* A replacement worker after a fault: same GPU, same inputs and reference. */
static ct_status respawn(ct_worker *w, ct_err *e)
{
    ct_status rc = spawn(w, NULL, e);
    if (rc == CT_OK && w->want_workload)
        rc = ct_worker_workload(w, e);
    return rc;
}

ct_status ct_worker_cudnn(ct_worker *w, ct_cudnn_outcome *o, ct_err *e)
{
    static _Thread_local reply_msg rep;
    memset(o, 0, sizeof *o);
    ct_status rc = w->pid <= 0 ? respawn(w, e) : CT_OK;
    if (rc == CT_OK)
        rc = request(w, MSG_CUDNN, NULL, 0, &rep, "the cuDNN baseline", e);
    if (rc == CT_OK)
        *o = rep.cudnn;
    else if (rep.status == CT_ERR_CUDA)
        reap(w, 1, NULL, 0);   /* it exits: the next request gets a new one */
    return rc;
}

static void set_outcome(ct_result *o, ct_result_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void set_outcome(ct_result *o, ct_result_status status, const char *fmt, ...)
{
    o->status = status;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(o->error, sizeof o->error, fmt, ap);
    va_end(ap);
}

ct_status ct_worker_run(ct_worker *w, int template_index, const ct_params *c, const ct_binary *bin,
                        double race_us, ct_result *o, ct_err *e)
{
    ct_result_clear_measured(o);
    o->cond = (ct_conditions){.sm_mhz = {-1, -1}, .temp_c = {-1, -1}};
    ct_status rc;
    if (w->pid <= 0 && (rc = respawn(w, e)) != CT_OK)
        return rc;
    const ct_template *t = &w->p.family->templates[template_index];
    run_msg rm = {.tmpl = template_index, .nparams = t->nparams, .is_cubin = bin->is_cubin, .race_us = race_us,
                  .size = bin->size};
    for (int i = 0; i < t->nparams; i++) {
        int k = 0;
        while (k < c->n && strcmp(c->names[k], t->params[i].name) != 0)
            k++;
        if (k == c->n)
            return ct_fail(e, CT_ERR_INTERNAL, "candidate of %s without parameter %s", t->name, t->params[i].name);
        rm.values[i] = c->values[k];
    }
    if (send_msg(w->fd, MSG_RUN, &rm, sizeof rm, bin->data, bin->size) != 0) {
        /* The worker died between candidates: replace it and send again. */
        reap(w, 1, NULL, 0);
        if ((rc = respawn(w, e)) != CT_OK)
            return rc;
        if (send_msg(w->fd, MSG_RUN, &rm, sizeof rm, bin->data, bin->size) != 0) {
            reap(w, 1, NULL, 0);
            return ct_fail(e, CT_ERR_CUDA, "the GPU worker process does not accept candidates");
        }
    }
    const ct_settings *s = &w->s;
    double deadline = now_s() + s->timeout_s;
    static _Thread_local result_msg res;
    char how[128] = "";
    for (;;) {
        msg_hdr h;
        verified_msg v;
        int r = read_all(w->fd, &h, sizeof h, deadline);
        if (r == 0 && h.type == MSG_VERIFIED && h.len == sizeof v) {
            if ((r = read_all(w->fd, &v, sizeof v, deadline)) == 0) {
                /* Verified: one execution costs at most what the verification
                 * took, so the timing (the first execution, warm-up, min_reps
                 * samples (of a batch of about CT_BATCH_TARGET_US for a short
                 * one) or min_time_ms, up to two re-timings for a wide
                 * spread) has a known bound. */
                double one_s = v.verify_ms / 1e3;
                double timing_s = (1 + s->warmup + s->min_reps) * (one_s + CT_BATCH_TARGET_US * 4e-6) +
                                  s->min_time_ms / 1e3 + s->max_reps * 1e-5;
                deadline = now_s() + s->timeout_s + 3 * 2 * timing_s;
                continue;
            }
        } else if (r == 0 && h.type == MSG_RESULT && h.len == sizeof res) {
            if ((r = read_all(w->fd, &res, sizeof res, deadline)) == 0) {
                ct_result_take_measured(o, &res.o);
                if (res.status != CT_OK) {
                    /* A sticky fault: the runner recorded it as crashed and
                     * the worker exits; the next candidate gets a new one. */
                    reap(w, 0, NULL, 0);
                    if (o->status == CT_RS_UNSET)
                        set_outcome(o, CT_RS_CRASHED, "%s", res.msg);
                }
                return CT_OK;
            }
        } else if (r == 0) {
            r = -1;   /* a message that does not belong here */
        }
        if (r == -2) {
            reap(w, 1, NULL, 0);
            set_outcome(o, CT_RS_TIMED_OUT,
                        "no answer within the watchdog's deadline (timeout_s = %g s, extended by the expected "
                        "timing once verified): the worker process running it was killed",
                        s->timeout_s);
            return CT_OK;
        }
        reap(w, 1, how, sizeof how);
        set_outcome(o, CT_RS_CRASHED, "the worker process running this candidate died (%s)",
                    how[0] ? how : "connection lost");
        return CT_OK;
    }
}

void ct_worker_stop(ct_worker *w)
{
    if (!w)
        return;
    if (w->pid > 0) {
        send_msg(w->fd, MSG_QUIT, NULL, 0, NULL, 0);
        /* Give it a moment to release the GPU cleanly, then insist. */
        struct pollfd pf = {.fd = w->fd, .events = POLLIN};
        poll(&pf, 1, 5000);
        reap(w, 1, NULL, 0);
    }
    free(w);
}

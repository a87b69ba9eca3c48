/* ws_exec.h - the run-time half of the executors whose candidate is two
 * launches: a main kernel that writes each split's partial sums to a
 * workspace (splits x the output's count floats), then FAMILY_reduce, which
 * adds the splits into the output, so that the sums are the same on every
 * run (no atomics). Set-up, launch, resources and teardown are this one
 * code for every such executor (FAMILY_wgdwcl, FAMILY_dgsimt,
 * FAMILY_wgsimt, and the forward FAMILY_tcsplit: ct_tc_split_exec in
 * templates/kernels/tc/tc_conv.c), each describing itself in a ct_ws_exec;
 * each keeps its own export text (emit_launcher).
 *
 * The main kernel takes (x, dy, out) - the workspace for out where there is
 * one - and the reduce (workspace, out); x, dy and out are the family's
 * first, second and last buffers (for the forward pass x, the weights and
 * the output). With bias set and a problem of four buffers the reduce
 * takes (workspace, bias, out), the bias the third buffer: it adds it.
 * With tmaps, the main kernel takes the family's TMA tensor maps after
 * those buffers (encoded once at set-up from the workload's pointers);
 * with direct, a run without a workspace launches the main kernel on
 * every buffer, as a single-kernel template is launched (x, weights,
 * bias, out): one template whose split of one is the plain kernel.
 *
 * With prep, a third kernel may run first on every call (the family's
 * prep hook says whether, for the candidate, with its workspace's bytes
 * and its launch): <template>prep->suffix reads buffer prep->src (the
 * weights) into its own workspace, and the main kernel takes that
 * workspace in the buffer's place - a transformed copy of the weights
 * (tc16gktcl's swizzled A images; a Winograd filter transform). The
 * workspace is made at set-up and its launch is part of every execution
 * and of the timing's graph: a caller's call runs it each time. */
#ifndef CT_WS_EXEC_H
#define CT_WS_EXEC_H

#include "executor.h"
#include "problem.h"

typedef struct ct_ws_prep {
    const char *suffix;   /* the prep kernel: the template's name and this ("_wprep") */
    int src;              /* the buffer it reads and the main kernel no longer does */
} ct_ws_prep;

typedef struct ct_ws_exec {
    const ct_executor *exec;                  /* the executor: its template is the one naming it */
    int split_axis;                           /* the launch's grid axis that counts the splits; -1: none */
    int always;                               /* 1: workspace and reduce even for one split */
    int bias;                                 /* 1: the reduce adds the third of four buffers */
    unsigned (*reduce_grid)(long long count); /* blocks of 256 threads of the reduce */
    const char *what;                         /* the workspace in messages ("wgrad workspace") */
    int tmaps;                                /* 1: the main kernel takes the family's tensor maps */
    int direct;                               /* 1: without a workspace, every buffer to the main kernel */
    const ct_ws_prep *prep;                   /* a prep kernel where ct_family.prep gives one; NULL: never */
} ct_ws_exec;

/* The template of p's family that runs with executor x, or NULL. */
const ct_template *ct_ws_template(const ct_problem *p, const ct_executor *x);

/* The ct_executor hooks: setup with x (each executor's own setup calls it),
 * the others shared as they are. */
ct_status ct_ws_setup(const ct_ws_exec *x, const ct_problem *p, const ct_params *c, const ct_drv *d, CUmodule mod,
                      const CUdeviceptr *bufs, void **state, ct_err *e);
CUresult ct_ws_run(void *state);
void ct_ws_teardown(void *state);
void ct_ws_resources(void *state, int *regs, int *smem, int *local);
/* The launches of one execution in order - the prep's where there is one,
 * the main kernel's, the reduce's where there is a workspace - for the
 * timing's graphs (ct_executor.calls). */
int ct_ws_calls(void *state, const ct_kernel_call **calls);

/* A prep kernel of one thread an item, in blocks of threads (one axis):
 * its launch into l; returns bytes, its workspace, or 0 (l zeroed: no
 * prep) where items or bytes are 0 (the kind's prep hook). */
long long ct_ws_prep_items(long long items, unsigned threads, long long bytes, ct_launch *l);

/* The export's launcher (ct_executor.emit_launcher) of an executor whose
 * kernel never splits (direct, no reduce, no tensor maps): where the
 * candidate has a prep, its workspace made on the first call and kept
 * (<sym>_release() frees it), the prep into it at every call (the weights
 * may change between calls), named by the template's pasting macro cat
 * from the main kernel's name (which a family export renames), and the
 * main kernel with the workspace in the place of buffer prep->src; else
 * the one launch of a single-kernel template. */
void ct_ws_emit_direct(FILE *f, const ct_ws_exec *x, const ct_problem *p, const ct_params *c, const char *sym,
                       const char *signature, const char *cat);

/* Defines const ct_executor EXEC, an executor of that kind whose prep
 * kernel <template>SUFFIX reads the weights (buffer 1), its name pasted by
 * the template's macro CAT (a string): the ct_ws_exec and the two hooks
 * that name it (a ct_executor's hooks get no context), the others
 * ws_exec's. */
#define CT_WS_DIRECT_EXECUTOR(EXEC, SUFFIX, CAT)                                                            \
    static const ct_ws_prep EXEC##_prep = {.suffix = SUFFIX, .src = 1};                                     \
    static const ct_ws_exec EXEC##_ws = {.exec = &EXEC, .split_axis = -1, .what = "prep workspace",         \
                                         .direct = 1, .prep = &EXEC##_prep};                               \
    static ct_status EXEC##_setup(const ct_problem *p, const ct_params *c, const ct_drv *d, CUmodule mod,   \
                                  const CUdeviceptr *bufs, void **out, ct_err *e)                          \
    {                                                                                                      \
        return ct_ws_setup(&EXEC##_ws, p, c, d, mod, bufs, out, e);                                        \
    }                                                                                                      \
    static void EXEC##_emit(FILE *f, const ct_problem *p, const ct_params *c, const char *sym,            \
                            const char *signature)                                                         \
    {                                                                                                      \
        ct_ws_emit_direct(f, &EXEC##_ws, p, c, sym, signature, CAT);                                       \
    }                                                                                                      \
    const ct_executor EXEC = {.library = "CUDA runtime", .link_flags = "", .setup = EXEC##_setup,          \
                              .run = ct_ws_run, .teardown = ct_ws_teardown, .resources = ct_ws_resources,  \
                              .emit_launcher = EXEC##_emit, .calls = ct_ws_calls}

#endif

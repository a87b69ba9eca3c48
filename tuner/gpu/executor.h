/* executor.h - templates whose candidates are a sequence of launches.
 *
 * Most templates are one kernel, launched by the runner with the family's
 * geometry. A template may instead name an executor: a small program that
 * sets up plans and scratch for one candidate (cuFFT plans, say), enqueues
 * one execution on the default stream (its own kernels from the template's
 * module plus library calls) and writes the equivalent host code into an
 * exported file. The runner verifies and times it exactly like a kernel. */
#ifndef CT_EXECUTOR_H
#define CT_EXECUTOR_H

#include <stdio.h>

#include "cudrv.h"
#include "problem.h"
#include "timer.h"

typedef struct ct_executor {
    const char *library;          /* what it needs besides the driver ("cuFFT") */
    const char *link_flags;       /* for nvcc when building an export ("-lcufft") */
    /* Plans and scratch for candidate c; bufs are the workload's device
     * buffers in kernel-argument order. A candidate the device cannot hold
     * returns CT_ERR_USAGE (stored as exceeds_limits). */
    ct_status (*setup)(const ct_problem *p, const ct_params *c, const ct_drv *d, CUmodule mod,
                       const CUdeviceptr *bufs, void **state, ct_err *e);
    /* Enqueue one execution on the default stream. */
    CUresult (*run)(void *state);
    void (*teardown)(void *state);
    /* Largest register count, shared and local memory of its kernels. */
    void (*resources)(void *state, int *regs, int *smem, int *local);
    /* Write the host launcher of an export, after the kernels: a function
     * with the given signature (argument names are the family's buffer
     * names and `stream`), plus <sym>_release() for what it keeps. */
    void (*emit_launcher)(FILE *f, const ct_problem *p, const ct_params *c, const char *sym,
                          const char *signature);
    /* Optional: the kernel launches one execution makes, in order, when it
     * is plain launches (at most CT_MAX_CALLS, into calls), so that the
     * timing may repeat them in a CUDA graph as it does a single kernel;
     * returns how many, 0 where they are not. */
    int (*calls)(void *state, const ct_kernel_call **calls);
} ct_executor;

#endif

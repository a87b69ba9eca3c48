/* db_cudnn.h - the vendor baseline as stored: what `tune` noted of cuDNN
 * (tune_cudnn.h) under key "cudnn" of a run's settings, read back for
 * `query`, `report` and `export`.
 *
 * A problem's baseline on a device is the note of the newest run (by start
 * time, then id) of that problem on a device of that name whose note has a
 * time; the newest note without one gives the reason there is none. The
 * ratio the readers print is cuDNN's time over convtune's, as `tune` prints
 * it ("2.31x": convtune takes 1/2.31 of cuDNN's time). */
#ifndef CT_DB_CUDNN_H
#define CT_DB_CUDNN_H

#include "db.h"

typedef struct ct_cudnn_stored {
    int have;                  /* 1: a run timed cuDNN (us or tf32_us below) */
    char version[16];          /* "9.19" */
    double us, relerr;         /* fp32 with TF32 off, or the problem's half type; NaN absent */
    double tf32_us, tf32_relerr;   /* fp32 problems: TF32 on; NaN absent */
    char timing[16];           /* how it was timed (timing.h), "" when not noted */
    char run_started_at[32];   /* the run that timed it */
    char none[200];            /* have == 0: why, as the newest run noted it; "" when no run noted one */
} ct_cudnn_stored;

/* Parse a run's settings text (NULL or "" allowed) into o. Returns 1 when
 * it holds a "cudnn" note (timed or not), 0 otherwise (o says none). */
int ct_cudnn_stored_parse(const char *settings, ct_cudnn_stored *o);

/* The baseline of problem (canonical) on the device named device (exact
 * name, any driver or NVRTC row of it) into o; o->have == 0 when no run
 * timed one. CT_OK either way; an error only when the database fails. */
ct_status ct_db_cudnn(ct_db *db, const char *problem, const char *device, ct_cudnn_stored *o, ct_err *e);

/* The time to compare against: us (TF32 off for an fp32 problem, like for
 * like with convtune's FMA kernels, as `tune` compares); NaN when none. */
double ct_cudnn_stored_us(const ct_cudnn_stored *o);

/* "no cuDNN baseline stored" or "no cuDNN baseline stored (the newest
 * run's reason)", into buf. */
const char *ct_cudnn_stored_none(const ct_cudnn_stored *o, char *buf, size_t len);

#endif

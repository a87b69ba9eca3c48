/* selector.h - which tuned kernel serves a problem size.
 *
 * A multi-size export (`convtune export --family F`) holds one tuned kernel
 * instance per stored problem of the family on one device, plus a generic
 * kernel that takes the sizes at run time. Its selector, and `convtune
 * query --nearest`, grade a request the same way, with the functions below:
 *
 *   exact         an instance was tuned for exactly this problem
 *   nearest_size  no instance for this size: the generic kernel, launched
 *                 with the launch configuration (block size) of the tuned
 *                 problem nearest in log-size. The tuned instances have
 *                 compile-time sizes, so they are never run at another size;
 *                 only their launch configuration is reused.
 *   other_device  exact or nearest_size, but the tuning data come from a
 *                 device model other than the one running (known only at
 *                 run time: the export compares cudaGetDeviceProperties'
 *                 name with the device name baked into the file)
 *   generic       no tuned problem comparable to this one (of this family
 *                 and with the same fields other than sizes: mode, pad,
 *                 bias): the generic kernel with its default launch
 *                 configuration
 *
 * The distance is ct_problem_distance (problem.h): by default
 * sqrt(sum over the size fields of (ln a_d - ln b_d)^2) between problems
 * equal in every other field. The nearest is the smallest distance;
 * distances within CT_DISTANCE_TIE of each other are a tie, won by the
 * problem that comes first in the set's order (ct_problem_compare: the
 * fields that are not sizes, then the sizes, ascending). The generated
 * selector applies the same rule, to its arguments rewritten in the
 * spelling the family's parse gives a problem (family_export.h,
 * `canonical`), as the problems compared here are parsed. */
#ifndef CT_SELECTOR_H
#define CT_SELECTOR_H

#include "db.h"
#include "db_cudnn.h"
#include "problem.h"
#include "status.h"

typedef enum ct_grade {
    CT_GRADE_EXACT = 0,
    CT_GRADE_NEAREST_SIZE = 1,
    CT_GRADE_OTHER_DEVICE = 2,
    CT_GRADE_GENERIC = 3
} ct_grade;

#define CT_DISTANCE_TIE 1e-9

/* Block size of the generic kernel when no tuned problem lends its own. */
#define CT_GENERIC_BLOCK 256

/* "exact", "nearest_size", "other_device", "generic". */
const char *ct_grade_name(ct_grade g);

/* The winners of every tuned problem of one family, variant and element
 * type on one device. */
typedef struct ct_tuned_set {
    const ct_family *family;
    const struct ct_family_export *fx;   /* the selector's declaration: the family's, or its variant's */
    int variant;                /* the value of the family export's variant field (family_export.h), 0: none */
    ct_dtype dtype;             /* every problem's element type: an export holds one */
    char name[80];              /* the selector's: the family ("conv1d"), with the variant's name and the type
                                   past fp32 ("conv1d_bf16", "conv2dc_dgrad", "conv2dc_wgrad_f16") */
    char device[128];           /* exact device name */
    char arch[16];              /* "sm_90" */
    int device_auto;            /* no device asked for: the one with the most tuned problems */
    int ndevices;               /* device names with tuned problems of the family */
    int n;
    ct_result *recs;            /* winners, in ct_problem_compare order */
    ct_problem *probs;          /* recs[i].problem, parsed */
    ct_cudnn_stored *cudnn;     /* recs[i]'s stored cuDNN baseline on the device (db_cudnn.h) */
} ct_tuned_set;

/* Load the winner of each problem of family in element type dtype (stored
 * status "ok") on one device; problems of other types are not seen at all,
 * nor those of another variant than variant (family_export.h: the value of
 * the field the family's export names, 0 for its default; a family without
 * variants takes 0 only, a value without a selector is CT_ERR_USAGE).
 * device NULL or "": the device with the most such problems (ties: the name
 * first in byte order). Otherwise the device whose
 * name is device, or else the only one whose name contains it (case-
 * insensitive); several such names are a usage error listing them. Device
 * rows that differ only in driver or NVRTC version count as one device (the
 * fastest result wins). CT_ERR_NOT_FOUND when nothing is stored;
 * CT_ERR_USAGE for an unknown family. */
ct_status ct_tuned_load(ct_db *db, const char *family, ct_dtype dtype, int variant, const char *device,
                        ct_tuned_set *out, ct_err *e);

/* The value of p's variant field (family_export.h), 0 when its family's
 * export has none. */
int ct_tuned_variant(const ct_problem *p);

/* The selector's name of family in type t into buf: "conv1d" for fp32 (the
 * names of before), "conv1d_bf16", "conv1d_f16"; with a variant's name
 * (variant NULL: none) after the family: "conv2dc_dgrad", "conv2dc_dgrad_bf16".
 * What export file, function, macro and module names are made of. */
const char *ct_tuned_name(const char *family, const char *variant, ct_dtype t, char *buf, size_t len);

/* What follows `export --family` to write s again, for generated comments:
 * "conv1d", "conv1d --dtype bf16" for a half set, "conv2dc --pass dgrad"
 * for a variant (the option is the variant field's name). */
const char *ct_tuned_args(const ct_tuned_set *s, char *buf, size_t len);
void ct_tuned_free(ct_tuned_set *s);

/* Threads per block of the tuned launch of s's problem i, which the generic
 * kernel reuses for nearby sizes; CT_GENERIC_BLOCK when not known. */
unsigned ct_tuned_block(const ct_tuned_set *s, int i);

typedef struct ct_choice {
    ct_grade grade;
    int index;                  /* the tuned problem used (exact or nearest), -1 for generic */
    double distance;            /* to that problem, 0 when exact, -1 for generic */
} ct_choice;

/* What the selector of an export of s does for p, on a device named
 * running_device (NULL: assume the set's own device). */
void ct_select(const ct_tuned_set *s, const ct_problem *p, const char *running_device, ct_choice *out);

#endif

/* export_internal.h - what the single export (export.c) shares with the
 * family export (export_family.c): one exported kernel instance, its text
 * pieces and the atomic .cu/.h pair writer (also used by export_torch.c).
 * Not a public interface. */
#ifndef CT_EXPORT_INTERNAL_H
#define CT_EXPORT_INTERNAL_H

#include <stdio.h>

#include "db.h"
#include "db_cudnn.h"
#include "escape.h"
#include "outfile.h"
#include "selector.h"
#include "problem.h"
#include "status.h"

typedef struct instance {
    const ct_result *rec;
    ct_problem p;
    const ct_template *t;
    ct_params c;
    char *src;                 /* the template's text, malloc'ed */
    char sym[300];             /* the launcher's name: convtune_PROBLEM; in a family export
                                  convtune_SELECTOR_instance_PROBLEM (ct_exp_family_symbol) */
    char suffix[200];          /* PROBLEM: the problem as a name (conv1d_15_4_right), which
                                  names the instance's namespace and renamed kernels */
    ct_buffer bufs[CT_MAX_BUFS];
    int nb;
    ct_define defs[CT_MAX_DEFINES];
    int nd;
    ct_launch l;
    const ct_cudnn_stored *cudnn;  /* single export: the vendor baseline's line (NULL: none) */
} instance;

typedef void (*emit_fn)(FILE *f, void *user);

const char *ct_exp_base_name(const char *path);
void ct_exp_guard_name(const char *name, char *buf, size_t len);
void ct_exp_instance_free(instance *in);
ct_status ct_exp_instance_load(instance *in, const ct_result *rec, const char *templates_dir, ct_err *e);
double ct_exp_tflops_of(const ct_result *rec);
void ct_exp_emit_kernel_text(FILE *f, const instance *in);
void ct_exp_emit_launcher(FILE *f, const instance *in);
void ct_exp_emit_kernel_renames(FILE *f, const instance *in);
void ct_exp_emit_declarations(FILE *f, const instance *in);
/* The selector of a family export (export_select.c): the "Selector:" lines
 * of the header comments, its code in the .cu (after the instances and the
 * generic kernel), and its declarations in the header. check refuses an
 * instance whose buffers are not among the selector's. */
void ct_exp_selector_doc(FILE *f, const ct_tuned_set *s);
void ct_exp_selector_cu(FILE *f, const ct_tuned_set *s, const instance *ins, const char *device_q);
void ct_exp_selector_h(FILE *f, const ct_tuned_set *s);
ct_status ct_exp_selector_check(const ct_tuned_set *s, const instance *in, ct_err *e);
ct_status ct_exp_write_pair(const char *cu_path, int force, emit_fn emit_cu, emit_fn emit_h, void *user,
                            ct_outset *into, ct_err *e);
/* ct_export_cu and ct_export_family, their pair added to into (not
 * committed) when into is not NULL: `export --torch` commits it with its
 * module and binding as one set of four (outfile.h). */
ct_status ct_exp_cu_into(const ct_result *rec, const ct_cudnn_stored *cudnn, const char *templates_dir,
                         const char *path, int force, double tolerance, ct_outset *into, ct_err *e);
ct_status ct_exp_family_into(const ct_tuned_set *set, const char *templates_dir, const char *path, int force,
                             ct_outset *into, ct_err *e);

#endif

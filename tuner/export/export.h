/* export.h - stored winners as source files for other projects.
 *
 * Every export is a pair written together: FILE.cu (kernels and host
 * launchers, standalone, built with nvcc or CMake's CUDA language) and
 * FILE.h next to it (a plain C header declaring the launchers for C and C++
 * translation units; it needs no CUDA header: cudaStream_t is
 * `struct CUstream_st *`). Both carry the full provenance in their header
 * comment and are written atomically: both temporary files are completed
 * before the first is renamed into place, and a failure removes what was
 * written, so no half pair is left.
 *
 *   single problem  the winner's template with its parameters and the problem
 *                   sizes as #defines, a launcher with a C signature, and a
 *                   self-test main() behind CONVTUNE_SELFTEST
 *   family          one tuned instance per stored problem of the family on one
 *                   device (each in its own namespace, kernels renamed per
 *                   problem), a generic kernel taking the sizes at run time,
 *                   and a selector (convtune_F) that launches the exact
 *                   instance or the generic kernel and grades its choice as
 *                   selector.h describes; what is family-specific comes
 *                   from the family (family_export.h) */
#ifndef CT_EXPORT_H
#define CT_EXPORT_H

#include <stdio.h>

#include "db.h"
#include "db_cudnn.h"
#include "problem.h"
#include "selector.h"
#include "status.h"

/* At the top of a launcher's body: the TMA tensor maps candidate (p, t, c)
 * takes after its buffers (ct_family.tensor_maps), as CUtensorMap
 * ct_tmaps[] encoded at every call from the caller's pointers (the
 * family's buffer names) through the runtime's driver entry point (no
 * -lcuda; the file needs <cuda.h>). Returns how many (0: nothing
 * written). The single-kernel launchers and executors' ones (executor.h)
 * share it. */
int ct_export_emit_tensor_maps(FILE *f, const ct_problem *p, const ct_template *t, const ct_params *c);
/* The launcher lines that let kernel use over 48 KiB of dynamic shared
 * memory (CT_SMEM_BYTES), once per device. */
void ct_export_emit_smem_optin(FILE *f, const char *kernel);

/* The launcher's name for a canonical problem: "convtune_conv1d_1000000_2047_valid". */
void ct_export_symbol(const char *canonical, char *buf, size_t len);

/* Default output path: <symbol without the prefix>.cu, in the current folder */
void ct_export_default_path(const char *canonical, char *buf, size_t len);

/* Default output path of a family export: convtune_<name>.cu in the current
 * folder, name
 * the selector's (ct_tuned_name: "conv1d", "conv1d_bf16"). */
void ct_export_family_default_path(const char *name, char *buf, size_t len);

/* The header written next to a .cu: "dir/x.cu" -> "dir/x.h"; a name not
 * ending in .cu gets ".h" appended. */
void ct_export_header_path(const char *cu_path, char *buf, size_t len);

/* Write rec's kernel to path and its header next to it. Refuses to replace
 * an existing file (either of the two) unless force, to write through a
 * symbolic link, or into a missing directory (CT_ERR_IO), and a result whose
 * template changed since it was tuned (CT_ERR_NOT_FOUND). tolerance is the
 * self-test's pass threshold. cudnn is the stored vendor baseline of rec's
 * problem and device (ct_db_cudnn), stated against the winner in both
 * files' header comments ("no cuDNN baseline stored" when it has no time);
 * NULL leaves the line out. */
ct_status ct_export_cu(const ct_result *rec, const ct_cudnn_stored *cudnn, const char *templates_dir,
                       const char *path, int force, double tolerance, ct_err *e);

/* Write the multi-size export of set (ct_tuned_load) to path and its header
 * next to it, with the same refusals. A family that declares no family
 * export (family_export.h) is CT_ERR_USAGE. */
ct_status ct_export_family(const ct_tuned_set *set, const char *templates_dir, const char *path,
                           int force, ct_err *e);

#endif

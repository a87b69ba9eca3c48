/* export_torch.h - `convtune export --torch`: a stored winner (or a family's
 * tuned set) as a Python module for PyTorch, written into a directory next
 * to the usual .cu and .h pair (export.h):
 *
 *   NAME.cu, NAME.h      the export pair, unchanged
 *   NAME_binding.cpp     the C++ binding torch.utils.cpp_extension.load
 *                        builds with the .cu (launches on the current stream)
 *   NAME.py              the module: conv(...) checks device, dtype, shape,
 *                        contiguity and alignment (ValueError naming the
 *                        tensor and the mismatch), allocates the output and
 *                        launches; forward only (backward raises
 *                        NotImplementedError)
 *
 * The module builds on first use with cpp_extension.load; where that cannot
 * work (no ninja, a CUDA toolkit of another major version than PyTorch's)
 * it compiles the .cu alone with nvcc into a shared library and calls the
 * launcher through ctypes, with the same checks and stream.
 * CONVTUNE_TORCH_BUILD=cpp_extension or =nvcc forces one way.
 *
 * NAME is the single export's default base name (conv1d_1000000_2047_valid)
 * or convtune_F for a family. All four files are written atomically, as
 * one set (outfile.h): none is replaced unless force, and a failure or a
 * signal leaves all four new files or none of them. An empty dir is
 * refused (CT_ERR_USAGE), never taken as the root. */
#ifndef CT_EXPORT_TORCH_H
#define CT_EXPORT_TORCH_H

#include "db.h"
#include "selector.h"
#include "status.h"

ct_status ct_export_torch(const ct_result *rec, const char *templates_dir, const char *dir, int force,
                          double tolerance, ct_err *e);

/* The family module: conv(tensors..., keys) through the selector of
 * ct_export_family; a family without a family export is CT_ERR_USAGE. */
ct_status ct_export_torch_family(const ct_tuned_set *set, const char *templates_dir, const char *dir, int force,
                                 ct_err *e);

#endif

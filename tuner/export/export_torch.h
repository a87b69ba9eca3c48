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
 * or convtune_F for a family. The files are written atomically, as one set
 * (outfile.h): none is replaced unless force, and a failure or a signal
 * leaves all the new files or none of them. An empty dir is refused
 * (CT_ERR_USAGE), never taken as the root.
 *
 * A family module (below) has no binding: the runtime builds its .cu files
 * with nvcc into one shared library and calls the selectors through
 * ctypes. */
#ifndef CT_EXPORT_TORCH_H
#define CT_EXPORT_TORCH_H

#include "db.h"
#include "selector.h"
#include "status.h"

/* A family module's selectors: the forward one and one per training pass
 * (family_export.h, variants); and the runtime every family module
 * imports (templates/torch/). */
#define CT_TORCH_MAX_SETS 4
#define CT_TORCH_RUNTIME "convtune_torch.py"

/* The single module of rec (above); cudnn is the stored vendor baseline
 * its .cu and .h state, as ct_export_cu's (NULL: the line left out). */
ct_status ct_export_torch(const ct_result *rec, const ct_cudnn_stored *cudnn, const char *templates_dir,
                          const char *dir, int force, double tolerance, ct_err *e);

/* The family module: the export pairs of sets[0] (the forward selector's
 * tuned set) and of each further set (a training pass's selector, NULL
 * where nothing of that pass is tuned: family_export.h, variants), the
 * module NAME.py and the runtime it imports, convtune_torch.py (an existing
 * runtime of the same text is kept, not replaced). A family of layers gets
 * PyTorch ops with autograd (templates/torch/convtune_torch.py); a family
 * without a family export is CT_ERR_USAGE. */
ct_status ct_export_torch_family(const ct_tuned_set *const *sets, int nsets, const char *templates_dir,
                                 const char *dir, int force, ct_err *e);

#endif

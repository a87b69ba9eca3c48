/* codepp.h - the preprocessor conditionals of a canonical source resolved
 * for one candidate's macros, so that its code hash (codehash.h) covers the
 * code compiled for it and not the branches other problems, types or
 * parameters take. */
#ifndef CT_CODEPP_H
#define CT_CODEPP_H

#include "params.h"
#include "problem.h"
#include "status.h"

/* The canonical form's spacing rule (codehash.h): whether a blank is kept
 * between the characters a and b of code outside directives. */
int ct_code_blank_needed(int a, int b);

/* canonical (ct_code_canonical) with every #if/#ifdef/#ifndef group whose
 * conditions are known for the -D macros defs and c dropped to the branch
 * NVRTC compiles, its directive lines removed; a group with a condition
 * that is not known (a compiler's macro such as __CUDA_ARCH__, a function-
 * like macro, a name that is not the project's own) is kept whole. The
 * parameters of fam's templates (fam may be NULL) count as the project's
 * names. *out is malloc'ed. */
ct_status ct_code_resolve(const char *canonical, const ct_define *defs, int ndefs, const ct_params *c,
                          const ct_family *fam, char **out, ct_err *e);

#endif

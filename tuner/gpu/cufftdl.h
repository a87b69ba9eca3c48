/* cufftdl.h - cuFFT, loaded at run time like the driver, so that convtune
 * builds and runs without it and only the FFT candidates need it. */
#ifndef CT_CUFFTDL_H
#define CT_CUFFTDL_H

#include <cufft.h>

#include "status.h"

typedef struct ct_cufft {
    __typeof__(&cufftCreate) create;
    __typeof__(&cufftPlanMany) plan_many;
    __typeof__(&cufftExecR2C) exec_r2c;
    __typeof__(&cufftExecC2R) exec_c2r;
    __typeof__(&cufftSetStream) set_stream;
    __typeof__(&cufftDestroy) destroy;
    __typeof__(&cufftGetVersion) get_version;
} ct_cufft;

/* Load libcufft once ($CONVTUNE_CUFFT, else libcufft.so.12, .so.11, .so). */
ct_status ct_cufft_load(const ct_cufft **out, ct_err *e);

const char *ct_cufft_error(cufftResult r);

#endif

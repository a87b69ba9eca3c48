/* nvml.h - SM clock and GPU temperature through NVML, loaded at run time.
 *
 * The Driver API reports neither the current SM clock nor the temperature,
 * and both explain timing outliers (a cold GPU boosting, a hot one
 * throttling). NVML ships with the driver as libnvidia-ml.so.1; when it is
 * missing, readings are simply absent (-1). */
#ifndef CT_NVML_H
#define CT_NVML_H

typedef struct ct_nvml ct_nvml;

/* Open NVML for the GPU with this UUID ("GPU-xxxxxxxx-..."); NULL when NVML
 * or the device is unavailable. */
ct_nvml *ct_nvml_open(const char *uuid);

/* Current SM clock (MHz) and GPU temperature (degrees C); -1 when unknown. */
void ct_nvml_sample(ct_nvml *n, int *sm_mhz, int *temp_c);

void ct_nvml_close(ct_nvml *n);

#endif

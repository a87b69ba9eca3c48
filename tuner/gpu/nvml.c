/* nvml.c - the four NVML calls convtune needs, declared here so that no NVML
 * header is needed at build time (their ABI is stable since NVML 1). */
#include "nvml.h"

#include <dlfcn.h>
#include <stdlib.h>

enum { NVML_SUCCESS = 0, NVML_CLOCK_SM = 1, NVML_TEMPERATURE_GPU = 0 };

struct ct_nvml {
    void *lib;
    void *dev;
    int (*shutdown)(void);
    int (*clock)(void *dev, int type, unsigned *mhz);
    int (*temp)(void *dev, int sensor, unsigned *c);
};

ct_nvml *ct_nvml_open(const char *uuid)
{
    if (!uuid || !uuid[0])
        return NULL;
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return NULL;
    int (*init)(void) = (int (*)(void))dlsym(lib, "nvmlInit_v2");
    int (*by_uuid)(const char *, void **) = (int (*)(const char *, void **))dlsym(lib, "nvmlDeviceGetHandleByUUID");
    ct_nvml *n = calloc(1, sizeof *n);
    if (!n || !init || !by_uuid || init() != NVML_SUCCESS) {
        free(n);
        dlclose(lib);
        return NULL;
    }
    n->lib = lib;
    n->shutdown = (int (*)(void))dlsym(lib, "nvmlShutdown");
    n->clock = (int (*)(void *, int, unsigned *))dlsym(lib, "nvmlDeviceGetClockInfo");
    n->temp = (int (*)(void *, int, unsigned *))dlsym(lib, "nvmlDeviceGetTemperature");
    if (by_uuid(uuid, &n->dev) != NVML_SUCCESS) {
        ct_nvml_close(n);
        return NULL;
    }
    return n;
}

void ct_nvml_sample(ct_nvml *n, int *sm_mhz, int *temp_c)
{
    unsigned v;
    *sm_mhz = *temp_c = -1;
    if (!n)
        return;
    if (n->clock && n->clock(n->dev, NVML_CLOCK_SM, &v) == NVML_SUCCESS)
        *sm_mhz = (int)v;
    if (n->temp && n->temp(n->dev, NVML_TEMPERATURE_GPU, &v) == NVML_SUCCESS)
        *temp_c = (int)v;
}

void ct_nvml_close(ct_nvml *n)
{
    if (!n)
        return;
    if (n->shutdown)
        n->shutdown();
    dlclose(n->lib);
    free(n);
}

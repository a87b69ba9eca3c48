/* compile.c - NVRTC compilation of template instances. */
#include "compile.h"

#include <errno.h>
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "resources.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static ct_status read_file(const char *path, char **text, ct_err *e)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return ct_fail(e, CT_ERR_IO, "template %s: %s", path, strerror(errno));
    if (fseek(f, 0, SEEK_END) != 0) {
        fclose(f);
        return ct_fail(e, CT_ERR_IO, "template %s: cannot seek", path);
    }
    long n = ftell(f);
    rewind(f);
    char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        fclose(f);
        return ct_fail(e, CT_ERR_IO, "template %s: read error", path);
    }
    fclose(f);
    buf[n] = '\0';
    *text = buf;
    return CT_OK;
}

ct_status ct_template_source(const char *name, const char *dir, char **text, ct_err *e)
{
    char path[1024];
    if (dir && *dir) {
        snprintf(path, sizeof path, "%s/%s.cu", dir, name);
        return read_file(path, text, e);
    }
    snprintf(path, sizeof path, "templates/%s.cu", name);
    size_t len = 0;
    const char *data = ct_resource(path, &len);
    if (!data)
        return ct_fail(e, CT_ERR_INTERNAL, "template %s is not built into this binary", name);
    *text = malloc(len + 1);
    if (!*text)
        return ct_fail(e, CT_ERR_INTERNAL, "out of memory");
    memcpy(*text, data, len + 1);
    return CT_OK;
}

void ct_hash_hex(const char *text, char out[17])
{
    unsigned long long h = 1469598103934665603ULL;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        h ^= *p;
        h *= 1099511628211ULL;
    }
    snprintf(out, 17, "%016llx", h);
}

int ct_nvrtc_version(void)
{
    int major = 0, minor = 0;
    if (nvrtcVersion(&major, &minor) != NVRTC_SUCCESS)
        return 0;
    return major * 1000 + minor * 10;
}

void ct_binary_free(ct_binary *b)
{
    free(b->data);
    free(b->log);
    memset(b, 0, sizeof *b);
}

#define NVRTC_TRY(call) do { nvrtcResult r_ = (call); if (r_ != NVRTC_SUCCESS) { \
    rc = ct_fail(e, CT_ERR_COMPILE, "%s: %s", #call, nvrtcGetErrorString(r_)); goto done; } } while (0)

ct_status ct_nvrtc_compile(const char *src, const char *name, const char *arch,
                           const ct_define *defs, int ndefs, const ct_params *params,
                           ct_binary *out, ct_err *e)
{
    memset(out, 0, sizeof *out);
    ct_status rc = CT_OK;
    nvrtcProgram prog = NULL;
    enum { MAXOPT = CT_MAX_DEFINES + CT_MAX_PARAMS + 4 };
    char optbuf[MAXOPT][96];
    const char *opts[MAXOPT];
    int nopt = 0;
    int is_cubin = strncmp(arch, "sm_", 3) == 0;
    if (!is_cubin && strncmp(arch, "compute_", 8) != 0)
        return ct_fail(e, CT_ERR_USAGE, "architecture '%s' must be sm_XY or compute_XY", arch);
    snprintf(optbuf[nopt], sizeof optbuf[0], "--gpu-architecture=%s", arch);
    opts[nopt] = optbuf[nopt];
    nopt++;
    opts[nopt++] = "-std=c++17";
    for (int i = 0; i < ndefs && nopt < MAXOPT; i++, nopt++) {
        snprintf(optbuf[nopt], sizeof optbuf[0], "-D%s=%lld", defs[i].name, defs[i].value);
        opts[nopt] = optbuf[nopt];
    }
    for (int i = 0; params && i < params->n && nopt < MAXOPT; i++, nopt++) {
        snprintf(optbuf[nopt], sizeof optbuf[0], "-D%s=%ld", params->names[i], params->values[i]);
        opts[nopt] = optbuf[nopt];
    }
    double t0 = now_ms();
    NVRTC_TRY(nvrtcCreateProgram(&prog, src, name, 0, NULL, NULL));
    nvrtcResult cr = nvrtcCompileProgram(prog, nopt, opts);
    size_t loglen = 0;
    if (nvrtcGetProgramLogSize(prog, &loglen) == NVRTC_SUCCESS && loglen > 0) {
        out->log = malloc(loglen + 1);
        if (out->log && nvrtcGetProgramLog(prog, out->log) != NVRTC_SUCCESS)
            out->log[0] = '\0';
        if (out->log)
            out->log[loglen] = '\0';
    }
    if (cr != NVRTC_SUCCESS) {
        char first[600] = "";
        if (out->log) {
            snprintf(first, sizeof first, "%s", out->log);
            for (char *p = first; *p; p++)
                if (*p == '\n')
                    *p = ' ';
        }
        rc = ct_fail(e, CT_ERR_COMPILE, "NVRTC: %s: %s", nvrtcGetErrorString(cr), first);
        goto done;
    }
    if (is_cubin) {
        NVRTC_TRY(nvrtcGetCUBINSize(prog, &out->size));
        out->data = malloc(out->size);
        if (!out->data) {
            rc = ct_fail(e, CT_ERR_INTERNAL, "out of memory");
            goto done;
        }
        NVRTC_TRY(nvrtcGetCUBIN(prog, out->data));
    } else {
        NVRTC_TRY(nvrtcGetPTXSize(prog, &out->size));
        out->data = malloc(out->size);
        if (!out->data) {
            rc = ct_fail(e, CT_ERR_INTERNAL, "out of memory");
            goto done;
        }
        NVRTC_TRY(nvrtcGetPTX(prog, out->data));
    }
    out->is_cubin = is_cubin;
    out->compile_ms = now_ms() - t0;
done:
    if (prog)
        nvrtcDestroyProgram(&prog);
    if (rc != CT_OK) {
        free(out->data);
        out->data = NULL;
        out->size = 0;
    }
    return rc;
}

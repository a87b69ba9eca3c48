/* cudnndl.c - dlopen of cuDNN (cudnndl.h). */
#include "cudnndl.h"

#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ct_cudnn lib;
static ct_status load_rc = CT_ERR_INTERNAL;
static ct_err load_err;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* The folder of PyTorch's pip cuDNN (python3's nvidia.cudnn package) into
 * dir; 0 when python3 or the package is absent. stderr is discarded: a
 * failed import is no message of ours. */
static int pip_dir(char *dir, size_t len)
{
    FILE *f = popen("python3 -c 'import nvidia.cudnn as m; print(m.__path__[0])' 2>/dev/null", "r");
    if (!f)
        return 0;
    int ok = fgets(dir, (int)len, f) != NULL;
    pclose(f);
    if (!ok)
        return 0;
    dir[strcspn(dir, "\r\n")] = '\0';
    return dir[0] == '/';
}

/* cuDNN 9 opens its sub-libraries by name when a call first needs them;
 * loaded here first from the folder of the libcudnn.so.9 in use, they are
 * the ones it gets (the loader matches a loaded library by its name), not
 * another copy on the search path or none at all (a pip install's folder
 * is on no search path). Best effort: one that does not load is left to
 * cuDNN, whose call then fails with a status. Two passes, since one may
 * need another that comes later in the list. */
static void preload_subs(const char *dir)
{
    static const char *const subs[] = {
        "libcudnn_graph.so.9", "libcudnn_engines_precompiled.so.9", "libcudnn_engines_runtime_compiled.so.9",
        "libcudnn_engines_tensor_ir.so.9", "libcudnn_ext.so.9", "libcudnn_heuristic.so.9", "libcudnn_ops.so.9",
        "libcudnn_cnn.so.9", "libcudnn_adv.so.9",
        /* a pip install's cuBLAS and NVRTC, which some engines use */
        "../../cublas/lib/libcublasLt.so.12", "../../cublas/lib/libcublas.so.12",
        "../../cuda_nvrtc/lib/libnvrtc.so.12"};
    enum { NSUBS = sizeof subs / sizeof subs[0] };
    int done[NSUBS] = {0};
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < NSUBS; i++) {
            char path[PATH_MAX + 64];
            if (done[i] || snprintf(path, sizeof path, "%s/%s", dir, subs[i]) >= (int)sizeof path)
                continue;
            done[i] = dlopen(path, RTLD_NOW | RTLD_LOCAL) != NULL;   /* kept for the process's life */
        }
}

static void load_once(void)
{
    const char *env = getenv("CONVTUNE_CUDNN");
    void *h = NULL;
    char path[PATH_MAX + 32] = "", why[PATH_MAX + 300] = "";
    if (env && *env) {
        snprintf(path, sizeof path, "%s", env);
        if (!(h = dlopen(path, RTLD_NOW | RTLD_LOCAL)))
            snprintf(why, sizeof why, "cannot load %s ($CONVTUNE_CUDNN): %s", path, dlerror());
    } else {
        if ((h = dlopen("libcudnn.so.9", RTLD_NOW | RTLD_LOCAL)) != NULL) {
            char origin[PATH_MAX];   /* what dlinfo may write */
            if (dlinfo(h, RTLD_DI_ORIGIN, origin) == 0)
                snprintf(path, sizeof path, "%s/libcudnn.so.9", origin);
            else
                snprintf(path, sizeof path, "libcudnn.so.9");
        } else {
            char dir[PATH_MAX];
            if (pip_dir(dir, sizeof dir)) {
                snprintf(path, sizeof path, "%s/lib/libcudnn.so.9", dir);
                h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
            }
            if (!h)
                snprintf(why, sizeof why, "no libcudnn.so.9 on the library path nor in a PyTorch pip install "
                                          "(python3 -c 'import nvidia.cudnn'); set CONVTUNE_CUDNN to its file");
        }
    }
    if (!h) {
        load_rc = ct_fail(&load_err, CT_ERR_NOT_FOUND, "%.900s", why);
        return;
    }
    char dir[sizeof path];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash) {
        *slash = '\0';
        preload_subs(dir);
    }
#define CT_CUDNN_SYM(ret, name, args)                                                                  \
    {                                                                                                  \
        void *fn = dlsym(h, #name);                                                                    \
        if (!fn) {                                                                                     \
            load_rc = ct_fail(&load_err, CT_ERR_NOT_FOUND, "%.900s lacks %s (cuDNN 9 is needed)", path, #name); \
            return;                                                                                    \
        }                                                                                              \
        memcpy(&lib.name, &fn, sizeof fn);                                                             \
    }
    CT_CUDNN_FN(CT_CUDNN_SYM)
#undef CT_CUDNN_SYM
    /* The backend API: optional (the legacy baseline needs none of it). */
    lib.backend = 1;
#define CT_CUDNN_OPT(ret, name, args)                                                                  \
    {                                                                                                  \
        void *fn = dlsym(h, #name);                                                                    \
        lib.backend &= fn != NULL;                                                                     \
        memcpy(&lib.name, &fn, sizeof fn);                                                             \
    }
    CT_CUDNN_BACKEND_FN(CT_CUDNN_OPT)
#undef CT_CUDNN_OPT
    snprintf(lib.path, sizeof lib.path, "%.1000s", path);
    if (lib.cudnnGetVersion() < 90000) {
        char v[16];
        ct_cudnn_version_text(lib.cudnnGetVersion(), v, sizeof v);
        load_rc = ct_fail(&load_err, CT_ERR_NOT_FOUND, "%.900s is cuDNN %s; cuDNN 9 is needed", path, v);
        return;
    }
    load_rc = CT_OK;
}

ct_status ct_cudnn_load(const ct_cudnn **out, ct_err *e)
{
    pthread_once(&once, load_once);
    if (load_rc != CT_OK) {
        if (e)
            *e = load_err;
        return load_rc;
    }
    *out = &lib;
    return CT_OK;
}

void ct_cudnn_version_text(size_t v, char *buf, size_t len)
{
    /* The modulo bounds the major number so the text always fits the
     * callers' 16-byte buffers (cuDNN's own majors are one or two digits). */
    unsigned major = (unsigned)((v >= 90000 ? v / 10000 : v / 1000) % 1000);
    unsigned minor = (unsigned)(v >= 90000 ? v / 100 % 100 : v / 100 % 10);
    snprintf(buf, len, "%u.%u", major, minor);
}

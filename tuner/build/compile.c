/* compile.c - NVRTC compilation of template instances. */
#include "compile.h"

#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nvrtcdl.h"
#include "problem.h"
#include "resources.h"
#include "text.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

ct_status ct_template_read(const char *path, char **text, ct_err *e)
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

/* Where file lies in the kernel folders of a user's template folder
 * (dir/kernels/K/file) into path; 0 when in none. */
static int in_kernel_folders(const char *dir, const char *file, char *path, size_t len)
{
    char pattern[CT_PATH_MAX];
    if ((size_t)snprintf(pattern, sizeof pattern, "%s/kernels/*/%s", dir, file) >= sizeof pattern)
        return 0;
    glob_t g;
    int found = glob(pattern, 0, NULL, &g) == 0 && g.gl_pathc > 0 && strlen(g.gl_pathv[0]) < len;
    if (found)
        memcpy(path, g.gl_pathv[0], strlen(g.gl_pathv[0]) + 1);
    globfree(&g);
    return found;
}

/* One file of the template folder: from dir when given, else embedded. A
 * user's folder may be flat or laid out like templates/ (one folder per
 * family, shared files in common/, a kernel kind's in kernels/K/). The
 * template files the build writes from a kernel kind's stub (docs/ARCHITECTURE.md,
 * "Adding a kernel") are in no source folder: one the user's folder lacks
 * is the built-in one. */
static ct_status load_template_file(const char *file, const char *dir, char **text, ct_err *e)
{
    char path[CT_PATH_MAX];
    size_t len = 0;
    const char *data = ct_resource_template(file, &len);
    if (dir && *dir) {
        char sub[256];
        snprintf(sub, sizeof sub, "/%s", file);   /* a template's own name: short */
        ct_status rc = ct_path_join(path, sizeof path, dir, sub, "--templates", CT_ERR_USAGE, e);
        if (rc != CT_OK)
            return rc;
        const ct_family *const *fams = ct_families();
        int found = access(path, F_OK) == 0;
        for (int i = -1; !found && (i < 0 || fams[i]); i++) {
            char alt[CT_PATH_MAX];
            int n = snprintf(alt, sizeof alt, "%s/%s/%s", dir, i < 0 ? "common" : fams[i]->name, file);
            if (n > 0 && (size_t)n < sizeof alt && access(alt, F_OK) == 0) {
                memcpy(path, alt, (size_t)n + 1);
                found = 1;
            }
        }
        if (!found)
            found = in_kernel_folders(dir, file, path, sizeof path);
        if (found || !data || !ct_resource_generated(file))
            return ct_template_read(path, text, e);   /* not found anywhere: it names the flat path */
    }
    if (!data)
        return ct_fail(e, CT_ERR_INTERNAL, "template file %s is not built into this binary", file);
    *text = malloc(len + 1);
    if (!*text)
        return ct_fail(e, CT_ERR_INTERNAL, "out of memory");
    memcpy(*text, data, len + 1);
    return CT_OK;
}

/* Templates that share code include it with a line `#include "NAME.cuh"`;
 * the line is replaced by that file's text, itself expanded the same way
 * (at most depth files deep, so a cycle is an error, not a hang), so NVRTC
 * needs no include path and an exported file stays standalone. The
 * deepest chain is 5 (conv2dc_tc16g.cu, ct_conv_tc16g.cuh,
 * ct_conv_tc16g_core.cuh, ct_wgmma.cuh, ct_mma16.cuh, ct_dtype.cuh). */
#define CT_INCLUDE_DEPTH 8
static ct_status inline_includes(char **text, const char *dir, int depth, ct_err *e)
{
    static const char key[] = "#include \"";
    char *src = *text;
    size_t cap = strlen(src) + 1, len = 0;
    char *out = malloc(cap);
    if (!out)
        return ct_fail(e, CT_ERR_INTERNAL, "out of memory");
    const char *line = src;
    while (*line) {
        const char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) + 1 : strlen(line);
        char *body = NULL;
        const char *piece = line;
        size_t plen = n;
        if (strncmp(line, key, sizeof key - 1) == 0) {
            const char *name = line + sizeof key - 1, *q = memchr(name, '"', n - (sizeof key - 1));
            if (q && q - name > 4 && q - name < 200 && strncmp(q - 4, ".cuh", 4) == 0) {
                char file[256];
                snprintf(file, sizeof file, "%.*s", (int)(q - name), name);
                ct_status rc = depth <= 0 ? ct_fail(e, CT_ERR_USAGE, "template include %s: nested too deep", file)
                                          : load_template_file(file, dir, &body, e);
                if (rc == CT_OK && (rc = inline_includes(&body, dir, depth - 1, e)) != CT_OK) {
                    free(body);   /* a failed expansion leaves its text to the caller */
                    body = NULL;
                }
                if (rc != CT_OK) {
                    free(out);
                    return rc;
                }
                piece = body;
                plen = strlen(body);
            }
        }
        if (len + plen + 1 > cap) {
            cap = 2 * (len + plen + 1);
            char *grown = realloc(out, cap);
            if (!grown) {
                free(body);
                free(out);
                return ct_fail(e, CT_ERR_INTERNAL, "out of memory");
            }
            out = grown;
        }
        memcpy(out + len, piece, plen);
        len += plen;
        free(body);
        line += n;
    }
    out[len] = '\0';
    free(src);
    *text = out;
    return CT_OK;
}

/* The file a template's code is in: that of the template its source names
 * (ct_template.source, a kernel folded into one source for every element
 * type), else its own. Not a template's name (ct_ceilings, a test's): its
 * own. */
static const char *source_name(const char *name)
{
    const ct_family *const *fams = ct_families();
    for (int i = 0; fams[i]; i++) {
        const ct_template *t = ct_template_find(fams[i], name);
        if (t)
            return t->source ? t->source : name;
    }
    return name;
}

ct_status ct_template_source(const char *name, const char *dir, char **text, ct_err *e)
{
    char file[256];
    if ((size_t)snprintf(file, sizeof file, "%s.cu", source_name(name)) >= sizeof file)
        return ct_fail(e, CT_ERR_USAGE, "template name %s is too long", name);
    ct_status rc = load_template_file(file, dir, text, e);
    if (rc == CT_OK && (rc = inline_includes(text, dir, CT_INCLUDE_DEPTH, e)) != CT_OK) {
        free(*text);
        *text = NULL;
    }
    return rc;
}

ct_status ct_template_legacy_source(const char *name, const char *hash, const char *dir, char **text, ct_err *e)
{
    char file[300], path[1400];
    *text = NULL;
    if ((size_t)snprintf(file, sizeof file, "%s-%s.cu", name, hash) >= sizeof file)
        return ct_fail(e, CT_ERR_USAGE, "template name %s is too long", name);
    ct_status rc = CT_ERR_NOT_FOUND;
    if (dir && *dir && (size_t)snprintf(path, sizeof path, "%s/legacy/%s", dir, file) < sizeof path &&
        access(path, F_OK) == 0)
        rc = ct_template_read(path, text, e);
    size_t len = 0;
    const char *data = rc == CT_OK ? NULL : ct_resource_template(file, &len);
    if (data && (*text = malloc(len + 1)) != NULL) {
        memcpy(*text, data, len + 1);
        rc = CT_OK;
    }
    char got[17];
    if (rc == CT_OK) {
        ct_hash_hex(*text, got);
        if (strcmp(got, hash) != 0) {   /* a mislabelled file judges nothing */
            free(*text);
            *text = NULL;
            rc = CT_ERR_NOT_FOUND;
        }
    }
    return rc == CT_OK ? CT_OK : ct_fail(e, rc, "no earlier text of template %s with hash %s", name, hash);
}

/* Adds the hash of file (its last path component) when it is
 * name-HASH.cu, HASH 16 hex digits, and not listed yet. */
static int add_legacy_hash(const char *file, const char *name, char (*out)[17], int n, int max)
{
    const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
    size_t nl = strlen(name);
    if (n >= max || strncmp(base, name, nl) != 0 || base[nl] != '-' || strlen(base + nl + 1) != 19 ||
        strcmp(base + nl + 17, ".cu") != 0 || strspn(base + nl + 1, "0123456789abcdef") != 16)
        return n;
    for (int i = 0; i < n; i++)
        if (strncmp(out[i], base + nl + 1, 16) == 0)
            return n;
    memcpy(out[n], base + nl + 1, 16);
    out[n][16] = '\0';
    return n + 1;
}

int ct_template_legacy_hashes(const char *name, const char *dir, char (*out)[17], int max)
{
    int n = 0;
    if (dir && *dir) {
        char pattern[1400];
        glob_t g;
        if ((size_t)snprintf(pattern, sizeof pattern, "%s/legacy/%s-*.cu", dir, name) < sizeof pattern &&
            glob(pattern, 0, NULL, &g) == 0) {
            for (size_t i = 0; i < g.gl_pathc; i++)
                n = add_legacy_hash(g.gl_pathv[i], name, out, n, max);
            globfree(&g);
        }
    }
    for (const ct_resource_entry *r = ct_resource_table; r->path; r++)
        if (strncmp(r->path, "templates/legacy/", 17) == 0)
            n = add_legacy_hash(r->path, name, out, n, max);
    return n;
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

ct_status ct_family_sources_load(const ct_family *f, const char *dir, ct_family_sources *out, ct_err *e)
{
    memset(out, 0, sizeof *out);
    const size_t n = f->ntemplates > 0 ? (size_t)f->ntemplates : 1;
    out->text = calloc(n, sizeof *out->text);
    out->hash = calloc(n, sizeof *out->hash);
    if (!out->text || !out->hash) {
        ct_family_sources_free(out);
        return ct_fail(e, CT_ERR_INTERNAL, "out of memory");
    }
    out->n = f->ntemplates;
    for (int i = 0; i < f->ntemplates; i++) {
        ct_status rc = ct_template_source(f->templates[i].name, dir, &out->text[i], e);
        if (rc != CT_OK) {
            ct_family_sources_free(out);
            return rc;
        }
        ct_hash_hex(out->text[i], out->hash[i]);
    }
    return CT_OK;
}

void ct_family_sources_free(ct_family_sources *s)
{
    for (int i = 0; s->text && i < s->n; i++)
        free(s->text[i]);
    free(s->text);
    free(s->hash);
    memset(s, 0, sizeof *s);
}

int ct_nvrtc_version(void)
{
    int major = 0, minor = 0;
    const ct_nvrtc *nv = NULL;
    if (ct_nvrtc_load(&nv, NULL) != CT_OK || nv->version(&major, &minor) != NVRTC_SUCCESS)
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
    rc = ct_fail(e, CT_ERR_COMPILE, "%s: %s", #call, nv->error_string(r_)); goto done; } } while (0)

const char *ct_arch_target(const char *arch, char *buf, size_t n)
{
    const int plain = strcmp(arch, "sm_90") == 0 || strcmp(arch, "compute_90") == 0;
    snprintf(buf, n, "%s%s", arch, plain ? "a" : "");
    return buf;
}

const char *ct_arch_nvcc(const char *arch, char *buf, size_t n)
{
    char t[32];
    ct_arch_target(arch, t, sizeof t);
    if (strcmp(t, arch) == 0 || strncmp(t, "sm_", 3) != 0)
        snprintf(buf, n, "-arch=%s", t);
    else
        snprintf(buf, n, "-gencode=arch=compute_%s,code=%s", t + 3, t);
    return buf;
}

ct_status ct_nvrtc_compile(const char *src, const char *name, const char *arch,
                           const ct_define *defs, int ndefs, const ct_params *params,
                           ct_binary *out, ct_err *e)
{
    memset(out, 0, sizeof *out);
    const ct_nvrtc *nv = NULL;
    ct_status rc = ct_nvrtc_load(&nv, e);
    if (rc != CT_OK)
        return rc;
    nvrtcProgram prog = NULL;
    enum { MAXOPT = CT_MAX_DEFINES + CT_MAX_PARAMS + 5 };
    char optbuf[MAXOPT][96];
    const char *opts[MAXOPT];
    int nopt = 0;
    int is_cubin = strncmp(arch, "sm_", 3) == 0;
    if (!is_cubin && strncmp(arch, "compute_", 8) != 0)
        return ct_fail(e, CT_ERR_USAGE, "architecture '%s' must be sm_XY or compute_XY",
                       ct_echo(arch, (char[CT_ECHO_LEN]){0}, CT_ECHO_LEN));
    char target[32];
    snprintf(optbuf[nopt], sizeof optbuf[0], "--gpu-architecture=%s", ct_arch_target(arch, target, sizeof target));
    opts[nopt] = optbuf[nopt];
    nopt++;
    opts[nopt++] = "-std=c++17";
    /* Templates inline their own headers; only the half types' headers come
     * from the toolkit, so the folder matters to bf16 and f16 problems. */
    char incdir[CT_PATH_MAX + 16], home_inc[CT_PATH_MAX];
    const char *home = getenv("CUDA_HOME");
    ct_status hs;
    if (home && *home && (hs = ct_path_join(home_inc, sizeof home_inc, home, "/include", "CUDA_HOME", CT_ERR_USAGE,
                                            e)) != CT_OK)
        return hs;   /* a cut path would read another toolkit's headers */
    snprintf(incdir, sizeof incdir, "-I%s", home && *home ? home_inc : CT_CUDA_INCLUDE_DIR);
    opts[nopt++] = incdir;
    for (int i = 0; i < ndefs && nopt < MAXOPT; i++, nopt++) {
        snprintf(optbuf[nopt], sizeof optbuf[0], "-D%s=%lld", defs[i].name, defs[i].value);
        opts[nopt] = optbuf[nopt];
    }
    for (int i = 0; params && i < params->n && nopt < MAXOPT; i++, nopt++) {
        snprintf(optbuf[nopt], sizeof optbuf[0], "-D%s=%ld", params->names[i], params->values[i]);
        opts[nopt] = optbuf[nopt];
    }
    double t0 = now_ms();
    NVRTC_TRY(nv->create(&prog, src, name, 0, NULL, NULL));
    nvrtcResult cr = nv->compile(prog, nopt, opts);
    size_t loglen = 0;
    if (nv->log_size(prog, &loglen) == NVRTC_SUCCESS && loglen > 0) {
        out->log = malloc(loglen + 1);
        if (out->log && nv->log(prog, out->log) != NVRTC_SUCCESS)
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
        rc = ct_fail(e, CT_ERR_COMPILE, "NVRTC: %s: %s", nv->error_string(cr), first);
        goto done;
    }
    if (is_cubin) {
        NVRTC_TRY(nv->cubin_size(prog, &out->size));
        out->data = malloc(out->size);
        if (!out->data) {
            rc = ct_fail(e, CT_ERR_INTERNAL, "out of memory");
            goto done;
        }
        NVRTC_TRY(nv->cubin(prog, out->data));
    } else {
        NVRTC_TRY(nv->ptx_size(prog, &out->size));
        out->data = malloc(out->size);
        if (!out->data) {
            rc = ct_fail(e, CT_ERR_INTERNAL, "out of memory");
            goto done;
        }
        NVRTC_TRY(nv->ptx(prog, out->data));
    }
    out->is_cubin = is_cubin;
    out->compile_ms = now_ms() - t0;
done:
    if (prog)
        nv->destroy(&prog);
    if (rc != CT_OK) {
        free(out->data);
        out->data = NULL;
        out->size = 0;
    }
    return rc;
}

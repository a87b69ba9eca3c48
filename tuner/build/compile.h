/* compile.h - template sources and their NVRTC compilation.
 *
 * A candidate's source is its template file, unchanged; the problem sizes
 * and the tuning parameters are -D macros, so the same text is what
 * `export` writes out with #defines in front. */
#ifndef CT_COMPILE_H
#define CT_COMPILE_H

#include <stddef.h>

#include "params.h"
#include "problem.h"
#include "status.h"

/* Load templates/NAME.cu from dir (when not NULL) or from the copy embedded
 * in the binary, with its `#include "X.cuh"` lines replaced by those files
 * from the same place. *text is malloc'ed. */
ct_status ct_template_source(const char *name, const char *dir, char **text, ct_err *e);

/* An earlier version of template name, the one whose expanded text has
 * ct_hash_hex hash: templates/legacy/NAME-HASH.cu (from dir when given and
 * there, else embedded), kept when a refactor changes a template's text so
 * that results stored with only that hash (before code hashes) are judged
 * on the code it generated (codehash.h). CT_ERR_NOT_FOUND when there is
 * none or its text does not have that hash. *text is malloc'ed. */
ct_status ct_template_legacy_source(const char *name, const char *hash, const char *dir, char **text, ct_err *e);

/* The hashes of every kept earlier text of template name
 * (templates/legacy/NAME-HASH.cu, in dir/legacy or built in), each once, at
 * most max of them; their number. */
int ct_template_legacy_hashes(const char *name, const char *dir, char (*out)[17], int max);

/* The file at path, whole, as one NUL-terminated text (a template folder's
 * file, read as it is: no include replaced). *text is malloc'ed. */
ct_status ct_template_read(const char *path, char **text, ct_err *e);

/* 16 hex digits of a 64-bit FNV-1a hash of text (templates' content hash). */
void ct_hash_hex(const char *text, char out[17]);

/* The sources of every template of a family, indexed as its templates
 * (ct_template_index), and their hashes: sized by the family, so that a
 * family may have any number of templates. */
typedef struct ct_family_sources {
    int n;
    char **text;          /* text[i]: templates[i]'s source (ct_template_source) */
    char (*hash)[17];     /* hash[i]: ct_hash_hex(text[i]) */
} ct_family_sources;

/* Load f's templates from dir (NULL: the embedded copies) into out; on
 * failure out holds nothing. Free with ct_family_sources_free. */
ct_status ct_family_sources_load(const ct_family *f, const char *dir, ct_family_sources *out, ct_err *e);
void ct_family_sources_free(ct_family_sources *s);

typedef struct ct_binary {
    char *data;          /* CUBIN or NUL-terminated PTX */
    size_t size;
    int is_cubin;
    char *log;           /* NVRTC log, NUL-terminated, may be empty */
    double compile_ms;
} ct_binary;

/* The target a kernel is built for on arch ("sm_XY" or "compute_XY"):
 * the architecture-specific one where the device has it (sm_90 -> sm_90a,
 * for wgmma), whose code runs on exactly the devices of the plain one, so
 * that every template may use it; otherwise arch. Written into buf. */
const char *ct_arch_target(const char *arch, char *buf, size_t n);

/* The nvcc option that builds device code for sm_XY's target: "-arch=sm_XY",
 * or for an architecture-specific one the -gencode form
 * ("-gencode=arch=compute_90a,code=sm_90a"), because nvcc 13.0 given
 * -arch=sm_90a also runs a plain sm_90 pass that refuses wgmma. */
const char *ct_arch_nvcc(const char *arch, char *buf, size_t n);

/* Compile src (program name: name) for arch "sm_XY" (CUBIN) or
 * "compute_XY" (PTX), its ct_arch_target, with the given macros. On a compile error the return
 * is CT_ERR_COMPILE with the first lines of the log in e and the whole log
 * in out->log. */
ct_status ct_nvrtc_compile(const char *src, const char *name, const char *arch,
                           const ct_define *defs, int ndefs, const ct_params *params,
                           ct_binary *out, ct_err *e);
void ct_binary_free(ct_binary *b);

/* NVRTC version as major*1000 + minor*10 (CUDA's convention). */
int ct_nvrtc_version(void);

#endif

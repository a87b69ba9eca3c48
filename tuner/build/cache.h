/* cache.h - compiled candidates on disk, keyed by everything that decides
 * the binary: template source, program name, architecture, macros and the
 * NVRTC version. A second run, a resume or an export compiles nothing it
 * has compiled before. Entries are written atomically; a damaged or foreign
 * entry is a miss, never an error. */
#ifndef CT_CACHE_H
#define CT_CACHE_H

#include "compile.h"

/* $CONVTUNE_CACHE, else $XDG_CACHE_HOME/convtune/cubin (an absolute
 * XDG_CACHE_HOME only: the XDG spec says a relative one is ignored), else
 * $HOME/.cache/convtune/cubin. A path that does not fit in len is
 * CT_ERR_USAGE ("path too long"), never cut; none of the three set is
 * CT_ERR_IO. */
ct_status ct_cache_default_dir(char *buf, size_t len, ct_err *e);

/* 32 hex digits identifying one compilation. */
void ct_cache_key(const char *src, const char *name, const char *arch, const ct_define *defs, int ndefs,
                  const ct_params *params, int nvrtc_version, char key[33]);

/* 1 and out filled (CUBIN) on a hit, 0 on a miss. */
int ct_cache_get(const char *dir, const char *key, ct_binary *out);

/* Store a CUBIN, atomically and safely beside concurrent writers (other
 * processes, other hosts on a shared filesystem): 0 when stored, -1 when not
 * (the temporary is removed). A tuning run ignores a failure, which only
 * costs a later recompile; precompile reports it. Temporaries are named
 * ".KEY.HOST.PID." CT_CACHE_TMP_TAG "XXXXXX" in dir, removed on SIGINT,
 * SIGTERM, SIGHUP and SIGPIPE; the first put of a process into dir removes
 * those of this host's processes that no longer exist (killed outright),
 * never another host's. */
#define CT_CACHE_TMP_TAG "tmp"
int ct_cache_put(const char *dir, const char *key, const ct_binary *b);

/* A fact kept beside the binaries, as an empty file KEY.TAG written as
 * atomically as a binary (ct_cache_put): 1 when it is there. The PTX
 * judgements of stored results keep their "same code" verdicts so
 * (codehash.c). ct_cache_put_mark: 0 when stored, -1 when not. */
int ct_cache_has_mark(const char *dir, const char *key, const char *tag);
int ct_cache_put_mark(const char *dir, const char *key, const char *tag);

#endif

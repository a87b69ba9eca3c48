/* codehash.h - the identity of the code a stored result measured.
 *
 * A result is judged on the code generated for its problem and parameters,
 * not on its template file's bytes: the code hash covers the fully expanded
 * source (ct_template_source) in a canonical form (comments gone, blanks
 * normalised, the conditionals known for its macros resolved), the
 * problem's and the parameters' #defines (sorted by name; a parameter
 * added to its template later only away from its default, params.h)
 * and the launch geometry, i.e. everything `export` writes for it except
 * the comments. A refactor of a shared .cuh that leaves that text unchanged
 * (comments, layout, line breaks) keeps every stored result; a change in the
 * tokens of the code, a define or the geometry orphans it. See the comment
 * in codehash.c for what is and is not normalised, and why not the PTX. */
#ifndef CT_CODEHASH_H
#define CT_CODEHASH_H

#include "codepp.h"
#include "params.h"
#include "problem.h"
#include "result.h"
#include "status.h"

/* The canonical form of an expanded template source: comments removed,
 * line splices joined, each preprocessor directive on its own line with
 * single blanks between its tokens, other code on lines between them with
 * blanks kept only where two tokens would otherwise join. *out is
 * malloc'ed. */
ct_status ct_code_canonical(const char *src, char **out, ct_err *e);

/* The digest of a text: what ct_code_hash combines with the defines. */
void ct_code_source_digest(const char *text, char out[17]);

/* The code hash (16 hex digits) from source_digest, the digest of the
 * resolved canonical source, the problem's defines, the parameters and
 * the launch geometry. Order of the defines does not matter. */
void ct_code_hash(const char *source_digest, const ct_define *defs, int ndefs, const ct_params *c,
                  const ct_launch *l, char out[17]);

/* The code hash of candidate (p, t, c) from its template's canonical
 * source (ct_code_canonical, once per template): the conditionals resolved
 * for its macros (codepp.h), its problem's defines and its geometry from
 * p's family (what the runner launches it with and `export` writes). */
ct_status ct_code_candidate_hash(const char *canonical, const ct_problem *p, const ct_template *t,
                                 const ct_params *c, char out[17], ct_err *e);

/* The same from the template's expanded source text
 * (not canonical), the geometry taken from p's family: for one-off checks
 * (export, tests). */
ct_status ct_code_hash_of(const char *src, const ct_problem *p, const ct_template *t, const ct_params *c,
                          char out[17], ct_err *e);

/* Whether stored result rec measured the code that candidate (p, t, c)
 * gets now: code_hash (ct_code_hash) from the template's expanded text,
 * whose ct_hash_hex is text_hash. On rec's code hash when it has one. A
 * result stored before code hashes existed is judged on its template hash
 * while that is text_hash; else, when the template's text of that hash is
 * kept (ct_template_legacy_source, from dir or built in), on the code hash
 * that text gives the candidate. When the hashes differ but that text is
 * kept (and gives rec's code hash, where rec has one), or, when rec's own
 * text is not kept but rec has a code hash, when another kept text of the
 * template gives that code hash, the last word is the compiler's: the kept
 * text and today's are compiled for rec's problem, parameters and
 * architecture (compute_XY of its device) and the record
 * stands when the PTX is identical (ct_code_same_ptx). That fallback, two
 * to six NVRTC compiles, happens only there, once per judged record; a
 * judgement by hash compiles nothing. *same is 1 or 0; the return is an error only
 * when memory runs out. */
ct_status ct_code_judge(const ct_result *rec, const char *text_hash, const char *code_hash, const ct_problem *p,
                        const ct_template *t, const ct_params *c, const char *dir, int *same, ct_err *e);

/* Whether sources a and b, given candidate (p, t, c)'s defines, compile
 * with NVRTC for arch ("compute_XY") to the same PTX, the header comment
 * lines NVRTC writes (its version) left out. Each compile runs in a child
 * process of its own; the PTX of one text varies from compile to compile,
 * so up to three compiles of each side are made before a difference is
 * believed (codehash.c). A compile error is returned. */
ct_status ct_code_same_ptx(const char *a, const char *b, const ct_problem *p, const ct_template *t,
                           const ct_params *c, const char *arch, int *same, ct_err *e);

#endif

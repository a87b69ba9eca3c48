/* result.c - the candidate record's statuses, field table and helpers. */
#include "result.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dtype.h"
#include "problem.h"

static const char *const status_names[CT_RS_COUNT] = {
#define CT_RS_NAME_(id, text) [id] = text,
    CT_RESULT_STATUSES(CT_RS_NAME_)
#undef CT_RS_NAME_
};

const char *ct_result_status_name(ct_result_status s)
{
    return s >= 0 && s < CT_RS_COUNT ? status_names[s] : "";
}

int ct_result_status_parse(const char *text, ct_result_status *out)
{
    for (int i = 0; text && i < CT_RS_COUNT; i++)
        if (strcmp(text, status_names[i]) == 0) {
            *out = (ct_result_status)i;
            return 1;
        }
    return 0;
}

const char *ct_result_status_list(void)
{
    static char list[256];
    if (!list[0]) {
        size_t n = 0;
        for (int i = 0; i < CT_RS_COUNT; i++)
            n += (size_t)snprintf(list + n, sizeof list - n, "%s%s",
                                  i == 0 ? "" : i + 1 == CT_RS_COUNT ? " or " : ", ", status_names[i]);
    }
    return list;
}

const ct_result_field ct_result_fields[] = {
#define CT_FIELD_(group, type, m, n, name, sql) \
    {(#group)[0], CT_F_##type, name, sql, offsetof(ct_result, m), sizeof(((ct_result *)0)->m)},
    CT_RESULT_FIELDS(CT_FIELD_)
#undef CT_FIELD_
};

const int ct_result_nfields = (int)(sizeof ct_result_fields / sizeof ct_result_fields[0]);

int ct_field_is_text(ct_field_type t)
{
    return t == CT_F_STR || t == CT_F_NAME || t == CT_F_STR_NULL || t == CT_F_TIME || t == CT_F_TIME_NULL ||
           t == CT_F_OBJ || t == CT_F_OBJ_NULL;
}

int ct_field_is_int(ct_field_type t)
{
    return t == CT_F_INT || t == CT_F_INT_NULL || t == CT_F_COUNT_NULL;
}

int ct_field_nullable(ct_field_type t)
{
    return t == CT_F_STR_NULL || t == CT_F_TIME_NULL || t == CT_F_INT_NULL || t == CT_F_COUNT_NULL || t == CT_F_REAL_NULL ||
           t == CT_F_POS_NULL || t == CT_F_OBJ_NULL;
}

int ct_field_optional(const ct_result_field *f)
{
    static const char *const later[] = {"tc_half_tflops", "code_hash", "ci_lo_us", "ci_hi_us", "timing", "batch"};
    for (size_t i = 0; i < sizeof later / sizeof later[0]; i++)
        if (!strcmp(f->name, later[i]))
            return 1;
    return 0;
}

static ct_dtype result_dtype(const ct_result *r)
{
    ct_problem p;
    return ct_problem_parse(r->problem, &p, NULL) == CT_OK ? ct_problem_dtype(&p) : CT_DTYPE_F32;
}

double ct_result_peak_tflops(const ct_result *r)
{
    return ct_dtype_peak_tflops(result_dtype(r), r->fma_tflops, r->tc_half_tflops);
}

const char *ct_result_peak_name(const ct_result *r)
{
    return result_dtype(r) == CT_DTYPE_F32 ? "FMA" : "tensor-core";
}

static void set_absent(ct_result *r, const ct_result_field *f)
{
    if (ct_field_is_text(f->type))
        ct_field_text(r, f)[0] = '\0';
    else if (ct_field_is_int(f->type))
        *ct_field_int(r, f) = -1;
    else if (f->type == CT_F_STATUS)
        *ct_field_status(r, f) = CT_RS_UNSET;
    else
        *ct_field_real(r, f) = NAN;
}

void ct_result_init(ct_result *r)
{
    memset(r, 0, sizeof *r);
    for (int i = 0; i < ct_result_nfields; i++)
        set_absent(r, &ct_result_fields[i]);
    r->cond.sm_mhz[0] = r->cond.sm_mhz[1] = r->cond.temp_c[0] = r->cond.temp_c[1] = -1;
}

void ct_result_clear_measured(ct_result *r)
{
    for (int i = 0; i < ct_result_nfields; i++)
        if (ct_result_fields[i].group == 'M')
            set_absent(r, &ct_result_fields[i]);
}

void ct_result_take_measured(ct_result *dst, const ct_result *src)
{
    for (int i = 0; i < ct_result_nfields; i++) {
        const ct_result_field *f = &ct_result_fields[i];
        if (f->group == 'M')
            memcpy((char *)dst + f->off, (const char *)src + f->off, f->size);
    }
    dst->cond = src->cond;
}

void ct_result_set_params(ct_result *r, const ct_params *c)
{
    r->params = *c;
    r->params_ok = 1;
}

ct_status ct_result_read_params(ct_result *r, ct_err *e)
{
    r->params_ok = 0;
    const ct_family *fam = ct_family_find(r->family);
    const ct_template *t = fam ? ct_template_find(fam, r->tmpl) : NULL;
    if (!t)
        return ct_fail(e, CT_ERR_NOT_FOUND, "template %s of the stored result for %s is not in this convtune",
                       r->tmpl, r->problem);
    ct_status st = ct_params_from_json(r->params_json, t->params, t->nparams, &r->params, e);
    r->params_ok = st == CT_OK;
    return st;
}

ct_status ct_result_params_text(const ct_result *r, char *buf, size_t len, ct_err *e)
{
    if (r->params_json[0] || !r->params_ok) {
        if ((size_t)snprintf(buf, len, "%s", r->params_json[0] ? r->params_json : "{}") >= len)
            return ct_fail(e, CT_ERR_INTERNAL, "parameters of %s too long", r->tmpl);
        return CT_OK;
    }
    const ct_family *fam = ct_family_find(r->family);
    const ct_template *t = fam ? ct_template_find(fam, r->tmpl) : NULL;
    if (!t)
        return ct_fail(e, CT_ERR_INTERNAL, "no template %s in family '%s'", r->tmpl, r->family);
    if (ct_params_to_json(&r->params, t->params, t->nparams, buf, len) != CT_OK)
        return ct_fail(e, CT_ERR_INTERNAL, "parameters of %s too long", r->tmpl);
    return CT_OK;
}

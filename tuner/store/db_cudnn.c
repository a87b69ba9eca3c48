/* db_cudnn.c - the stored vendor baseline (db_cudnn.h). */
#include "db_cudnn.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "db_internal.h"
#include "json.h"

static void clear(ct_cudnn_stored *o)
{
    memset(o, 0, sizeof *o);
    o->us = o->relerr = o->tf32_us = o->tf32_relerr = NAN;
}

/* A positive number member, NaN when absent, null or not a number. */
static double pos(const ct_json *c, const char *key)
{
    const ct_json *v = ct_json_get(c, key);
    return v && v->type == CT_JSON_NUMBER && v->number > 0 ? v->number : NAN;
}

static double nonneg(const ct_json *c, const char *key)
{
    const ct_json *v = ct_json_get(c, key);
    return v && v->type == CT_JSON_NUMBER && v->number >= 0 ? v->number : NAN;
}

static void text(const ct_json *c, const char *key, char *dst, size_t len)
{
    const ct_json *v = ct_json_get(c, key);
    snprintf(dst, len, "%s", v && v->type == CT_JSON_STRING ? v->str : "");
}

int ct_cudnn_stored_parse(const char *settings, ct_cudnn_stored *o)
{
    clear(o);
    ct_json *j = NULL;
    if (!settings || !*settings || ct_json_parse(settings, strlen(settings), &j, NULL) != CT_OK)
        return 0;
    const ct_json *c = ct_json_get(j, "cudnn");
    int noted = c && c->type == CT_JSON_OBJECT;
    if (noted) {
        o->us = pos(c, "us");
        o->relerr = nonneg(c, "relerr");
        o->tf32_us = pos(c, "tf32_us");
        o->tf32_relerr = nonneg(c, "tf32_relerr");
        o->have = o->us > 0 || o->tf32_us > 0;
        text(c, "version", o->version, sizeof o->version);
        text(c, "timing", o->timing, sizeof o->timing);
        text(c, "none", o->none, sizeof o->none);
        if (!o->have && !o->none[0])
            snprintf(o->none, sizeof o->none, "not timed");
    }
    ct_json_free(j);
    return noted;
}

double ct_cudnn_stored_us(const ct_cudnn_stored *o)
{
    return o->us > 0 ? o->us : NAN;
}

const char *ct_cudnn_stored_none(const ct_cudnn_stored *o, char *buf, size_t len)
{
    if (o->none[0])
        snprintf(buf, len, "no cuDNN baseline stored (%s)", o->none);
    else
        snprintf(buf, len, "no cuDNN baseline stored");
    return buf;
}

/* Newest first: the first timed note wins; the first note at all gives the
 * reason when none is timed. */
static const char sql_cudnn[] =
    "SELECT r.settings, r.started_at FROM runs r JOIN problems p ON p.id = r.problem_id"
    " JOIN devices d ON d.id = r.device_id"
    " WHERE p.canonical = ?1 AND d.name = ?2 AND r.settings IS NOT NULL"
    "   AND json_type(r.settings, '$.cudnn') = 'object'"
    " ORDER BY r.started_at DESC, r.id DESC";

ct_status ct_db_cudnn(ct_db *db, const char *problem, const char *device, ct_cudnn_stored *o, ct_err *e)
{
    ct_status st = CT_OK;
    sqlite3_stmt *s = NULL;
    char reason[sizeof o->none] = "";
    int rc, first = 1;

    clear(o);
    if (!db || !problem || !device)
        return ct_fail(e, CT_ERR_INTERNAL, "DB: cuDNN baseline without a problem or device");
    db_lock(db);
    SQL(db->h, sqlite3_prepare_v2(db->h, sql_cudnn, -1, &s, NULL), SQLITE_OK);
    SQL(db->h, sqlite3_bind_text(s, 1, problem, -1, SQLITE_TRANSIENT), SQLITE_OK);
    SQL(db->h, sqlite3_bind_text(s, 2, device, -1, SQLITE_TRANSIENT), SQLITE_OK);
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        ct_cudnn_stored one;
        if (!ct_cudnn_stored_parse((const char *)sqlite3_column_text(s, 0), &one))
            continue;
        if (one.have) {
            *o = one;
            snprintf(o->run_started_at, sizeof o->run_started_at, "%s", (const char *)sqlite3_column_text(s, 1));
            break;
        }
        if (first)
            snprintf(reason, sizeof reason, "%s", one.none);
        first = 0;
    }
    if (rc != SQLITE_ROW)
        SQL(db->h, rc, SQLITE_DONE);
    if (!o->have)
        snprintf(o->none, sizeof o->none, "%s", reason);
done:
    sqlite3_finalize(s);
    db_unlock(db);
    return st;
}

/* dbio.c - JSON and CSV files of stored records (dbio.h). One table of
 * fields drives writing and reading in both formats. */
#include "dbio.h"

#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "params.h"
#include "problem.h"

#include "dbio_internal.h"

#define dbio_fields ct_result_fields
typedef ct_result_field field;

ct_status ct_dbio_format_parse(const char *text, ct_dbio_format *out, ct_err *e)
{
    if (text && !strcmp(text, "json")) {
        *out = CT_DBIO_JSON;
        return CT_OK;
    }
    if (text && !strcmp(text, "csv")) {
        *out = CT_DBIO_CSV;
        return CT_OK;
    }
    return ct_fail(e, CT_ERR_USAGE, "unknown format '%s' (use json or csv)", text ? text : "");
}

/* ------------------------------------------------------------------------ */
/* Reading                                                                  */

typedef struct csv_record {
    char **cells;
    int line;
} csv_record;

struct ct_dbio_input {
    ct_dbio_format fmt;
    char *name;
    char *text;
    size_t len;
    long n;
    /* JSON */
    ct_json *root;
    const ct_json *records;
    /* CSV */
    csv_record *recs;
    int ncols;
    int col_of[DBIO_MAX_FIELDS];   /* column of each field */
};

/* Up to 40 bytes of s for a message, control characters as '?'. */
static const char *clip(const char *s, char *buf, size_t len)
{
    size_t o = 0;
    for (; *s && o + 4 < len && o < 40; s++)
        buf[o++] = (unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s;
    if (*s && o + 4 <= len) {
        memcpy(buf + o, "...", 3);
        o += 3;
    }
    buf[o] = '\0';
    return buf;
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* YYYY-MM-DDTHH:MM:SSZ, as the database writes timestamps. */
static int is_timestamp(const char *s)
{
    static const char pat[] = "dddd-dd-ddTdd:dd:ddZ";
    if (strlen(s) != sizeof pat - 1)
        return 0;
    for (size_t i = 0; pat[i]; i++)
        if (pat[i] == 'd' ? !is_digit(s[i]) : s[i] != pat[i])
            return 0;
    int mo = (s[5] - '0') * 10 + (s[6] - '0'), d = (s[8] - '0') * 10 + (s[9] - '0');
    int h = (s[11] - '0') * 10 + (s[12] - '0'), mi = (s[14] - '0') * 10 + (s[15] - '0');
    int se = (s[17] - '0') * 10 + (s[18] - '0');
    return mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && h <= 23 && mi <= 59 && se <= 60;
}

/* Store text for fd in r; 0 with why filled when it does not fit the
 * field's type. */
static int set_text(ct_result *r, const field *fd, const char *s, size_t n, char *why, size_t wlen)
{
    if (memchr(s, '\0', n)) {
        snprintf(why, wlen, "contains a NUL byte");
        return 0;
    }
    if (n >= fd->size) {
        snprintf(why, wlen, "is longer than %zu bytes", fd->size - 1);
        return 0;
    }
    if (fd->type == CT_F_NAME && n == 0) {
        snprintf(why, wlen, "must not be empty");
        return 0;
    }
    char *dst = ct_field_text(r, fd);
    memcpy(dst, s, n);
    dst[n] = '\0';
    if ((fd->type == CT_F_TIME || (fd->type == CT_F_TIME_NULL && n)) && !is_timestamp(dst)) {
        char b[64];
        snprintf(why, wlen, "'%s' is not a time in the form YYYY-MM-DDTHH:MM:SSZ", clip(dst, b, sizeof b));
        return 0;
    }
    return 1;
}

/* The params object s[0, n) (valid JSON) without the white space outside
 * its strings: an indented object (jq, Python) then fits the field as the
 * compact one does, and check_row writes it in canonical form. */
static int set_params_text(ct_result *r, const field *fd, const char *s, size_t n, char *why, size_t wlen)
{
    char *compact = malloc(n + 1);
    size_t o = 0;
    int in_str = 0;
    if (!compact) {
        snprintf(why, wlen, "out of memory");
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (in_str) {
            compact[o++] = c;
            if (c == '\\' && i + 1 < n)
                compact[o++] = s[++i];
            else if (c == '"')
                in_str = 0;
        } else if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
            compact[o++] = c;
            in_str = c == '"';
        }
    }
    int ok = set_text(r, fd, compact, o, why, wlen);
    free(compact);
    return ok;
}

/* Store a parsed number; 0 with why when it does not fit. */
static int set_number(ct_result *r, const field *fd, const ct_json *v, char *why, size_t wlen)
{
    if (ct_field_is_int(fd->type)) {
        if (!v->is_integer || v->integer < (fd->type == CT_F_INT ? INT_MIN : 0) || v->integer > INT_MAX) {
            snprintf(why, wlen, "expected an integer%s", fd->type != CT_F_INT ? " >= 0 or null" : "");
            return 0;
        }
        *ct_field_int(r, fd) = (int)v->integer;
    } else {
        *ct_field_real(r, fd) = v->number;
    }
    return 1;
}

/* A status from its text; 0 with why when it is none of the list. */
static int set_status(ct_result *r, const field *fd, const char *s, size_t n, char *why, size_t wlen)
{
    char b[64];
    if (n == 0) {
        snprintf(why, wlen, "must not be empty");
        return 0;
    }
    if (memchr(s, '\0', n) || !ct_result_status_parse(s, ct_field_status(r, fd))) {
        snprintf(why, wlen, "unknown status '%s' (expected %s)", clip(s, b, sizeof b), ct_result_status_list());
        return 0;
    }
    return 1;
}

static void set_absent(ct_result *r, const field *fd)
{
    if (ct_field_is_text(fd->type))
        ct_field_text(r, fd)[0] = '\0';
    else if (ct_field_is_int(fd->type))
        *ct_field_int(r, fd) = -1;
    else
        *ct_field_real(r, fd) = NAN;
}

#define nullable ct_field_nullable

static const char *expected(ct_field_type t)
{
    switch (t) {
    case CT_F_STR:
    case CT_F_NAME:
    case CT_F_STATUS:
        return "a string";
    case CT_F_STR_NULL:
        return "a string or null";
    case CT_F_TIME:
        return "a time string";
    case CT_F_TIME_NULL:
        return "a time string or null";
    case CT_F_INT:
        return "an integer";
    case CT_F_INT_NULL:
    case CT_F_COUNT_NULL:
        return "an integer or null";
    case CT_F_REAL:
        return "a number";
    case CT_F_REAL_NULL:
    case CT_F_POS_NULL:
        return "a number or null";
    case CT_F_OBJ:
        return "a JSON object";
    case CT_F_OBJ_NULL:
        return "a JSON object or null";
    }
    return "?";
}

/* Field fd from a JSON value of the text. */
static int from_json(ct_result *r, const field *fd, const ct_json *v, const char *text, char *why, size_t wlen)
{
    if (v->type == CT_JSON_NULL && nullable(fd->type)) {
        set_absent(r, fd);
        return 1;
    }
    int ok;
    switch (fd->type) {
    case CT_F_STR:
    case CT_F_NAME:
    case CT_F_STR_NULL:
    case CT_F_TIME:
    case CT_F_TIME_NULL:
        ok = v->type == CT_JSON_STRING;
        if (ok)
            return set_text(r, fd, v->str, v->n, why, wlen);
        break;
    case CT_F_STATUS:
        ok = v->type == CT_JSON_STRING;
        if (ok)
            return set_status(r, fd, v->str, v->n, why, wlen);
        break;
    case CT_F_INT:
    case CT_F_INT_NULL:
    case CT_F_COUNT_NULL:
    case CT_F_REAL:
    case CT_F_REAL_NULL:
    case CT_F_POS_NULL:
        ok = v->type == CT_JSON_NUMBER;
        if (ok)
            return set_number(r, fd, v, why, wlen);
        break;
    default:
        ok = v->type == CT_JSON_OBJECT;
        if (ok && !strcmp(fd->name, "params"))
            return set_params_text(r, fd, text + v->start, v->end - v->start, why, wlen);
        if (ok)
            return set_text(r, fd, text + v->start, v->end - v->start, why, wlen);
        break;
    }
    snprintf(why, wlen, "expected %s, got %s", expected(fd->type), v->type == CT_JSON_NULL ? "null"
             : v->type == CT_JSON_BOOL ? "a boolean" : v->type == CT_JSON_NUMBER ? "a number"
             : v->type == CT_JSON_STRING ? "a string" : v->type == CT_JSON_ARRAY ? "an array" : "an object");
    return 0;
}

/* Field fd from a CSV cell: empty is absent; numbers and objects are read
 * with the JSON reader, so their grammar is the same in both formats. */
static int from_cell(ct_result *r, const field *fd, const char *cell, char *why, size_t wlen)
{
    size_t n = strlen(cell);
    if (n == 0 && nullable(fd->type)) {
        set_absent(r, fd);
        return 1;
    }
    if (fd->type == CT_F_STR || fd->type == CT_F_NAME || fd->type == CT_F_STR_NULL || fd->type == CT_F_TIME ||
        fd->type == CT_F_TIME_NULL)
        return set_text(r, fd, cell, n, why, wlen);
    if (fd->type == CT_F_STATUS)
        return set_status(r, fd, cell, n, why, wlen);
    if (n == 0) {
        snprintf(why, wlen, "is empty (expected %s)", expected(fd->type));
        return 0;
    }
    ct_json *v = NULL;
    ct_err je;
    if (ct_json_parse(cell, n, &v, &je) != CT_OK) {
        char b[64];
        snprintf(why, wlen, "'%s' is not %s", clip(cell, b, sizeof b), expected(fd->type));
        return 0;
    }
    int ok = from_json(r, fd, v, cell, why, wlen);
    ct_json_free(v);
    return ok;
}

/* The checks beyond types, on a whole record; 0 with why filled. */
static int check_row(ct_result *r, char *why, size_t wlen)
{
    char b[64];
    if (r->status == CT_RS_OK && isnan(r->median_us)) {
        snprintf(why, wlen, "field 'median_us': a record with status ok needs a time");
        return 0;
    }
    for (int i = 0; i < NFIELDS; i++) {
        const field *fd = &dbio_fields[i];
        int pos = fd->type == CT_F_POS_NULL;
        if (fd->type != CT_F_REAL && fd->type != CT_F_REAL_NULL && !pos)
            continue;
        double v = *ct_field_real(r, fd);
        if (!isnan(v) && (pos ? v <= 0 : v < 0)) {
            snprintf(why, wlen, "field '%s': %g is out of range (must be %s)", fd->name, v, pos ? "> 0" : ">= 0");
            return 0;
        }
    }
    for (int i = 0; i < NFIELDS; i++)
        if (dbio_fields[i].type == CT_F_COUNT_NULL && *ct_field_int(r, &dbio_fields[i]) == 0) {
            snprintf(why, wlen, "field '%s': must be > 0 or null", dbio_fields[i].name);
            return 0;
        }
    if (r->cc_major < 0 || r->cc_minor < 0 || r->sm_count < 0) {
        snprintf(why, wlen, "fields 'cc_major', 'cc_minor' and 'sm_count' must not be negative");
        return 0;
    }
    if (r->driver_version < 0) {
        snprintf(why, wlen, "field 'driver_version': %d is out of range (must be >= 0)", r->driver_version);
        return 0;
    }
    const ct_family *fam = ct_family_find(r->family);
    if (!fam) {
        snprintf(why, wlen, "field 'family': unknown family '%s'", clip(r->family, b, sizeof b));
        return 0;
    }
    size_t fl = strlen(r->family);
    if (strncmp(r->problem, r->family, fl) != 0 || r->problem[fl] != ':') {
        char b2[64];
        snprintf(why, wlen, "field 'problem': '%s' is not a problem of family '%s'", clip(r->problem, b, sizeof b),
                 clip(r->family, b2, sizeof b2));
        return 0;
    }
    ct_problem p;
    ct_err pe;
    if (ct_problem_parse(r->problem, &p, &pe) != CT_OK || strcmp(p.canonical, r->problem) != 0) {
        snprintf(why, wlen, "field 'problem': '%s' is not a canonical %s problem", clip(r->problem, b, sizeof b),
                 r->family);
        return 0;
    }
    /* The parameters are those the template declares, each in its declared
     * range (integers, or symbols where it names its values): a record that
     * export could not turn into a kernel must not become a winner. (The
     * family's constraints are not applied: they change from version to
     * version, and a candidate admissible when it was tuned stays a true
     * record of what was measured.) */
    const ct_template *t = ct_template_find(fam, r->tmpl);
    if (!t) {
        snprintf(why, wlen, "field 'template': %s has no template '%s'", fam->name, clip(r->tmpl, b, sizeof b));
        return 0;
    }
    ct_params params;
    if (ct_params_from_json(r->params_json, t->params, t->nparams, &params, &pe) != CT_OK) {
        snprintf(why, wlen, "field 'params': %s: %.300s", t->name, pe.msg);
        return 0;
    }
    /* Stored in the one form convtune writes (declaration order, compact,
     * symbols by name), so a file a tool reformatted (indentation, key
     * order) matches the records it came from and imports nothing new. */
    if (ct_params_to_json(&params, t->params, t->nparams, r->params_json, sizeof r->params_json) != CT_OK) {
        snprintf(why, wlen, "field 'params': too long for its field");
        return 0;
    }
    ct_result_set_params(r, &params);
    return 1;
}

int ct_dbio_check_record(ct_result *r, char *why, size_t wlen)
{
    return check_row(r, why, wlen);
}

/* Record i of the input into r, checked; CT_ERR_USAGE naming the record. */
static ct_status convert(const ct_dbio_input *in, long i, ct_result *r, ct_err *e)
{
    char why[400] = "";
    int line;
    ct_result_init(r);
    if (in->fmt == CT_DBIO_JSON) {
        const ct_json *rec = in->records->items[i];
        line = rec->line;
        if (rec->type != CT_JSON_OBJECT)
            return ct_fail(e, CT_ERR_USAGE, "%s: record %ld (line %d): expected an object, got %s", in->name, i + 1,
                           line, ct_json_type_name(rec->type));
        for (size_t k = 0; k < rec->n; k++) {
            int known = 0;
            for (int f = 0; f < NFIELDS && !known; f++)
                known = !strcmp(rec->keys[k], dbio_fields[f].name);
            if (!known) {
                char b[64];
                return ct_fail(e, CT_ERR_USAGE, "%s: record %ld (line %d): unknown field '%s'", in->name, i + 1,
                               rec->items[k]->line, clip(rec->keys[k], b, sizeof b));
            }
        }
        for (int f = 0; f < NFIELDS; f++) {
            const ct_json *v = ct_json_get(rec, dbio_fields[f].name);
            if (!v && ct_field_optional(&dbio_fields[f]))
                continue;   /* absent, as ct_result_init left it */
            if (!v)
                return ct_fail(e, CT_ERR_USAGE, "%s: record %ld (line %d): missing field '%s'", in->name, i + 1, line,
                               dbio_fields[f].name);
            if (!from_json(r, &dbio_fields[f], v, in->text, why, sizeof why))
                return ct_fail(e, CT_ERR_USAGE, "%s: record %ld (line %d): field '%s': %s", in->name, i + 1, v->line,
                               dbio_fields[f].name, why);
        }
    } else {
        const csv_record *rec = &in->recs[i];
        line = rec->line;
        for (int f = 0; f < NFIELDS; f++)
            if (in->col_of[f] >= 0 && !from_cell(r, &dbio_fields[f], rec->cells[in->col_of[f]], why, sizeof why))
                return ct_fail(e, CT_ERR_USAGE, "%s: record %ld (line %d): field '%s': %s", in->name, i + 1, line,
                               dbio_fields[f].name, why);
    }
    if (!check_row(r, why, sizeof why))
        return ct_fail(e, CT_ERR_USAGE, "%s: record %ld (line %d): %s", in->name, i + 1, line, why);
    return CT_OK;
}

static ct_status parse_json(ct_dbio_input *in, ct_err *e)
{
    ct_err je;
    if (ct_json_parse(in->text, in->len, &in->root, &je) != CT_OK)
        return ct_fail(e, CT_ERR_USAGE, "%s: not valid JSON: %s", in->name, je.msg + strlen("JSON: "));
    const ct_json *root = in->root;
    if (root->type != CT_JSON_OBJECT)
        return ct_fail(e, CT_ERR_USAGE, "%s: not a convtune database export (expected a JSON object with "
                       "\"format\": \"%s\")", in->name, FORMAT_NAME);
    const ct_json *fmt = ct_json_get(root, "format"), *ver = ct_json_get(root, "version");
    if (!fmt || fmt->type != CT_JSON_STRING || strcmp(fmt->str, FORMAT_NAME) != 0)
        return ct_fail(e, CT_ERR_USAGE, "%s: not a convtune database export (\"format\" is not \"%s\")", in->name,
                       FORMAT_NAME);
    if (!ver || !ver->is_integer || ver->integer < 1)
        return ct_fail(e, CT_ERR_USAGE, "%s: \"version\" must be a positive integer", in->name);
    if (ver->integer > FORMAT_VERSION)
        return ct_fail(e, CT_ERR_USAGE, "%s: written by a newer convtune (format version %lld; this one reads %d)",
                       in->name, ver->integer, FORMAT_VERSION);
    for (size_t k = 0; k < root->n; k++) {
        const char *key = root->keys[k];
        if (strcmp(key, "format") && strcmp(key, "version") && strcmp(key, "convtune") && strcmp(key, "records")) {
            char b[64];
            return ct_fail(e, CT_ERR_USAGE, "%s: line %d: unknown key '%s'", in->name, root->items[k]->line,
                           clip(key, b, sizeof b));
        }
    }
    in->records = ct_json_get(root, "records");
    if (!in->records || in->records->type != CT_JSON_ARRAY)
        return ct_fail(e, CT_ERR_USAGE, "%s: \"records\" must be an array", in->name);
    in->n = (long)in->records->n;
    return CT_OK;
}

/* RFC 4180 records into in->recs (the header is record 0, then removed). */
static ct_status parse_csv(ct_dbio_input *in, ct_err *e)
{
    const char *t = in->text;
    size_t len = in->len, pos = 0, cap = 0;
    int line = 1;
    long nrec = 0;
    csv_record *recs = NULL;
    char *cell = malloc(len + 1);
    ct_status st = CT_OK;
    if (!cell)
        return ct_fail(e, CT_ERR_INTERNAL, "out of memory");
    while (pos < len && st == CT_OK) {
        csv_record rec = {.cells = NULL, .line = line};
        int ncells = 0;
        for (;;) {
            size_t o = 0;
            if (t[pos] == '"') {
                int start_line = line;
                pos++;
                for (;;) {
                    if (pos >= len) {
                        st = ct_fail(e, CT_ERR_USAGE, "%s: line %d: a quoted field is not closed", in->name,
                                     start_line);
                        break;
                    }
                    if (t[pos] == '"') {
                        if (pos + 1 < len && t[pos + 1] == '"') {
                            cell[o++] = '"';
                            pos += 2;
                            continue;
                        }
                        pos++;
                        break;
                    }
                    if (t[pos] == '\n')
                        line++;
                    cell[o++] = t[pos++];
                }
                if (st == CT_OK && pos < len && t[pos] != ',' && t[pos] != '\n' && t[pos] != '\r')
                    st = ct_fail(e, CT_ERR_USAGE, "%s: line %d: text after the closing quote of a field", in->name,
                                 line);
            } else {
                while (pos < len && t[pos] != ',' && t[pos] != '\n' && t[pos] != '\r') {
                    if (t[pos] == '"') {
                        st = ct_fail(e, CT_ERR_USAGE, "%s: line %d: a quote inside an unquoted field", in->name,
                                     line);
                        break;
                    }
                    cell[o++] = t[pos++];
                }
            }
            if (st == CT_OK && memchr(cell, '\0', o))
                st = ct_fail(e, CT_ERR_USAGE, "%s: line %d: a NUL byte in a field", in->name, line);
            char **cells = st == CT_OK ? realloc(rec.cells, (size_t)(ncells + 1) * sizeof *cells) : NULL;
            char *copy = cells ? malloc(o + 1) : NULL;
            if (cells)
                rec.cells = cells;
            if (!copy) {
                if (st == CT_OK)
                    st = ct_fail(e, CT_ERR_INTERNAL, "out of memory");
                break;
            }
            memcpy(copy, cell, o);
            copy[o] = '\0';
            rec.cells[ncells++] = copy;
            if (pos < len && t[pos] == ',') {
                pos++;
                continue;
            }
            if (pos < len && t[pos] == '\r') {
                if (pos + 1 >= len || t[pos + 1] != '\n') {
                    st = ct_fail(e, CT_ERR_USAGE, "%s: line %d: a CR that does not end a line", in->name, line);
                    break;
                }
                pos++;
            }
            if (pos < len && t[pos] == '\n') {
                pos++;
                line++;
            }
            break;
        }
        if (st == CT_OK && nrec > 0 && ncells != in->ncols)
            st = ct_fail(e, CT_ERR_USAGE, "%s: line %d: %d fields, the header has %d", in->name, rec.line, ncells,
                         in->ncols);
        if (st == CT_OK && (size_t)nrec == cap) {
            size_t ncap = cap ? 2 * cap : 64;
            csv_record *grown = realloc(recs, ncap * sizeof *grown);
            if (!grown)
                st = ct_fail(e, CT_ERR_INTERNAL, "out of memory");
            else {
                recs = grown;
                cap = ncap;
            }
        }
        if (st != CT_OK) {
            for (int c = 0; c < ncells; c++)
                free(rec.cells[c]);
            free(rec.cells);
            break;
        }
        if (nrec == 0)
            in->ncols = ncells;
        recs[nrec++] = rec;
    }
    free(cell);
    /* A file whose first line does not even read as CSV is something else. */
    if (st == CT_ERR_USAGE && nrec == 0 && e) {
        char rest[sizeof e->msg];
        size_t skip = strlen(in->name) + 2;
        snprintf(rest, sizeof rest, "%s", strlen(e->msg) > skip ? e->msg + skip : e->msg);
        ct_fail(e, st, "%s: not a convtune database export (JSON or CSV): %s", in->name, rest);
    }
    /* the header */
    if (st == CT_OK && nrec == 0)
        st = ct_fail(e, CT_ERR_USAGE, "%s: empty file (expected a JSON or CSV database export)", in->name);
    if (st == CT_OK) {
        for (int f = 0; f < NFIELDS; f++)
            in->col_of[f] = -1;
        for (int c = 0; c < in->ncols && st == CT_OK; c++) {
            const char *h = recs[0].cells[c];
            int f = 0;
            while (f < NFIELDS && strcmp(dbio_fields[f].name, h) != 0)
                f++;
            char b[64];
            if (f == NFIELDS)
                st = ct_fail(e, CT_ERR_USAGE, "%s: not a convtune database export (JSON or CSV): line 1: unknown "
                             "column '%s'",
                             in->name, clip(h, b, sizeof b));
            else if (in->col_of[f] >= 0)
                st = ct_fail(e, CT_ERR_USAGE, "%s: line 1: column '%s' appears twice", in->name, h);
            else
                in->col_of[f] = c;
        }
        for (int f = 0; f < NFIELDS && st == CT_OK; f++)
            if (in->col_of[f] < 0 && !ct_field_optional(&dbio_fields[f]))
                st = ct_fail(e, CT_ERR_USAGE, "%s: line 1: missing column '%s'", in->name, dbio_fields[f].name);
    }
    /* keep the records after the header */
    if (nrec > 0) {
        for (int c = 0; c < in->ncols; c++)
            free(recs[0].cells[c]);
        free(recs[0].cells);
        memmove(recs, recs + 1, (size_t)(nrec - 1) * sizeof *recs);
        nrec--;
    }
    in->recs = recs;
    in->n = nrec;
    return st;
}

void ct_dbio_free(ct_dbio_input *in)
{
    if (!in)
        return;
    ct_json_free(in->root);
    for (long i = 0; in->recs && i < in->n; i++) {
        for (int c = 0; c < in->ncols; c++)
            free(in->recs[i].cells[c]);
        free(in->recs[i].cells);
    }
    free(in->recs);
    free(in->text);
    free(in->name);
    free(in);
}

ct_status ct_dbio_parse(const char *text, size_t len, const char *name, const ct_dbio_format *format,
                        ct_dbio_input **out, ct_err *e)
{
    *out = NULL;
    /* A UTF-8 byte order mark (Excel's "CSV UTF-8", some editors' JSON) is
     * no part of the text: skipped before the format is told, as the INI
     * reader skips it. */
    if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3)) {
        text += 3;
        len -= 3;
    }
    ct_dbio_input *in = calloc(1, sizeof *in);
    if (!in || !(in->name = strdup(name ? name : "(input)")) || !(in->text = malloc(len + 1))) {
        ct_dbio_free(in);
        return ct_fail(e, CT_ERR_INTERNAL, "out of memory");
    }
    memcpy(in->text, text, len);
    in->text[len] = '\0';
    in->len = len;
    if (format) {
        in->fmt = *format;
    } else {
        size_t i = 0;
        while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n'))
            i++;
        in->fmt = i < len && (text[i] == '{' || text[i] == '[') ? CT_DBIO_JSON : CT_DBIO_CSV;
    }
    ct_status st = in->fmt == CT_DBIO_JSON ? parse_json(in, e) : parse_csv(in, e);
    /* Check every record now, before any database is touched. */
    ct_result *r = st == CT_OK ? malloc(sizeof *r) : NULL;
    if (st == CT_OK && !r)
        st = ct_fail(e, CT_ERR_INTERNAL, "out of memory");
    for (long i = 0; st == CT_OK && i < in->n; i++)
        st = convert(in, i, r, e);
    free(r);
    if (st != CT_OK) {
        ct_dbio_free(in);
        return st;
    }
    *out = in;
    return CT_OK;
}

long ct_dbio_count(const ct_dbio_input *in)
{
    return in ? in->n : 0;
}

typedef struct source {
    const ct_dbio_input *in;
    long next;
} source;

static ct_status next_row(void *user, ct_result *row, int *have, ct_err *e)
{
    source *s = user;
    *have = 0;
    if (s->next >= s->in->n)
        return CT_OK;
    ct_status st = convert(s->in, s->next, row, e);
    if (st != CT_OK)
        return st;
    s->next++;
    *have = 1;
    return CT_OK;
}

ct_status ct_dbio_import(ct_db *db, const ct_dbio_input *in, long *imported, long *skipped, ct_err *e)
{
    if (!in)
        return ct_fail(e, CT_ERR_INTERNAL, "import without input");
    source s = {.in = in, .next = 0};
    ct_status st = ct_db_import(db, next_row, &s, imported, skipped, e);
    /* Name the file in a database-side failure ("record 3 (...): ..."). */
    if (st != CT_OK && e && !strncmp(e->msg, "record ", 7)) {
        char why[sizeof e->msg];
        snprintf(why, sizeof why, "%s", e->msg);
        ct_fail(e, st, "%s: %s", in->name, why);
    }
    return st;
}

/* test_bad_sweep.c - a generated sweep of bad input over every command, as
 * an outside probe would run it (issue 34 asked for at least 300 of the
 * project's own): problem strings with each size field replaced by a bad
 * value and with bad tokens, every option of every command given twice,
 * without its value and to commands that do not take it, broken INI files,
 * malformed database imports (JSON and CSV), and paths that cannot be
 * used. Where test_cli_refuse pins the exact message of a hand-picked row,
 * this one holds every generated case to the common contract: a documented
 * refusal code (2, 3, 5, 6 or 7: never 0, never an internal error, never
 * the GPU check's 4, since each is refused before a GPU is looked for),
 * exactly one stderr line starting "convtune: " and at most 400 bytes long
 * (a long or multi-line input is echoed cut and escaped), nothing on stdout,
 * and the work directory unchanged. It prints the counts. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "check.h"
#include "db.h"
#include "export_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define CT_CLI_TEST_NAME "bad_sweep"
#include "cli_common.h"

#define MAX_LINE 400

static int ncases, nclean;

/* One generated case: args NULL-terminated ("{W}" is the work directory). */
static void sweep(const char *const *args)
{
    char cmd[8192];
    char *before = snapshot(work);
    result r;
    run_ct(args, &r, cmd, sizeof cmd);
    char *after = snapshot(work);
    const int code_ok = r.code == 2 || r.code == 3 || r.code == 5 || r.code == 6 || r.code == 7;
    const int one_line = r.errlen > 1 && count_char(r.err, r.errlen, '\n') == 1 && r.err[r.errlen - 1] == '\n';
    const int prefix = !strncmp(r.err, "convtune: ", 10);
    const int short_line = r.errlen <= MAX_LINE;
    const int same = !strcmp(before, after);
    ncases++;
    if (code_ok && one_line && prefix && short_line && r.outlen == 0 && same)
        nclean++;
    CHECK_MSG(code_ok, "%.600s: exit %d; stderr: %.600s", cmd, r.code, r.err);
    CHECK_MSG(one_line && prefix, "%.600s: stderr is not one 'convtune: ' line: [%.600s]", cmd, r.err);
    CHECK_MSG(short_line, "%.600s: a stderr line of %zu bytes", cmd, r.errlen);
    CHECK_MSG(r.outlen == 0, "%.600s: stdout not empty: [%.300s]", cmd, r.out);
    CHECK_MSG(same, "%.600s: the work directory changed:\n--- before\n%s--- after\n%s", cmd, before, after);
    free(before);
    free(after);
    result_free(&r);
}

/* ------------------------------------------------------------------------ */
/* Problem strings                                                          */

/* Valid problems, each with the number of size fields after the family. */
static const struct {
    const char *spec;
    int nsizes;
} bases[] = {
    {"conv1d:1000:31", 2},
    {"conv1d:4096:7:same:f16", 2},
    {"conv1dc:2:8:64:16:3", 5},
    {"conv1dc:2:8:64:16:3:pad=1:bias:nlc:bf16", 5},
    {"conv2d:2:64:64:5:5:same", 5},
    {"conv2dc:2:3:32:32:8:3:3:same:bias", 7},
    {"conv2dc:4:64:28:28:64:3:3:same:nhwc:f16", 7},
};
#define NBASES (int)(sizeof bases / sizeof bases[0])

/* Not a size: zero, negative, words, empty, fractions, overflow, hex. */
static const char *const bad_sizes[] = {"0", "-1", "abc", "", "1.5", "99999999999999999999999", "1e999", "0x10",
                                        "12abc", " 7"};

/* Tokens no problem takes, or takes only once, or not together. */
static const char *const bad_tokens[] = {
    ":zzz", ":bias:bias", ":same:valid", ":pad=-1", ":stride=0", ":dilation=0", ":groups=0", ":groups=5",
    ":pad=", ":=3", ":stride=1:stride=2", ":f16:bf16", ":f32x", ":nhwc:nchw", ":", "::", ":dilation=99999",
};

/* spec with its field f (0 the family) replaced by value. */
static void replace_field(const char *spec, int f, const char *value, char *out, size_t len)
{
    size_t o = 0;
    int field = 0;
    for (const char *p = spec; *p && o + 1 < len; p++) {
        if (*p == ':') {
            field++;
            out[o++] = ':';
            if (field == f)
                for (const char *v = value; *v && o + 1 < len; v++)
                    out[o++] = *v;
            continue;
        }
        if (field != f)
            out[o++] = *p;
    }
    out[o] = '\0';
}

static void sweep_problems(void)
{
    char spec[300];
    for (int b = 0; b < NBASES; b++) {
        for (int f = 1; f <= bases[b].nsizes; f++)
            for (size_t v = 0; v < sizeof bad_sizes / sizeof bad_sizes[0]; v++) {
                replace_field(bases[b].spec, f, bad_sizes[v], spec, sizeof spec);
                sweep((const char *const[]){"space", "--problem", spec, NULL});
            }
        /* the last size missing; the family misspelt */
        replace_field(bases[b].spec, bases[b].nsizes, "", spec, sizeof spec);
        char *gap = strstr(spec, "::");
        if (gap)
            memmove(gap, gap + 1, strlen(gap));
        else if (spec[strlen(spec) - 1] == ':')
            spec[strlen(spec) - 1] = '\0';
        sweep((const char *const[]){"space", "--problem", spec, NULL});
        snprintf(spec, sizeof spec, "X%s", bases[b].spec);
        sweep((const char *const[]){"space", "--problem", spec, NULL});
    }
    /* Bad tokens after a layer of each family with every option. */
    static const char *const hosts[] = {"conv1dc:2:8:64:16:3", "conv2dc:2:4:32:32:8:3:3"};
    for (int h = 0; h < 2; h++)
        for (size_t t = 0; t < sizeof bad_tokens / sizeof bad_tokens[0]; t++) {
            snprintf(spec, sizeof spec, "%s%s", hosts[h], bad_tokens[t]);
            sweep((const char *const[]){"space", "--problem", spec, NULL});
        }
    /* Layouts on families without one, shapes that give no output, a
     * dilated filter longer than its input, control characters. */
    static const char *const odd[] = {
        "conv1d:100:3:same:nlc", "conv2d:1:64:64:3:3:same:nhwc", "conv1d:3:5", "conv2d:1:4:4:5:5",
        "conv1dc:1:1:3:1:3:dilation=2", "conv1dc:1:4:8:4:3:dilation=5", "conv2dc:1:1:4:4:1:3:3:dilation=3",
        "conv1d:10:3\nsame", "conv1d:10:3\tsame", "conv1d:10:3:same\r", "CONV1D:10:3", "conv1d", "conv1d:",
        "", ":", "conv1dc:2:8:64:16:3:groups=3", "conv2dc:2:4:32:32:8:3:3:groups=4:nhwc:groups=4",
        "conv1dc:2:8:64:16:3:causal:pad=1", "conv2dc:2:4:32:32:8:3:3:pad=9", "conv1d:1000:31:valid:valid",
    };
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++)
        sweep((const char *const[]){"space", "--problem", odd[i], NULL});
    /* Very long: many digits, many tokens. */
    static char digits[100010], tokens[20000];
    memcpy(digits, "conv1d:", 7);
    memset(digits + 7, '1', 100000);
    memcpy(digits + 100007, ":3", 3);
    sweep((const char *const[]){"space", "--problem", digits, NULL});
    size_t o = (size_t)snprintf(tokens, sizeof tokens, "conv1dc:2:8:64:16:3");
    while (o + 6 < sizeof tokens)
        o += (size_t)snprintf(tokens + o, sizeof tokens - o, ":bias");
    sweep((const char *const[]){"space", "--problem", tokens, NULL});
}

/* ------------------------------------------------------------------------ */
/* Options                                                                  */

/* A command with arguments that make it valid, and the options it takes
 * with a value each (NULL for a flag). Options meant to repeat (compile's
 * --param, report's --problem) are left out of the "given twice" cases. */
typedef struct command {
    const char *args[8];
    const char *opts[12][2];
} command;

static const command commands[] = {
    {{"space", "--problem", "conv1d:1000:31", NULL}, {{"--arch", "sm_90"}, {"--list", NULL}}},
    {{"compile", "--problem", "conv1d:1000:31", "--arch", "sm_90", NULL},
     {{"-o", "{W}/k.cubin"}, {"--template", "conv1d_naive"}, {"--force", NULL}}},
    {{"precompile", "--problem", "conv1d:1000:31", "--arch", "sm_90", NULL},
     {{"--shard", "0/2"}, {"--budget", "4"}, {"--strategy", "random"}, {"--seed", "3"}}},
    {{"query", "--db", "{W}/good.db", NULL},
     {{"--problem", "conv1d:3000:37:same"}, {"--device", "NVIDIA"}, {"--family", "conv1d"}, {"--format", "json"},
      {"--all", NULL}}},
    {{"export", "--problem", "conv1d:3000:37:same", "--db", "{W}/good.db", NULL},
     {{"-o", "{W}/k.cu"}, {"--device", "NVIDIA"}, {"--force", NULL}, {"--torch", NULL}}},
    {{"report", "--db", "{W}/good.db", NULL},
     {{"-o", "{W}/r.html"}, {"--family", "conv1d"}, {"--device", "NVIDIA"}, {"--format", "html"},
      {"--force", NULL}}},
    {{"db", "export", "--db", "{W}/good.db", NULL}, {{"-o", "{W}/d.json"}, {"--format", "csv"}, {"--force", NULL}}},
    {{"db", "check", "--db", "{W}/good.db", NULL}, {{NULL, NULL}}},
    {{"retime", "--problem", "conv1d:3000:37:same", "--db", "{W}/good.db", NULL}, {{"--top", "3"}, {"--gpu", "0"}}},
    {{"--problem", "conv1d:1000:31", "--db", "{W}/t.db", NULL},
     {{"--gpu", "0"}, {"--time", "10"}, {"--budget", "20"}, {"--strategy", "random"}, {"--seed", "2"},
      {"--json", NULL}, {"--template", "conv1d_naive"}}},
};
#define NCOMMANDS (int)(sizeof commands / sizeof commands[0])

/* Options only some commands take, to give to every other. */
static const char *const foreign[][2] = {
    {"--arch", "sm_90"}, {"--gpu", "0"}, {"-o", "{W}/x.out"}, {"--force", NULL}, {"--list", NULL},
    {"--torch", NULL}, {"--top", "2"}, {"--shard", "0/2"}, {"--param", "BLOCK_SIZE=64"}, {"--all", NULL},
};

/* cmd's arguments then extra (NULL-terminated) into argv. */
static void with(const command *c, const char *const *extra, const char **argv)
{
    int n = 0;
    for (int i = 0; c->args[i]; i++)
        argv[n++] = c->args[i];
    for (int i = 0; extra[i]; i++)
        argv[n++] = extra[i];
    argv[n] = NULL;
}

static int takes(const command *c, const char *opt)
{
    /* compile takes --param, left out of its opts only because it repeats */
    if (!strcmp(opt, "--param") && !strcmp(c->args[0], "compile"))
        return 1;
    for (int i = 0; i < 12 && c->opts[i][0]; i++)
        if (!strcmp(c->opts[i][0], opt))
            return 1;
    for (int i = 0; c->args[i]; i++)
        if (!strcmp(c->args[i], opt))
            return 1;
    return 0;
}

static void sweep_options(void)
{
    const char *argv[MAX_ARGS];
    for (int c = 0; c < NCOMMANDS; c++) {
        const command *cm = &commands[c];
        with(cm, (const char *const[]){"--bogus", NULL}, argv);
        sweep(argv);
        with(cm, (const char *const[]){"stray", NULL}, argv);
        sweep(argv);
        for (int i = 0; i < 12 && cm->opts[i][0]; i++) {
            const char *o = cm->opts[i][0], *v = cm->opts[i][1];
            /* given twice, with the same value */
            with(cm, v ? (const char *const[]){o, v, o, v, NULL} : (const char *const[]){o, o, NULL}, argv);
            sweep(argv);
            if (v) {   /* its value missing */
                with(cm, (const char *const[]){o, NULL}, argv);
                sweep(argv);
            }
        }
        /* the command's own first option given twice */
        for (int i = 0; cm->args[i]; i++)
            if (!strncmp(cm->args[i], "--", 2) && cm->args[i + 1]) {
                with(cm, (const char *const[]){cm->args[i], cm->args[i + 1], NULL}, argv);
                sweep(argv);
                break;
            }
        for (size_t f = 0; f < sizeof foreign / sizeof foreign[0]; f++) {
            if (takes(cm, foreign[f][0]))
                continue;
            with(cm, foreign[f][1] ? (const char *const[]){foreign[f][0], foreign[f][1], NULL}
                                   : (const char *const[]){foreign[f][0], NULL},
                 argv);
            sweep(argv);
        }
    }
    /* Values out of their range. */
    static const char *const bad_values[][12] = {
        {"space", "--problem", "conv1d:1000:31", "--arch", "sm_99x"},
        {"space", "--problem", "conv1d:1000:31", "--arch", ""},
        {"space", "--problem", "conv1d:1000:31", "--arch", "sm_10"},
        {"compile", "--problem", "conv1d:1000:31", "--arch", "sm_90", "--param", "BLOCK_SIZE=abc"},
        {"compile", "--problem", "conv1d:1000:31", "--arch", "sm_90", "--param", "NOPE=1"},
        {"compile", "--problem", "conv1d:1000:31", "--arch", "sm_90", "--param", "BLOCK_SIZE"},
        {"compile", "--problem", "conv1d:1000:31", "--arch", "sm_90", "--template", "conv2dc_simt"},
        {"compile", "--problem", "conv1d:1000:31:bf16", "--arch", "sm_90", "--template", "conv1d_tiled"},
        {"precompile", "--problem", "conv1d:1000:31", "--arch", "sm_90", "--shard", "2/2"},
        {"precompile", "--problem", "conv1d:1000:31", "--arch", "sm_90", "--shard", "0/0"},
        {"precompile", "--problem", "conv1d:1000:31", "--arch", "sm_90", "--shard", "a/b"},
        {"precompile", "--problem", "conv1d:1000:31", "--arch", "sm_90", "--budget", "-4"},
        {"precompile", "--problem", "conv1d:1000:31", "--arch", "sm_90", "--strategy", "magic"},
        {"query", "--db", "{W}/good.db", "--format", "xml"},
        {"query", "--db", "{W}/good.db", "--family", "conv9d"},
        {"query", "--db", "{W}/good.db", "--problem", "conv1d:7:3"},
        {"export", "--family", "conv9d", "--db", "{W}/good.db"},
        {"export", "--family", "conv1d", "--dtype", "f64", "--db", "{W}/good.db"},
        {"export", "--problem", "conv1d:7:3", "--db", "{W}/good.db", "-o", "{W}/k.cu"},
        {"report", "--db", "{W}/good.db", "--format", "pdf"},
        {"db", "export", "--db", "{W}/good.db", "--format", "xml"},
        {"db", "frobnicate", "--db", "{W}/good.db"},
        {"--problem", "conv1d:1000:31", "--db", "{W}/t.db", "--gpu", "-1"},
        {"--problem", "conv1d:1000:31", "--db", "{W}/t.db", "--time", "0"},
        {"--problem", "conv1d:1000:31", "--db", "{W}/t.db", "--budget", "0"},
        {"--problem", "conv1d:1000:31", "--db", "{W}/t.db", "--strategy", "magic"},
        {"--problem", "conv1d:1000:31", "--db", "{W}/t.db", "--template", "conv2dc_simt"},
        {"--problem", "conv1d:1000:31:bf16", "--db", "{W}/t.db", "--template", "conv1d_tiled"},
        {"--problem", "conv1d:1000:31", "--db", "{W}/t.db", "--templates", "{W}/nonexistent"},
        {"--problem", "conv2dc:32:64:56:56:64:3:3:same", "--db", "{W}/t.db", "--shard", "0/2", "--strategy", "random"},
        {"--problem", "conv1d:1000:31", "--db", "{W}/t.db", "--shard", "0/2", "--strategy", "anneal", "--seed", "1"},
        {"frobnicate"},
        {"--version", "--version"},
    };
    for (size_t i = 0; i < sizeof bad_values / sizeof bad_values[0]; i++)
        sweep(bad_values[i]);
}

/* ------------------------------------------------------------------------ */
/* INI files                                                                */

static void sweep_ini(void)
{
    static const char *const inis[] = {
        "[measure\nwarmup = 3\n",
        "[measure]\nwarmup 3\n",
        "[measure]\nwarmup =\n",
        "[measure]\nwarmup = abc\n",
        "[measure]\nwarmup = -1\n",
        "[measure]\nwarmup = 99999999999999999999\n",
        "[measure]\nwarmup = 3 4\n",
        "[measure]\nnosuch = 1\n",
        "[nosuch]\nx = 1\n",
        "[measure]\nwarmup = 3\nwarmup = 4\n",
        "[measure]\nwarmup = 3\n  min_reps = 5\n",
        "[verify]\ntolerance = abc\n",
        "[verify]\ntolerance = -1\n",
        "[tune]\njobs = -3\n",
        "[tune]\nmax_candidates = 0\n",
        "[space.conv1d_naive]\nBLOCK_SIZE = 0\n",
        "[space.conv1d_naive]\nBLOCK_SIZE = 64, abc\n",
        "[space.conv1d_naive]\nBLOCK_SIZE =\n",
        "[space.conv1d_naive]\nNOSUCH = 1\n",
        "[space.conv1d_nosuch]\nBLOCK_SIZE = 64\n",
        "[space.conv1d_tiled]\nMASK_PLACEMENT = everywhere\n",
        "[space.conv1d_tiled]\nMASK_PLACEMENT = constant, constant\n",
        "[space.conv1dc_simt]\nOUT_X = 0\n",
        "[space.conv1d_tiled]\nALIGN = 16\nALIGN = 128\n",
        "x = 1\n",
        "\xef\xbb\xbf[measure]\nwarmup = x\n",
    };
    char name[32];
    for (size_t i = 0; i < sizeof inis / sizeof inis[0]; i++) {
        snprintf(name, sizeof name, "bad%zu.ini", i);
        put(name, inis[i]);
    }
    /* An overlong line. */
    static char longline[6000];
    size_t o = (size_t)snprintf(longline, sizeof longline, "[measure]\nwarmup = 3");
    while (o + 4 < sizeof longline)
        o += (size_t)snprintf(longline + o, sizeof longline - o, "   ");
    put("badlong.ini", longline);
    char path[64];
    for (size_t i = 0; i <= sizeof inis / sizeof inis[0]; i++) {
        if (i < sizeof inis / sizeof inis[0])
            snprintf(path, sizeof path, "{W}/bad%zu.ini", i);
        else
            snprintf(path, sizeof path, "{W}/badlong.ini");
        sweep((const char *const[]){"space", "--problem", "conv1dc:2:8:64:16:3", "--config", path, NULL});
    }
    sweep((const char *const[]){"space", "--problem", "conv1d:1000:31", "--config", "{W}/missing.ini", NULL});
    sweep((const char *const[]){"space", "--problem", "conv1d:1000:31", "--config", "{W}", NULL});
}

/* ------------------------------------------------------------------------ */
/* Database imports                                                         */

static void sweep_imports(void)
{
    result r;
    char cmd[2048], path[700];
    run_ct((const char *const[]){"db", "export", "--db", "{W}/good.db", "-o", "{W}/good.json", NULL}, &r, cmd,
           sizeof cmd);
    result_free(&r);
    run_ct((const char *const[]){"db", "export", "--db", "{W}/good.db", "--format", "csv", "-o", "{W}/good.csv",
                                NULL},
           &r, cmd, sizeof cmd);
    result_free(&r);
    wpath(path, sizeof path, "good.json");
    char *json = slurp(path, NULL);
    wpath(path, sizeof path, "good.csv");
    char *csv = slurp(path, NULL);
    CHECK(json && csv);
    if (!json || !csv)
        return;
    static const char *const json_edits[][2] = {
        {"\"template\":\"conv1d_naive\"", "\"template\":\"conv1d_wino\""},
        {"{\"BLOCK_SIZE\":128}", "{\"BLOCK_SIZE\":\"128\"}"},
        {"{\"BLOCK_SIZE\":128}", "{\"BLOCK_SIZE\":2147483647}"},
        {"{\"BLOCK_SIZE\":128}", "{\"BLOCK_SIZE\":-128}"},
        {"{\"BLOCK_SIZE\":128}", "{\"BLOCK_SIZE\":128.5}"},
        {"{\"BLOCK_SIZE\":128}", "{\"NOPE\":128}"},
        {"{\"BLOCK_SIZE\":128}", "[128]"},
        {"\"driver_version\":13000", "\"driver_version\":-5"},
        {"\"driver_version\":13000", "\"driver_version\":\"13000\""},
        {"\"problem\":\"conv1d:4096:7:valid\"", "\"problem\":\"conv1d:0:31\""},
        {"\"problem\":\"conv1d:4096:7:valid\"", "\"problem\":\"conv9d:1:1\""},
        {"\"status\":\"ok\"", "\"status\":\"great\""},
        {"\"cc_major\":9", "\"cc_major\":-9"},
        {"\"device\":\"NVIDIA Sweep GPU\"", "\"device\":\"\""},
        {"\"device\":\"NVIDIA Sweep GPU\"", "\"device\":17"},
        {"{", "["},
        {"\"template\"", "\"template\":1,\"template\""},
    };
    char name[32];
    for (size_t i = 0; i < sizeof json_edits / sizeof json_edits[0]; i++) {
        snprintf(name, sizeof name, "bad%zu.json", i);
        put_variant(name, json, 1, json_edits[i][0], json_edits[i][1]);
    }
    /* Truncated, empty, not JSON, binary, a BOM before garbage. */
    size_t jl = strlen(json);
    char *cut = strndup(json, jl / 2);
    put("cut.json", cut);
    free(cut);
    put("empty.json", "");
    put("words.json", "hello world\n");
    put("binary.json", "\x01\x02\x03\xff\xfe");
    put("bomjunk.json", "\xef\xbb\xbf{\"records\": 3");
    put("nul.json", "{\"a\"");
    /* CSV: a bad header, an unterminated quote, a short row, a bad number. */
    const char *nl = strchr(csv, '\n');
    char *hdr = strndup(csv, (size_t)(nl - csv));
    char *tmp = malloc(strlen(csv) + 100);
    snprintf(tmp, strlen(csv) + 100, "nonsense,%s", csv);
    put("badhdr.csv", tmp);
    snprintf(tmp, strlen(csv) + 100, "%s\n\"unterminated,1,2\n", hdr);
    put("quote.csv", tmp);
    snprintf(tmp, strlen(csv) + 100, "%s\n1,2\n", hdr);
    put("short.csv", tmp);
    free(tmp);
    free(hdr);
    put_variant("badnum.csv", csv, 1, ",13000,", ",thirteen,");
    static const char *const files[] = {"cut.json", "empty.json", "words.json", "binary.json", "bomjunk.json",
                                        "nul.json", "badhdr.csv", "quote.csv", "short.csv", "badnum.csv",
                                        "missing.json"};
    for (size_t i = 0; i <= sizeof json_edits / sizeof json_edits[0] + sizeof files / sizeof files[0]; i++) {
        char file[64];
        if (i < sizeof json_edits / sizeof json_edits[0])
            snprintf(file, sizeof file, "{W}/bad%zu.json", i);
        else if (i - sizeof json_edits / sizeof json_edits[0] < sizeof files / sizeof files[0])
            snprintf(file, sizeof file, "{W}/%s", files[i - sizeof json_edits / sizeof json_edits[0]]);
        else
            snprintf(file, sizeof file, "{W}");
        /* into a new database (which must not appear) and into cli.db (unchanged) */
        sweep((const char *const[]){"db", "import", file, "--db", "{W}/new.db", NULL});
        sweep((const char *const[]){"db", "import", file, "--db", "{W}/good.db", NULL});
    }
    free(json);
    free(csv);
}

/* ------------------------------------------------------------------------ */
/* Paths                                                                    */

static void sweep_paths(void)
{
    put("notadb.db", "this is text, not a database\n");
    put("exists.cu", "an older file\n");
    static const char *const dbs[] = {"{W}/{L}.db", "{W}", "{W}/notadb.db", "", "{W}/no/such/folder/{L}/x.db"};
    for (size_t i = 0; i < sizeof dbs / sizeof dbs[0]; i++) {
        sweep((const char *const[]){"query", "--db", dbs[i], NULL});
        sweep((const char *const[]){"report", "--db", dbs[i], "-o", "{W}/r.html", NULL});
        sweep((const char *const[]){"db", "check", "--db", dbs[i], NULL});
        sweep((const char *const[]){"db", "import", "{W}/good.json", "--db", dbs[i], NULL});
        sweep((const char *const[]){"export", "--problem", "conv1d:3000:37:same", "--db", dbs[i], "-o", "{W}/k.cu", NULL});
        sweep((const char *const[]){"--problem", "conv1d:1000:31", "--db", dbs[i], NULL});
    }
    static const char *const outs[] = {"", "{W}", "{W}/exists.cu", "{W}/no/such/k.cu", "{W}/{L}.cu"};
    for (size_t i = 0; i < sizeof outs / sizeof outs[0]; i++) {
        sweep((const char *const[]){"compile", "--problem", "conv1d:1000:31", "--arch", "sm_90", "--template",
                                    "conv1d_naive", "-o", outs[i], NULL});
        sweep((const char *const[]){"db", "export", "--db", "{W}/good.db", "-o", outs[i], NULL});
        sweep((const char *const[]){"report", "--db", "{W}/good.db", "-o", outs[i], NULL});
    }
    /* export --torch takes a folder */
    static const char *const dirs[] = {"", "{W}/exists.cu", "{W}/no/such", "{W}/{L}"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
        sweep((const char *const[]){"export", "--family", "conv1d", "--db", "{W}/good.db", "--torch", "-o", dirs[i],
                                    NULL});
    sweep((const char *const[]){"compile", "--problem", "conv1d:1000:31", "--arch", "sm_90", "--templates",
                                "{W}/nonexistent", NULL});
}

int main(void)
{
    if (cli_make_work() != 0)
        return cli_setup_failed();
    /* good.db: two verified conv1d results, so each base command succeeds
     * and only the bad part of a case can refuse it */
    char db[700];
    wpath(db, sizeof db, "good.db");
    const ct_device_info dev = tc_device("NVIDIA Sweep GPU", "GPU-sweep", 9, 0, 13000);
    if (!tc_family_db(db, &dev, &tc_family_cases[0]))
        return cli_setup_failed();
    sweep_problems();
    const int np = ncases;
    sweep_options();
    const int no = ncases - np;
    sweep_ini();
    const int ni = ncases - np - no;
    sweep_imports();
    const int nm = ncases - np - no - ni;
    sweep_paths();
    printf("bad inputs: %d (%d problem strings, %d option sets, %d INI files, %d imports, %d paths), %d clean\n",
           ncases, np, no, ni, nm, ncases - np - no - ni - nm, nclean);
    tl_rm_rf(base);
    CHECK_DONE();
}

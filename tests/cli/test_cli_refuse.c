/* test_cli_refuse.c - bad input refused cleanly and interruptions cleaned
 * up, with the real binary (CT_BINARY) as a user meets it (helpers of
 * cli_common.h: a fresh work directory that is HOME and XDG_DATA_HOME).
 *
 * The table: options a command does not take, an option given twice, query
 * filters that match nothing or name no family, signs in sizes, INI keys
 * given twice and values below a parameter's least, bare convtune, output
 * files that exist, are links, do not fit or are not files, database paths
 * that do not fit, empty database files, and imported records with unknown
 * templates, parameters or values out of range. Each row: its exit code,
 * exactly one stderr line naming the problem, empty stdout, and the work
 * directory unchanged.
 *
 * Then with real processes: a full disk (a file size limit) for compile -o
 * and db export -o; db export -o killed by SIGINT, SIGTERM, SIGHUP (its
 * temporary removed) and SIGKILL (its temporary removed by the next write);
 * a database another process is writing (busy); the toolkit's stub
 * libcuda.so.1 on the library path. Read-only databases and folders are
 * test_cli_readonly's. No GPU. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "check.h"
#include "compile.h"
#include "db.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <pwd.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CT_CLI_TEST_NAME "cli_refuse"
#include "cli_common.h"

#define OKP "conv1d:1000:31"
#define SM90 "--arch", "sm_90"
/* 100 letters: six of them make a folder path under convtune's 1023 but
 * over SQLite's 512 bytes. */
#define D10 "dddddddddd"
#define D100 D10 D10 D10 D10 D10 D10 D10 D10 D10 D10

static const bad_row rows[] = {
    /* options the command does not take */
    {{"space", "--problem", OKP, "--gpu", "3"}, 2, "space does not take --gpu"},
    {{"space", "--problem", OKP, "--force"}, 2, "space does not take --force"},
    {{"space", "--problem", OKP, "--db", "{W}/cli.db"}, 2, "space does not take --db"},
    {{"space", "--problem", OKP, "--param", "BLOCK_SIZE=64"}, 2, "space does not take --param"},
    {{"space", "--problem", OKP, "--templates", "{W}"}, 2, "space does not take --templates"},
    {{"tune", "--problem", OKP, "--list"}, 2, "tune does not take --list"},
    {{"tune", "--problem", OKP, SM90}, 2, "tune does not take --arch"},
    {{"tune", "--problem", OKP, "-o", "{W}/x"}, 2, "tune does not take -o"},
    {{"--problem", OKP, "--format", "json"}, 2, "tune does not take --format"},
    {{"compile", "--problem", OKP, SM90, "--gpu", "0"}, 2, "compile does not take --gpu"},
    {{"compile", "--problem", OKP, SM90, "--db", "{W}/cli.db"}, 2, "compile does not take --db"},
    {{"query", "--db", "{W}/cli.db", "--force"}, 2, "query does not take --force"},
    {{"query", "--db", "{W}/cli.db", "--gpu", "1"}, 2, "query does not take --gpu"},
    {{"query", "--db", "{W}/cli.db", SM90}, 2, "query does not take --arch"},
    {{"query", "--db", "{W}/cli.db", "-o", "{W}/q.txt"}, 2, "query does not take -o"},
    {{"export", "--problem", OKP, "--db", "{W}/cli.db", "--gpu", "0"}, 2, "export does not take --gpu"},
    {{"export", "--problem", OKP, "--db", "{W}/cli.db", "--list"}, 2, "export does not take --list"},
    {{"db", "export", "--db", "{W}/cli.db", "--problem", OKP}, 2, "db export does not take --problem"},
    {{"db", "import", "{W}/good.json", "--db", "{W}/new.db", "--force"}, 2, "db import does not take --force"},
    {{"db", "import", "{W}/good.json", "--db", "{W}/new.db", "-o", "{W}/x"}, 2, "db import does not take -o"},
    {{"db", "check", "--db", "{W}/cli.db", "--format", "json"}, 2, "db check does not take --format"},
    {{"db", "check", "--db", "{W}/cli.db", "--all"}, 2, "db check does not take --all"},
    /* an option given twice: which one was meant cannot be known */
    {{"space", "--problem", OKP, "--problem", "conv1d:10:3"}, 2, "option --problem given twice"},
    {{"--problem", OKP, "--problem", OKP}, 2, "option --problem given twice"},
    {{"compile", "--problem", OKP, SM90, "-o", "{W}/a", "--output", "{W}/b"}, 2, "option --output given twice"},
    {{"query", "--db", "{W}/cli.db", "--db", "{W}/cli.db"}, 2, "option --db given twice"},
    {{"query", "--db", "{W}/cli.db", "--all", "--winners"}, 2, "query takes --all or --winners, not both"},
    {{"tune", "--problem", OKP, "--gpu", "0", "--gpu", "1"}, 2, "option --gpu given twice"},
    /* flags too (E032, L027, L028, L030: refused before the GPU check) */
    {{"export", "--problem", OKP, "--db", "{W}/ok.db", "--torch", "--torch", "-o", "{W}/kd"}, 2,
     "option --torch given twice"},
    {{"export", "--problem", OKP, "--db", "{W}/ok.db", "-o", "{W}/k.cu", "--force", "--force"}, 2,
     "option --force given twice"},
    {{"space", "--problem", OKP, "--list", "--list"}, 2, "option --list given twice"},
    {{"--problem", OKP, "--json", "--json"}, 2, "option --json given twice"},
    {{"query", "--db", "{W}/cli.db", "--winners", "--winners"}, 2, "option --winners given twice"},
    /* report takes the common parser: --problem repeats, nothing else (R020-R023, R032) */
    {{"report", "--db", "{W}/cli.db", "--family", "conv1d", "--family", "conv2d", "-o", "{W}/r.html"}, 2,
     "option --family given twice"},
    {{"report", "--db", "{W}/cli.db", "-o", "{W}/a.html", "-o", "{W}/b.html"}, 2, "option -o given twice"},
    {{"report", "--db", "{W}/cli.db", "--db", "{W}/zero.db", "-o", "{W}/r.html"}, 2, "option --db given twice"},
    {{"report", "--db", "{W}/cli.db", "--format", "csv", "--format", "html", "-o", "{W}/r.html"}, 2,
     "option --format given twice"},
    {{"report", "--db", "{W}/cli.db", "--device", "H100", "--device", "H200", "-o", "{W}/r.html"}, 2,
     "option --device given twice"},
    {{"report", "--db", "{W}/cli.db", "--force", "--force"}, 2, "option --force given twice"},
    {{"report", "--db", "{W}/cli.db", "--gpu", "0"}, 2, "report does not take --gpu"},
    {{"space", "--problem", OKP, "--baseline", "none"}, 2, "space does not take --baseline"},
    {{"--problem", OKP, "--baseline", "foo", "--db", "{W}/t.db"}, 2, "--baseline: bad value 'foo' (expected cudnn or none)"},
    {{"--problem", OKP, "--baseline", "CUDNN", "--db", "{W}/t.db"}, 2, "--baseline: bad value 'CUDNN'"},
    {{"--problem", OKP, "--baseline", "none", "--baseline", "cudnn", "--db", "{W}/t.db"}, 2,
     "option --baseline given twice"},
    /* tune (and retime) check what space, compile and precompile check before looking for a GPU,
     * with their codes: none is exit 4 here (T002, T003, T006, T008, L031) */
    {{"--problem", "conv1d:1000:3:bf16", "--template", "conv1d_tiled", "--db", "{W}/t.db"}, 2,
     "--template conv1d_tiled: conv1d_tiled computes in fp32 only"},
    {{"--problem", "conv2dc:32:64:56:56:64:3:3:same", "--shard", "0/2", "--strategy", "random", "--db", "{W}/t.db"},
     2, "a random sample dealt to shards needs --seed N"},
    {{"--problem", "conv1d:1000:3", "--templates", "{W}/nonexistent", "--db", "{W}/t.db"}, 7,
     "template {W}/nonexistent/conv1d_naive.cu: No such file or directory"},
    {{"--problem", "conv1d:1000:3", "--template", "conv2dc_simt", "--db", "{W}/t.db"}, 2,
     "family conv1d has no template 'conv2dc_simt'"},
    {{"--problem", "conv1d:15:4:right", "--shard", "0/2", "--strategy", "anneal", "--db", "{W}/t.db"}, 2,
     "a guided search (anneal) chooses from measurements"},
    {{"precompile", "--problem", "conv1d:15:4:right", SM90, "--shard", "0/2", "--strategy", "anneal"}, 2,
     "a guided search (anneal) chooses from measurements"},
    {{"--problem", OKP, "--db", "{W}/t.db", "--shard", "0/2"}, 2, "a sharded run of about"},   /* auto, no seed */
    {{"--problem", OKP, "--db", ""}, 2, "DB: no database path given"},
    {{"--problem", OKP, "--db", "{W}"}, 5, "is a directory, not a database file"},
    {{"--problem", OKP, "--db", "{W}/tiny.db"}, 5, "{W}/tiny.db is not a convtune database (not an SQLite file)"},
    {{"retime", "--problem", "conv1d:1000:3", "--templates", "{W}/nonexistent", "--db", "{W}/ok.db"}, 7,
     "template {W}/nonexistent/conv1d_naive.cu: No such file or directory"},
    /* query filters: an unknown family is refused, no match is exit 6 */
    {{"query", "--db", "{W}/cli.db", "--family", "conv9d"}, 2, "--family: unknown family 'conv9d'"},
    {{"query", "--db", "{W}/cli.db", "--family", "CONV1D"}, 2, "unknown family 'CONV1D'"},
    {{"query", "--db", "{W}/cli.db", "--family", "conv1d' OR '1'='1"}, 2, "unknown family 'conv1d' OR '1'='1'"},
    {{"query", "--db", "{W}/cli.db", "--device", "nomatch"}, 6, "nothing stored matches --device 'nomatch'"},
    {{"query", "--db", "{W}/cli.db", "--all", "--device", "nomatch"}, 6, "nothing stored matches --device"},
    {{"query", "--db", "{W}/cli.db", "--problem", "conv1d:5000:7"}, 6,
     "nothing stored matches --problem conv1d:5000:7:valid"},
    {{"query", "--db", "{W}/cli.db", "--family", "conv2d"}, 6, "nothing stored matches --family conv2d"},
    {{"query", "--db", "{W}/cli.db"}, 6, "nothing stored matches (the database is empty)"},  /* no ok row */
    /* a sign in a size, refused like ' 10' and pad=+0 */
    {{"space", "--problem", "conv1d:+10:3"}, 2, "got '+10'"},
    {{"space", "--problem", "conv1d:10:+3"}, 2, "got '+3'"},
    {{"--problem", "conv1d:+1e6:2047"}, 2, "got '+1e6'"},
    {{"space", "--problem", "conv1dc:+1:1:10:1:3"}, 2, "got '+1'"},
    {{"space", "--problem", "conv2d:1:+8:8:3:3"}, 2, "got '+8'"},
    {{"space", "--problem", "conv2dc:1:1:8:8:+2:3:3"}, 2, "got '+2'"},
    /* problem strings: the right reason, user text quoted bounded and escaped (G036, G037, G072, G075, G122,
     * G125) */
    {{"space", "--problem", "conv1dc:1:1:3:1:3:dilation=2"}, 2, "the dilated filter spans 5 taps (K=3, dilation=2)"},
    {{"space", "--problem", "conv1dc:1:4:8:4:3:dilation=5"}, 2, "the dilated filter spans 11 taps (K=3, dilation=5)"},
    {{"space", "--problem", "conv1d:100:3:same:nlc"}, 2, "conv1d has no layout ('nlc' is a layout of conv1dc"},
    {{"space", "--problem", "conv2d:1:64:64:3:3:same:nhwc"}, 2, "conv2d has no layout ('nhwc' is a layout of conv2dc"},
    {{"space", "--problem", "conv1d:{L}:3"}, 2, "problem string too long (1109 characters, at most 255): 'conv1d:LLL"},
    {{"space", "--problem", "conv1d:10:3\nsame"}, 2, "problem 'conv1d:10:3\\nsame': a control character (\\n)"},
    {{"space", "--problem", OKP, "--arch", "sm_\n90"}, 2, "architecture 'sm_\\n90'"},
    {{"space", "--problem", OKP, "--bogus\nx"}, 2, "unknown option '--bogus\\nx'"},
    {{"--problem", OKP, "--seed", "1\n"}, 2, "--seed: bad value '1\\n'"},
    {{"compile", "--problem", OKP, SM90, "--param", "BLOCK\n=1"}, 2, "--param BLOCK\\n=1: expected NAME=VALUE"},
    {{"space", "--problem", OKP, "--template", "x\ny"}, 2, "family conv1d has no template 'x\\ny'"},
    /* INI files and parameters */
    {{"space", "--problem", OKP, "--config", "{W}/block0.ini"}, 3,
     "{W}/block0.ini:2: [space.conv1d_tiled] parameter BLOCK_SIZE: bad value 0 (at least 32)"},
    {{"space", "--problem", OKP, "--config", "{W}/negative.ini"}, 3, "MASK_PAD: bad value -1 (at least 0)"},
    {{"space", "--problem", OKP, "--config", "{W}/dupkey.ini"}, 3, "{W}/dupkey.ini:4: [measure] warmup: given twice"},
    {{"space", "--problem", OKP, "--config", "{W}/duplist.ini"}, 3,
     "{W}/duplist.ini:3: [space.conv1d_tiled] ALIGN: given twice"},
    {{"space", "--problem", "conv1dc:1:4:8:4:3", "--config", "{W}/outx0.ini"}, 3,
     "{W}/outx0.ini:2: [space.conv1dc_simt] parameter OUT_X: bad value 0 (at least 1)"},   /* F102 */
    {{"space", "--problem", OKP, "--config", "{W}/indent.ini"}, 3,
     "{W}/indent.ini:3: indented line 'min_reps = 5': INI reads an indented line as the continuation"},   /* F112 */
    {{"compile", "--problem", "conv1dc:1:4:8:4:3", SM90, "--template", "conv1dc_simt", "--param", "OUT_X=17"}, 2,
     "parameter OUT_X: bad value 17 (at most 16)"},
    {{"compile", "--problem", OKP, SM90, "--param", "BLOCK_SIZE=-1"}, 2, "BLOCK_SIZE: bad value -1"},
    {{"compile", "--problem", OKP, SM90, "--param", "BLOCK_SIZE=0"}, 2, "BLOCK_SIZE: bad value 0"},
    /* nothing at all, or too much */
    {{NULL}, 2, "convtune: no command or --problem given; try 'convtune --help'"},
    {{"--version", "x"}, 2, "--version takes no other argument ('x')"},
    {{"help", "me"}, 2, "help takes no other argument ('me')"},
    /* architectures: digits and at most NVRTC's a/f suffix */
    {{"space", "--problem", OKP, "--arch", "sm_99x"}, 2, "architecture 'sm_99x' must be sm_XY or compute_XY"},
    {{"space", "--problem", OKP, "--arch", "sm_+90"}, 2, "architecture 'sm_+90'"},
    {{"compile", "--problem", OKP, "--arch", "compute_ 90"}, 2, "architecture 'compute_ 90'"},
    {{"compile", "--problem", OKP, "--arch", "sm_90ab"}, 2, "architecture 'sm_90ab'"},
    /* output files: export's rules for compile -o and db export -o */
    {{"compile", "--problem", OKP, SM90, "-o", "{W}/exists.cubin"}, 7,
     "compile: {W}/exists.cubin exists (use --force to replace it)"},
    {{"compile", "--problem", OKP, SM90, "-o", "{W}/link.cubin"}, 7,
     "compile: {W}/link.cubin is a symbolic link; refusing to write through it"},
    {{"compile", "--problem", OKP, SM90, "-o", "{W}/link.cubin", "--force"}, 7, "is a symbolic link"},
    {{"compile", "--problem", OKP, SM90, "-o", "{W}/dangling.cubin", "--force"}, 7, "is a symbolic link"},
    {{"compile", "--problem", OKP, SM90, "-o", "{W}/{L}.cubin"}, 7,
     "compile: output path too long ("},
    {{"compile", "--problem", OKP, SM90, "-o", "{W}/home", "--force"}, 7, "exists and is not a regular file"},
    {{"compile", "--problem", OKP, SM90}, 7, "compile: conv1d_tiled.cubin exists (use --force"},  /* default */
    {{"db", "export", "--db", "{W}/cli.db", "-o", "{W}/{L}.json"}, 7, "db export: output path too long"},
    {{"db", "export", "--db", "{W}/cli.db", "-o", "{W}/exists.cubin"}, 7, "exists (use --force to replace it)"},
    {{"db", "export", "--db", "{W}/cli.db", "-o", "{W}/link.cubin", "--force"}, 7, "is a symbolic link"},
    {{"export", "--problem", OKP, "--db", "{W}/ok.db", "-o", "{W}/{L}.cu"}, 7, "-o: path too long ("},
    {{"export", "--problem", OKP, "--db", "{W}/ok.db", "-o", "{W}/exists.cubin"}, 7, "exists (use --force"},
    /* an empty -o (an unset shell variable) is no file and no directory: never "" + "/NAME" (E021) */
    {{"export", "--problem", OKP, "--db", "{W}/ok.db", "-o", ""}, 2, "export: no output file given"},
    {{"export", "--problem", OKP, "--db", "{W}/ok.db", "--torch", "-o", ""}, 2, "export --torch: -o is empty"},
    {{"export", "--family", "conv1d", "--db", "{W}/ok.db", "--torch", "-o", ""}, 2, "export --torch: -o is empty"},
    {{"export", "--family", "conv1d", "--db", "{W}/ok.db", "-o", ""}, 2, "export: no output file given"},
    /* database paths are never shortened */
    {{"db", "import", "{W}/good.json", "--db", "{W}/{L}/x.db"}, 2, "--db: path too long ("},
    {{"query", "--db", "{W}/{L}"}, 2, "--db: path too long"},
    {{"--problem", OKP, "--db", "{W}/{L}/t.db"}, 2, "--db: path too long"},
    {{"report", "--db", "{W}/{L}", "-o", "{W}/r.html"}, 2, "--db: path too long"},   /* R024 */
    {{"--problem", OKP, "--templates", "{W}/{L}", "--db", "{W}/t.db"}, 2, "--templates: path too long ("},
    {{"space", "--problem", OKP, "--config", "{W}/{L}.ini"}, 2, "--config: path too long ("},
    {{"--problem", OKP, "--templates", "", "--db", "{W}/t.db"}, 2, "option --templates: empty path"},
    {{"space", "--problem", OKP, "--config", ""}, 2, "option --config: empty path"},
    {{"--problem", OKP, "--db", "{W}/t.db", "--gpu", "{L}"}, 2, "--gpu: bad value 'LLLLLLLLLL"},
    {{"compile", "--problem", OKP, SM90, "--templates", "{W}/{L}", "-o", "{W}/t.cubin"}, 2,
     "--templates: path too long ("},
    /* under convtune's limit but over SQLite's (512 bytes absolute, "-journal"
     * included): refused before a folder is made (I148) */
    {{"db", "import", "{W}/good.json", "--db", "{W}/" D100 "/" D100 "/" D100 "/" D100 "/" D100 "/" D100 "/x.db"}, 2,
     "DB: database path too long: "},
    {{"query", "--db", "{W}/" D100 "/" D100 "/" D100 "/" D100 "/" D100 "/" D100 "/x.db"}, 2,
     "SQLite takes at most 504; nothing was created"},
    {{"db", "import", "{W}/good.json", "--db", "{W}/newdir/" D100 D100 D100 ".db"}, 2,
     "DB: database path has a name of 303 bytes, longer than a file name may be (255); nothing was created"},
    /* empty database files: nothing to read yet (a writer may be creating
     * them: a reader racing it is told just that), never initialised by a
     * reader */
    {{"query", "--db", "{W}/zero.db"}, 6, "database {W}/zero.db holds nothing yet (an empty file; another convtune "
                                         "may be creating it)"},
    {{"db", "check", "--db", "{W}/zero.db"}, 6, "{W}/zero.db holds nothing yet (an empty file"},
    {{"export", "--problem", OKP, "--db", "{W}/zero.db", "-o", "{W}/z.cu"}, 6, "holds nothing yet (an empty file"},
    {{"db", "export", "--db", "{W}/zero.db"}, 6, "holds nothing yet (an empty file"},
    {{"query", "--nearest", OKP, "--db", "{W}/zero.db"}, 6, "holds nothing yet (an empty file"},
    {{"query", "--db", "{W}/blank.db"}, 6, "database {W}/blank.db holds nothing yet (an empty SQLite database; "
                                          "another convtune may be creating it)"},
    {{"db", "check", "--db", "{W}/blank.db"}, 6, "holds nothing yet (an empty SQLite database"},
    /* a file shorter than SQLite's header, which SQLite would take for an empty database */
    {{"db", "import", "{W}/good.json", "--db", "{W}/tiny.db"}, 5, "{W}/tiny.db is not a convtune database (not an SQLite file)"},
    {{"query", "--db", "{W}/tiny.db"}, 5, "is not a convtune database (not an SQLite file)"},
    {{"db", "check", "--db", "{W}/tiny.db"}, 5, "not an SQLite file"},
    /* imported records checked against their template, named by record and line */
    {{"db", "import", "{W}/bad_template.json", "--db", "{W}/cli.db"}, 2,
     "{W}/bad_template.json: record 2 (line 3): field 'template': conv1d has no template 'conv1d_wino'"},
    {{"db", "import", "{W}/bad_param.json", "--db", "{W}/cli.db"}, 2,
     "{W}/bad_param.json: record 3 (line 4): field 'params': conv1d_naive: stored parameter 'NOPE'"},
    {{"db", "import", "{W}/bad_value.json", "--db", "{W}/cli.db"}, 2,
     "{W}/bad_value.json: record 1 (line 2): field 'params': conv1d_naive: parameter BLOCK_SIZE: bad value -1"},
    {{"db", "import", "{W}/bad_zero.json", "--db", "{W}/new.db"}, 2, "parameter BLOCK_SIZE: bad value 0 (at least 32)"},
    {{"db", "import", "{W}/bad_missing.json", "--db", "{W}/cli.db"}, 2, "record 2 (line 3): field 'params': "
                                                                        "conv1d_naive: stored parameters lack BLOCK_SIZE"},
    {{"db", "import", "{W}/bad_family.json", "--db", "{W}/new.db"}, 2, "record 1 (line 2): field 'family': unknown family"},
};

/* Rows run with one more environment entry ("{W}" and "{L}" expanded). */
static const struct {
    const char *env;
    bad_row row;
} env_rows[] = {
    /* paths from the environment are refused like options, never cut (S024) */
    {"CONVTUNE_CACHE={W}/{L}/cachedir", {{"precompile", "--problem", "conv1d:15:4:right", SM90, "--template",
                                          "conv1d_naive"}, 2, "CONVTUNE_CACHE: path too long ("}},
    {"XDG_CACHE_HOME={W}/{L}", {{"--problem", OKP, "--db", "{W}/t.db"}, 2, "XDG_CACHE_HOME: path too long ("}},
    {"CONVTUNE_DB={W}/{L}", {{"query"}, 5, "CONVTUNE_DB: path too long ("}},
    {"XDG_DATA_HOME={W}/{L}", {{"--problem", OKP}, 5, "XDG_DATA_HOME: path too long ("}},
    {"CUDA_HOME={W}/{L}", {{"compile", "--problem", "conv1d:15:4:bf16", SM90, "--template", "conv1d_tiledh", "-o",
                            "{W}/h.cubin"}, 2, "CUDA_HOME: path too long ("}},
};

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

/* Run convtune with args (NULL-terminated); the result in r. */
static void run(result *r, char *cmd, size_t cmdlen, const char *const *args)
{
    run_ct(args, r, cmd, cmdlen);
}

/* Entries of dir whose names start with prefix. */
static int count_prefixed(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *de;
    while (d && (de = readdir(d)))
        n += !strncmp(de->d_name, prefix, strlen(prefix));
    if (d)
        closedir(d);
    return n;
}

/* The first line of stderr is exactly one line, holds want, and the work
 * directory's temporaries are gone. */
static void check_one_line(const char *cmd, const result *r, int code, const char *want)
{
    CHECK_MSG(r->code == code, "%s: exit %d, expected %d; stderr: %s", cmd, r->code, code, r->err);
    CHECK_MSG(count_char(r->err, r->errlen, '\n') == 1 && strstr(r->err, want), "%s: stderr [%s] lacks [%s]", cmd,
              r->err, want);
    CHECK_MSG(count_prefixed(work, ".convtune-") == 0, "%s: a temporary was left in %s", cmd, work);
}

/* ------------------------------------------------------------------------ */
/* Files that exist, full disks                                             */

static void check_files(void)
{
    char cmd[4096], path[700];
    result r;
    size_t n = 0;
    /* --force replaces a regular file, atomically, leaving no temporary */
    run(&r, cmd, sizeof cmd, (const char *const[]){"compile", "--problem", OKP, SM90, "-o", "{W}/exists.cubin",
                                                   "--force", NULL});
    CHECK_MSG(r.code == 0 && r.errlen == 0, "%s: exit %d: %s", cmd, r.code, r.err);
    result_free(&r);
    wpath(path, sizeof path, "exists.cubin");
    char *data = slurp(path, &n);
    CHECK_MSG(data && n > 64 && !memcmp(data, "\177ELF", 4), "%s: not replaced by a CUBIN", path);
    free(data);
    CHECK(count_prefixed(work, ".convtune-") == 0);
    /* the link's target is untouched */
    wpath(path, sizeof path, "target.txt");
    data = slurp(path, &n);
    CHECK_MSG(data && !strcmp(data, "keep me\n"), "the link's target changed");
    free(data);

    /* A full disk: writes fail with EFBIG past 4 KiB. Exit 7, one line,
     * no output file and no temporary. */
    run_fsize = 4096;   /* a CUBIN is larger */
    run(&r, cmd, sizeof cmd, (const char *const[]){"compile", "--problem", OKP, SM90, "-o", "{W}/full.cubin", NULL});
    check_one_line(cmd, &r, 7, "full.cubin failed: File too large");
    result_free(&r);
    wpath(path, sizeof path, "full.cubin");
    CHECK_MSG(!exists(path), "%s was left after a failed write", path);
    /* room for SQLite's -shm file (32 KiB), not for the export of mid.db's
     * 200 records (some 120 KB; SQLite sorts them in memory) */
    run_fsize = 64 << 10;
    run(&r, cmd, sizeof cmd, (const char *const[]){"db", "export", "--db", "{W}/mid.db", "-o", "{W}/full.json", NULL});
    check_one_line(cmd, &r, 7, "full.json failed: File too large");
    result_free(&r);
    wpath(path, sizeof path, "full.json");
    CHECK_MSG(!exists(path), "%s was left after a failed write", path);
    run_fsize = 0;
}

/* ------------------------------------------------------------------------ */
/* Signals                                                                  */

/* Start convtune db export of big.db into out; its pid. */
static pid_t spawn_export(const char *out)
{
    char db[700], o[700];
    wpath(db, sizeof db, "big.db");
    wpath(o, sizeof o, out);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        if (null < 0 || chdir(work) != 0)
            _exit(126);
        dup2(null, 0);
        dup2(null, 1);
        dup2(null, 2);
        execle(CT_BINARY, CT_BINARY, "db", "export", "--db", db, "-o", o, (char *)NULL, child_env);
        _exit(127);
    }
    return pid;
}

/* Kill an export with sig once its temporary exists; 1 if it was caught
 * in the act (it may finish first on a fast machine), its status in *st. */
static int interrupt_export(const char *out, int sig, int *st)
{
    char prefix[64];
    pid_t pid = spawn_export(out);
    snprintf(prefix, sizeof prefix, ".convtune-dbexport-%ld-", (long)pid);
    struct timespec nap = {0, 200 * 1000};
    int seen = 0;
    for (int i = 0; i < 50000 && !seen; i++) {
        seen = count_prefixed(work, prefix) > 0;
        if (!seen && waitpid(pid, st, WNOHANG) == pid)
            return 0;
        if (!seen)
            nanosleep(&nap, NULL);
    }
    kill(pid, sig);
    waitpid(pid, st, 0);
    return seen;
}

static void check_signals(void)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    char path[700];
    for (size_t k = 0; k < sizeof sigs / sizeof sigs[0]; k++) {
        int st = 0, caught = 0;
        for (int tries = 0; tries < 20 && !caught; tries++)
            caught = interrupt_export("sig.json", sigs[k], &st);
        CHECK_MSG(caught, "signal %d: never caught db export while it was writing", sigs[k]);
        if (caught)
            CHECK_MSG(WIFSIGNALED(st) && WTERMSIG(st) == sigs[k], "signal %d: status %#x (not killed by it)",
                      sigs[k], st);
        CHECK_MSG(count_prefixed(work, ".convtune-") == 0, "signal %d: the temporary was left behind", sigs[k]);
        wpath(path, sizeof path, "sig.json");
        CHECK_MSG(!exists(path), "signal %d: a half-written sig.json", sigs[k]);
        unlink(path);   /* an export that finished first */
    }
    /* kill -9 leaves the temporary; the next write into the folder removes it */
    int st = 0, caught = 0;
    for (int tries = 0; tries < 20 && !caught; tries++)
        caught = interrupt_export("sig.json", SIGKILL, &st);
    CHECK_MSG(caught, "SIGKILL: never caught db export while it was writing");
    CHECK_MSG(count_prefixed(work, ".convtune-dbexport-") == 1, "SIGKILL: expected its temporary to be left");
    char cmd[4096];
    result r;
    run(&r, cmd, sizeof cmd, (const char *const[]){"db", "export", "--db", "{W}/cli.db", "-o", "{W}/after.json", NULL});
    CHECK_MSG(r.code == 0, "%s: exit %d: %s", cmd, r.code, r.err);
    result_free(&r);
    CHECK_MSG(count_prefixed(work, ".convtune-") == 0, "the stale temporary of the killed export was not removed");
    wpath(path, sizeof path, "after.json");
    CHECK(exists(path));
    unlink(path);
    wpath(path, sizeof path, "sig.json");
    unlink(path);
}

/* ------------------------------------------------------------------------ */
/* Another writer                                                           */

static void check_busy(void)
{
    char path[700], cmd[4096];
    wpath(path, sizeof path, "cli.db");
    /* Before the lock: reading and closing the -shm file in a snapshot
     * would drop this process's POSIX locks on it, the lock included. */
    char *before = snapshot(work);
    sqlite3 *h = NULL;
    CHECK(sqlite3_open(path, &h) == SQLITE_OK);
    CHECK(sqlite3_exec(h, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK);
    run_env[0] = "CONVTUNE_DB_TIMEOUT=2";
    result r;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    run(&r, cmd, sizeof cmd, (const char *const[]){"db", "import", "{W}/good.json", "--db", "{W}/cli.db", NULL});
    clock_gettime(CLOCK_MONOTONIC, &t1);
    run_env[0] = NULL;
    sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL);
    sqlite3_close(h);
    char *after = snapshot(work);
    double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    /* the wait is said after a second, then the give-up: two lines */
    CHECK_MSG(r.code == 5, "%s: exit %d: %s", cmd, r.code, r.err);
    CHECK_MSG(count_char(r.err, r.errlen, '\n') == 2 &&
                  !strncmp(r.err, "convtune: waiting for ", 22) &&
                  strstr(r.err, "the database is busy (another convtune is writing it)\nconvtune: DB: ") &&
                  strstr(r.err, "cli.db: the database is busy (another convtune is writing it); gave up waiting\n") &&
                  !strstr(r.err, "sqlite3_") && !strstr(r.err, "BEGIN"),
              "%s: stderr [%s]", cmd, r.err);
    CHECK_MSG(s >= 1.9 && s < 30, "%s: gave up after %.1f s, expected about 2", cmd, s);
    CHECK_MSG(!strcmp(before, after), "%s: the directory changed", cmd);
    free(before);
    free(after);
    result_free(&r);
}

/* ------------------------------------------------------------------------ */
/* The stub driver                                                          */

static void check_stub_driver(void)
{
    char stubdir[700], link[800], env[800], cmd[4096];
    snprintf(stubdir, sizeof stubdir, "%s/stubs", base);
    snprintf(link, sizeof link, "%s/libcuda.so.1", stubdir);
    /* The toolkit is a prerequisite here (NVRTC comes with it): no stub is
     * a failure, not a skip. */
    CHECK_MSG(access(CT_CUDA_STUB, R_OK) == 0, "the toolkit's stub %s is missing", CT_CUDA_STUB);
    CHECK(mkdir(stubdir, 0755) == 0 && symlink(CT_CUDA_STUB, link) == 0);
    snprintf(env, sizeof env, "LD_LIBRARY_PATH=%s", stubdir);
    run_env[0] = env;
    char *before = snapshot(work);
    result r;
    run(&r, cmd, sizeof cmd, (const char *const[]){"--problem", OKP, "--db", "{W}/tuned.db", NULL});
    run_env[0] = NULL;
    char *after = snapshot(work);
    CHECK_MSG(r.code == 4 && count_char(r.err, r.errlen, '\n') == 1 &&
                  strstr(r.err, "convtune: the CUDA toolkit's stub libcuda.so.1") &&
                  strstr(r.err, "was loaded instead of the NVIDIA driver's; remove the stubs folder from "
                                "LD_LIBRARY_PATH") && !strstr(r.err, "(34)"),
              "%s: exit %d: [%s]", cmd, r.code, r.err);
    CHECK_MSG(!strcmp(before, after), "%s: the directory changed", cmd);
    free(before);
    free(after);
    result_free(&r);
}

/* ------------------------------------------------------------------------ */
/* Setup                                                                    */

static int setup(void)
{
    char path[700], cmd[4096];
    if (cli_make_work() != 0)
        return -1;
    put("block0.ini", "[space.conv1d_tiled]\nBLOCK_SIZE = 0\n");
    put("negative.ini", "[space.conv1d_tiled]\nMASK_PAD = -1, 0\n");
    put("dupkey.ini", "[measure]\nwarmup = 1\nmin_reps = 5\nwarmup = 2\n");
    put("duplist.ini", "[space.conv1d_tiled]\nALIGN = 16\nALIGN = 128\n");
    put("outx0.ini", "[space.conv1dc_simt]\nOUT_X = 0\n");
    put("indent.ini", "[measure]\nwarmup = 3\n  min_reps = 5\n");
    put("zero.db", "");
    put("tiny.db", "x");
    put("target.txt", "keep me\n");
    put("exists.cubin", "an older file\n");
    put("conv1d_tiled.cubin", "an older default-named file\n");
    char target[700];
    wpath(target, sizeof target, "target.txt");
    wpath(path, sizeof path, "link.cubin");
    if (symlink(target, path) != 0)
        return -1;
    wpath(path, sizeof path, "dangling.cubin");
    if (symlink("no-such-file", path) != 0)
        return -1;
    sqlite3 *h = NULL;
    wpath(path, sizeof path, "blank.db");
    if (sqlite3_open(path, &h) != SQLITE_OK || sqlite3_exec(h, "CREATE TABLE t (x); DROP TABLE t;", 0, 0, 0))
        return -1;
    sqlite3_close(h);

    /* cli.db: three valid records, none verified; good.json its export */
    if (make_db("cli.db", 3) != 0 || make_db("big.db", 200) != 0 || make_db("mid.db", 200) != 0)
        return -1;
    result r;
    run(&r, cmd, sizeof cmd, (const char *const[]){"db", "export", "--db", "{W}/cli.db", "-o", "{W}/good.json", NULL});
    int rc = r.code;
    result_free(&r);
    wpath(path, sizeof path, "good.json");
    char *good = slurp(path, NULL);
    if (rc != 0 || !good)
        return -1;
    put_variant("bad_template.json", good, 2, "\"template\":\"conv1d_naive\"", "\"template\":\"conv1d_wino\"");
    put_variant("bad_param.json", good, 1, "{\"BLOCK_SIZE\":96}", "{\"BLOCK_SIZE\":96,\"NOPE\":1}");
    put_variant("bad_value.json", good, 1, "{\"BLOCK_SIZE\":32}", "{\"BLOCK_SIZE\":-1}");
    put_variant("bad_zero.json", good, 1, "{\"BLOCK_SIZE\":32}", "{\"BLOCK_SIZE\":0}");
    put_variant("bad_missing.json", good, 1, "{\"BLOCK_SIZE\":64}", "{}");
    put_variant("bad_family.json", good, 1, "\"family\":\"conv1d\"", "\"family\":\"conv9d\"");
    free(good);
    /* the import file itself is good: into a fresh database, then gone */
    run(&r, cmd, sizeof cmd, (const char *const[]){"db", "import", "{W}/good.json", "--db", "{W}/copy.db", NULL});
    CHECK_MSG(r.code == 0, "%s: exit %d: %s", cmd, r.code, r.err);
    result_free(&r);
    wpath(path, sizeof path, "copy.db");
    unlink(path);
    /* ok.db: one verified record, so that export gets as far as its output */
    ct_db *db = NULL;
    ct_err e;
    long long dev, prob, run_id;
    ct_device_info d = {.name = "NVIDIA CLI Check GPU", .cc_major = 9, .sm_count = 132, .driver_version = 13000,
                        .nvrtc_major = 13};
    ct_result rec;
    ct_result_init(&rec);
    snprintf(rec.tmpl, sizeof rec.tmpl, "conv1d_naive");
    snprintf(rec.params_json, sizeof rec.params_json, "{\"BLOCK_SIZE\":128}");
    rec.status = CT_RS_OK;
    rec.median_us = rec.min_us = rec.max_us = 10;
    char *tsrc = NULL;
    if (ct_template_source("conv1d_naive", NULL, &tsrc, &e) != CT_OK)
        return -1;
    ct_hash_hex(tsrc, rec.template_hash);   /* the template as built in: export takes it */
    free(tsrc);
    rec.reps = 20;
    rec.relerr = 1e-7;
    wpath(path, sizeof path, "ok.db");
    if (ct_db_open(path, 1, &db, &e) != CT_OK || ct_db_device_upsert(db, &d, &dev, &e) != CT_OK ||
        ct_db_problem_upsert(db, "conv1d", "conv1d:1000:31:valid", 61e3, 8e3, &prob, &e) != CT_OK ||
        ct_db_run_begin(db, prob, dev, NULL, &run_id, &e) != CT_OK || ct_db_candidate_add(db, run_id, &rec, &e) != CT_OK) {
        fprintf(stderr, "ok.db: %s\n", e.msg);
        return -1;
    }
    ct_db_close(db);
    /* big.db: 200 records doubled to 25600 (some 15 MB of export), so that
     * an export is caught while it writes */
    wpath(path, sizeof path, "big.db");
    if (sqlite3_open(path, &h) != SQLITE_OK)
        return -1;
    for (int i = 0; i < 7; i++)
        if (sqlite3_exec(h, "INSERT INTO candidates (run_id, problem_id, device_id, template, params, status, error)"
                            " SELECT run_id, problem_id, device_id, template, params, status, error FROM candidates",
                         0, 0, 0) != SQLITE_OK)
            return -1;
    sqlite3_close(h);
    return 0;
}

int main(void)
{
    if (setup() != 0)
        return cli_setup_failed();
    int nrows = (int)(sizeof rows / sizeof rows[0]);
    for (int i = 0; i < nrows; i++)
        check_bad(&rows[i]);
    for (size_t i = 0; i < sizeof env_rows / sizeof env_rows[0]; i++) {
        char *env = expand(env_rows[i].env);
        run_env[0] = env;
        check_bad(&env_rows[i].row);
        run_env[0] = NULL;
        free(env);
        nrows++;
    }
    printf("bad-input rows: %d\n", nrows);
    check_files();
    check_busy();
    check_signals();
    check_stub_driver();
    tl_rm_rf(base);
    CHECK_DONE();
}

/* test_layers.c - the stages of tuner/ (docs/ARCHITECTURE.md)
 * held over every header and source: an #include "X.h" may name a header of
 * its own stage or of one below it (CT_STAGES, the order CMakeLists.txt
 * declares and builds by), and the modules of a stage (X.c with X.h) include
 * each other without a cycle (X_internal.h counts as X's). The build already refuses an upward include
 * in a source it compiles (each stage sees only its own and lower folders);
 * this test also covers headers no source of their stage includes, and
 * cycles, which no include path can refuse. The kernel folders
 * (templates/kernels/K/) are the families stage's code: their C models are
 * read as if they lay in tuner/families/kernels/K/ (their replay tests,
 * test_*.c, are no stage's). The checker runs first on small
 * trees written here (a clean one, then one fault each: an upward include,
 * a cycle, a folder that is no stage, a header name in two folders), which
 * it must refuse naming the fault, then on tuner/. */
#include "check.h"
#include "files.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAXFILES 1024
#define MAXINC 64
#define MAXSTAGES 32

typedef struct lay_file {
    char rel[256];             /* path under the root: "gpu/runner.h" */
    char module[256];          /* rel without its extension: "gpu/runner" */
    const char *base;          /* file name within rel */
    int stage;                 /* index in the stage order, -1 for none */
    int mod;                   /* index of its module */
    int ninc;
    char inc[MAXINC][128];     /* file names of its #include "..." lines */
} lay_file;

/* nftw passes no user pointer: the tree being read. */
static struct {
    const char *root;
    const char *at;   /* where root lies in the checked tree: "" or "families/kernels" */
    lay_file *f;
    int n;
} walk;

/* Reads the #include "..." lines of a .c, .h or .def file into walk. */
static int add_file(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb, (void)ftw;
    size_t n = strlen(path);
    if (flag != FTW_F || !((n > 2 && (!strcmp(path + n - 2, ".c") || !strcmp(path + n - 2, ".h"))) ||
                           (n > 4 && !strcmp(path + n - 4, ".def"))))
        return 0;
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    if (*walk.at && !strncmp(base, "test_", 5))
        return 0;   /* a kernel's replay test: test code, like tests/ */
    if (walk.n == MAXFILES)
        return 1;
    lay_file *lf = &walk.f[walk.n++];
    memset(lf, 0, sizeof *lf);
    snprintf(lf->rel, sizeof lf->rel, "%s%s%s", walk.at, *walk.at ? "/" : "", path + strlen(walk.root) + 1);
    FILE *fp = fopen(path, "r");
    if (!fp)
        return 1;
    char line[1024];
    while (fgets(line, sizeof line, fp)) {
        const char *s = line + strspn(line, " \t");
        if (*s++ != '#')
            continue;
        s += strspn(s, " \t");
        if (strncmp(s, "include", 7) != 0)
            continue;
        s += 7;
        s += strspn(s, " \t");
        const char *end = *s == '"' ? strchr(s + 1, '"') : NULL;
        if (!end || lf->ninc == MAXINC)
            continue;
        const char *name = s + 1;
        for (const char *q = name; q < end; q++)
            if (*q == '/')
                name = q + 1;   /* every folder is searched: the file name decides */
        snprintf(lf->inc[lf->ninc++], sizeof lf->inc[0], "%.*s", (int)(end - name), name);
    }
    fclose(fp);
    return 0;
}

/* Files in path order, so that modules and cycles are named alike on every
 * file system. */
static int by_rel(const void *a, const void *b)
{
    return strcmp(((const lay_file *)a)->rel, ((const lay_file *)b)->rel);
}

/* Checks the tree under root, with the one under mount (may be NULL) read
 * as if it lay at root/at, against stages (comma-separated, bottom-up), one
 * line on out per fault; returns the number of faults. */
static int check_tree(const char *root, const char *mount, const char *at, const char *stages, FILE *out)
{
    char names[MAXSTAGES][64];
    int nstages = 0, faults = 0;
    for (const char *s = stages; *s && nstages < MAXSTAGES;) {
        size_t len = strcspn(s, ",");
        snprintf(names[nstages++], sizeof names[0], "%.*s", (int)len, s);
        s += len + (s[len] == ',');
    }
    walk.root = root;
    walk.at = "";
    walk.f = calloc(MAXFILES, sizeof *walk.f);
    walk.n = 0;
    int bad = !walk.f || nftw(root, add_file, 16, FTW_PHYS) != 0;
    if (!bad && mount) {
        walk.root = mount;
        walk.at = at;
        bad = nftw(mount, add_file, 16, FTW_PHYS) != 0;
    }
    if (bad) {
        fprintf(out, "%s: cannot read the tree (or more than %d files)\n", walk.root, MAXFILES);
        free(walk.f);
        return 1;
    }
    lay_file *f = walk.f;
    int n = walk.n;
    qsort(f, (size_t)n, sizeof *f, by_rel);
    int nmod = 0;
    for (int i = 0; i < n; i++) {
        lay_file *lf = &f[i];
        size_t slash = strcspn(lf->rel, "/");
        lf->base = strrchr(lf->rel, '/') ? strrchr(lf->rel, '/') + 1 : lf->rel;
        lf->stage = -1;
        for (int k = 0; k < nstages; k++)
            if (strlen(names[k]) == slash && !strncmp(lf->rel, names[k], slash))
                lf->stage = k;
        if (lf->stage < 0) {
            fprintf(out, "%s: folder %.*s is no stage (%s)\n", lf->rel, (int)slash, lf->rel, stages);
            faults++;
        }
        /* X_internal.h is the private half of module X's header. */
        int stem = (int)(strrchr(lf->rel, '.') - lf->rel);
        if (stem > 9 && !strncmp(lf->rel + stem - 9, "_internal", 9))
            stem -= 9;
        snprintf(lf->module, sizeof lf->module, "%.*s", stem, lf->rel);
        lf->mod = -1;
        for (int j = 0; j < i && lf->mod < 0; j++)
            if (!strcmp(f[j].module, lf->module))
                lf->mod = f[j].mod;
        if (lf->mod < 0)
            lf->mod = nmod++;
    }
    /* reach[a * nmod + b]: module a includes a header of module b, then
     * (closed below) reaches it. */
    char *reach = calloc((size_t)nmod * (size_t)(nmod ? nmod : 1), 1);
    const char **modname = calloc((size_t)(nmod ? nmod : 1), sizeof *modname);
    for (int i = 0; i < n; i++) {
        modname[f[i].mod] = f[i].module;
        for (int k = 0; k < f[i].ninc; k++) {
            int hit = -1, count = 0;
            for (int j = 0; j < n; j++)
                if (!strcmp(f[j].base, f[i].inc[k]) && strcmp(f[j].base + strlen(f[j].base) - 2, ".c") != 0) {
                    if (hit < 0)
                        hit = j;
                    count++;
                }
            if (hit < 0)
                continue;   /* a system, CUDA, SQLite or inih header */
            if (count > 1) {
                fprintf(out, "%s includes %s: %d files of tuner/ have that name\n", f[i].rel, f[i].inc[k], count);
                faults++;
            }
            if (f[i].stage >= 0 && f[hit].stage > f[i].stage) {
                fprintf(out, "%s includes %s: stage %s is above %s\n", f[i].rel, f[hit].rel, names[f[hit].stage],
                        names[f[i].stage]);
                faults++;
            }
            if (f[hit].mod != f[i].mod)
                reach[f[i].mod * nmod + f[hit].mod] = 1;
        }
    }
    for (int k = 0; k < nmod; k++)
        for (int a = 0; a < nmod; a++)
            if (reach[a * nmod + k])
                for (int b = 0; b < nmod; b++)
                    reach[a * nmod + b] |= reach[k * nmod + b];
    /* A cycle is the set of modules that reach each other, named once, by
     * its first module. */
    for (int a = 0; a < nmod; a++) {
        if (!reach[a * nmod + a])
            continue;
        int first = 1;
        for (int b = 0; b < a; b++)
            if (reach[a * nmod + b] && reach[b * nmod + a])
                first = 0;
        if (!first)
            continue;
        char cyc[2048] = "";
        for (int b = a; b < nmod; b++)
            if (reach[a * nmod + b] && reach[b * nmod + a])
                snprintf(cyc + strlen(cyc), sizeof cyc - strlen(cyc), "%s%s", cyc[0] ? " <-> " : "", modname[b]);
        fprintf(out, "include cycle: %s\n", cyc);
        faults++;
    }
    free(reach);
    free(modname);
    free(walk.f);
    return faults;
}

/* Writes text to base/rel, creating its folder. */
static void put(const char *base, const char *rel, const char *text)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", base, rel);
    char *slash = strrchr(path, '/');
    *slash = '\0';
    mkdir(path, 0755);
    *slash = '/';
    CHECK(tl_write_text(path, text) == 0);
}

/* Runs the checker on base with stages "core,store"; returns its fault
 * count, the report in rep. */
static int check_fixture(const char *base, char *rep, size_t len)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *mem = open_memstream(&buf, &n);
    char mount[600];
    snprintf(mount, sizeof mount, "%s.kern", base);
    int faults = check_tree(base, access(mount, F_OK) == 0 ? mount : NULL, "core/kernels", "core,store", mem);
    fclose(mem);
    snprintf(rep, len, "%s", buf ? buf : "");
    free(buf);
    return faults;
}

/* The checker refuses each fault of a small tree and passes the clean one. */
static void fixtures(void)
{
    const char *tmp = getenv("TMPDIR");
    char base[512], rep[4096], path[1024];
    snprintf(base, sizeof base, "%s/ct_test_layers_XXXXXX", tmp && *tmp ? tmp : P_tmpdir);
    if (!mkdtemp(base)) {
        CHECK(!"mkdtemp");
        return;
    }
    put(base, "core/a.h", "#include <stdio.h>\n");
    put(base, "core/a.c", "#include \"a.h\"\n#include \"sqlite3.h\"\n");
    put(base, "store/b.h", "  #  include \"a.h\"\n");
    put(base, "store/b.c", "#include \"b.h\"\n");
    put(base, "store/c.h", "#include \"a.h\"\n");
    put(base, "store/c.c", "#include \"c.h\"\n#include \"b.h\"\n");
    CHECK_MSG(check_fixture(base, rep, sizeof rep) == 0, "clean tree: %s", rep);

    /* An upward include, in a header no source includes. */
    put(base, "core/up.h", "#include \"store/b.h\"\n");
    CHECK(check_fixture(base, rep, sizeof rep) == 1);
    CHECK_MSG(strstr(rep, "core/up.h includes store/b.h: stage store is above core"), "%s", rep);
    snprintf(path, sizeof path, "%s/core/up.h", base);
    unlink(path);

    /* A cycle of three modules within a stage (b -> c -> d -> b). */
    put(base, "store/d.h", "#include \"c.h\"\n");
    put(base, "store/b.c", "#include \"b.h\"\n#include \"d.h\"\n");
    CHECK(check_fixture(base, rep, sizeof rep) == 1);
    CHECK_MSG(strstr(rep, "include cycle: store/b <-> store/c <-> store/d"), "%s", rep);
    put(base, "store/b.c", "#include \"b.h\"\n");
    CHECK_MSG(check_fixture(base, rep, sizeof rep) == 0, "cycle removed: %s", rep);

    /* A folder that is no stage. */
    put(base, "extra/x.c", "#include \"a.h\"\n");
    CHECK(check_fixture(base, rep, sizeof rep) == 1);
    CHECK_MSG(strstr(rep, "extra/x.c: folder extra is no stage"), "%s", rep);
    snprintf(path, sizeof path, "%s/extra/x.c", base);
    unlink(path);

    /* One header name in two folders: which one a source gets would depend
     * on the include path's order. */
    put(base, "store/a.h", "\n");
    CHECK(check_fixture(base, rep, sizeof rep) >= 1);
    CHECK_MSG(strstr(rep, "includes a.h: 2 files of tuner/ have that name"), "%s", rep);
    snprintf(path, sizeof path, "%s/store/a.h", base);
    unlink(path);

    /* A kernel folder (mounted at core/kernels, as templates/kernels/ is at
     * families/kernels) holds to its stage: a header of its own stage or
     * below passes, one above is refused; its replay test is not read. */
    char kern[600];
    snprintf(kern, sizeof kern, "%s.kern", base);
    mkdir(kern, 0755);
    put(kern, "k1/k1.h", "#include \"a.h\"\n");
    put(kern, "k1/k1.c", "#include \"k1.h\"\n");
    put(kern, "k1/test_k1.c", "#include \"b.h\"\n");
    CHECK_MSG(check_fixture(base, rep, sizeof rep) == 0, "clean kernel folder: %s", rep);
    put(kern, "k1/k1.c", "#include \"k1.h\"\n#include \"b.h\"\n");
    CHECK(check_fixture(base, rep, sizeof rep) == 1);
    CHECK_MSG(strstr(rep, "core/kernels/k1/k1.c includes store/b.h: stage store is above core"), "%s", rep);
    tl_rm_rf(kern);
    tl_rm_rf(base);
}

int main(void)
{
    fixtures();
    int faults = check_tree(CT_SOURCE_DIR "/tuner", CT_SOURCE_DIR "/templates/kernels", "families/kernels", CT_STAGES,
                            stderr);
    CHECK_MSG(faults == 0, "%d faults in tuner/ against the stage order %s", faults, CT_STAGES);
    CHECK_DONE();
}

/* outfile.c - atomic output files (outfile.h). */
#include "outfile.h"

#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void dir_of(const char *path, char *buf, size_t len)
{
    char tmp[1024];
    snprintf(tmp, sizeof tmp, "%s", path);
    snprintf(buf, len, "%s", dirname(tmp));
}

ct_status ct_outfile_check(const char *path, int force, const char *what, ct_err *e)
{
    struct stat st;
    if (!path || !*path)
        return ct_fail(e, CT_ERR_USAGE, "%s: no output file given", what);
    if (strlen(path) >= 1000)
        return ct_fail(e, CT_ERR_IO, "%s: output path too long", what);
    if (lstat(path, &st) == 0) {
        if (S_ISLNK(st.st_mode))
            return ct_fail(e, CT_ERR_IO, "%s: %s is a symbolic link; refusing to write through it", what, path);
        if (!force)
            return ct_fail(e, CT_ERR_IO, "%s: %s exists (use --force to replace it)", what, path);
        if (!S_ISREG(st.st_mode))
            return ct_fail(e, CT_ERR_IO, "%s: %s exists and is not a regular file", what, path);
    }
    char dir[1024];
    dir_of(path, dir, sizeof dir);
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return ct_fail(e, CT_ERR_IO, "%s: directory %s does not exist", what, dir);
    return CT_OK;
}

ct_status ct_outfile_open(ct_outfile *o, const char *path, const char *prefix, const char *what, ct_err *e)
{
    memset(o, 0, sizeof *o);
    o->what = what;
    snprintf(o->path, sizeof o->path, "%s", path);
    char dir[1024];
    dir_of(path, dir, sizeof dir);
    char tmp[sizeof o->tmp];
    snprintf(tmp, sizeof tmp, "%s/%sXXXXXX", dir, prefix);
    int fd = mkstemp(tmp);
    if (fd < 0)
        return ct_fail(e, CT_ERR_IO, "%s: cannot create a file in %s: %s", what, dir, strerror(errno));
    snprintf(o->tmp, sizeof o->tmp, "%s", tmp);
    o->f = fdopen(fd, "w");
    if (!o->f) {
        int err = errno;
        close(fd);
        unlink(o->tmp);
        o->tmp[0] = '\0';
        return ct_fail(e, CT_ERR_IO, "%s: %s", what, strerror(err));
    }
    return CT_OK;
}

ct_status ct_outfile_close(ct_outfile *o, ct_err *e)
{
    if (!o->f)
        return ct_fail(e, CT_ERR_INTERNAL, "%s: %s is not open", o->what, o->path);
    int werr = ferror(o->f);
    werr |= fflush(o->f) != 0;
    werr |= fsync(fileno(o->f)) != 0;
    werr |= fclose(o->f) != 0;
    o->f = NULL;
    if (werr) {
        ct_outfile_discard(o);
        return ct_fail(e, CT_ERR_IO, "%s: writing %s failed", o->what, o->path);
    }
    chmod(o->tmp, 0644);
    return CT_OK;
}

ct_status ct_outfile_commit(ct_outfile *o, ct_err *e)
{
    if (o->f || !o->tmp[0])
        return ct_fail(e, CT_ERR_INTERNAL, "%s: %s is not ready to be renamed", o->what, o->path);
    if (rename(o->tmp, o->path) != 0) {
        int err = errno;
        ct_outfile_discard(o);
        return ct_fail(e, CT_ERR_IO, "%s: cannot rename to %s: %s", o->what, o->path, strerror(err));
    }
    o->tmp[0] = '\0';
    return CT_OK;
}

void ct_outfile_discard(ct_outfile *o)
{
    if (o->f) {
        fclose(o->f);
        o->f = NULL;
    }
    if (o->tmp[0]) {
        unlink(o->tmp);
        o->tmp[0] = '\0';
    }
}

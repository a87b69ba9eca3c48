/* main.c - the convtune command line. Parses arguments, calls the library,
 * prints its one-line error and exits with its status code. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "compile.h"
#include "worker.h"

int main(int argc, char **argv)
{
    /* The GPU worker a tuning run starts (worker.h); not a user command. */
    if (argc == 3 && !strcmp(argv[1], "__worker")) {
        char *end;
        long fd = strtol(argv[2], &end, 10);
        if (*end || fd < 0 || fd > 65535)
            return CT_ERR_USAGE;
        return ct_worker_serve((int)fd);
    }
    if (argc > 2 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "help"))) {
        say(0, "%s takes no other argument ('%s')", argv[1], ECHO(argv[2]));
        return CT_ERR_USAGE;
    }
    if (argc >= 2 && !strcmp(argv[1], "--version")) {
        printf("convtune %s (NVRTC %d.%d)\n", CONVTUNE_VERSION, ct_nvrtc_version() / 1000,
               ct_nvrtc_version() % 1000 / 10);
        return 0;
    }
    ct_db_on_wait(db_waiting);
    if (argc >= 2 && !strcmp(argv[1], "db"))
        return cmd_db(argc, argv);
    const cli_command *cmds = cli_commands;
    int start = 1, which = 0;
    if (argc >= 2 && argv[1][0] != '-') {
        which = -1;
        for (int i = 0; i < cli_ncommands; i++)
            if (!strcmp(argv[1], cmds[i].name))
                which = i;
        if (!strcmp(argv[1], "help")) {
            usage_main(stdout);
            return 0;
        }
        if (which < 0) {
            const char *names[32] = {"help", "db"};
            int nn = 2;
            for (int i = 0; i < cli_ncommands && nn < 32; i++)
                names[nn++] = cmds[i].name;
            return say_unknown("command", argv[1], names, nn, "convtune --help");
        }
        start = 2;
    }
    if (argc < 2) {
        /* One line, like every other error; the usage is one --help away. */
        say(0, "no command or --problem given; try 'convtune --help'");
        return CT_ERR_USAGE;
    }
    args a;
    if (!parse_args(argc, argv, start, cmds[which].repeats, cmds[which].opts, &a))
        return CT_ERR_USAGE;
    /* Only completion takes a word (its shell); man says what it got. */
    if (a.npos && cmds[which].fn != cmd_completion && cmds[which].fn != cmd_man) {
        say(0, "unknown option '%s' (see convtune --help)", ECHO(a.pos[0]));
        return CT_ERR_USAGE;
    }
    if (a.help) {
        if (start == 1)
            usage_main(stdout);
        else
            fputs(cmds[which].usage, stdout);
        return 0;
    }
    int r = check_options(&a, cmds[which].opts, cmds[which].name);
    return r ? r : cmds[which].fn(&a);
}

/* cli_report.h - the `convtune report` command: its options, its checks and
 * its one-line errors (the report itself is report.h). */
#ifndef CT_CLI_REPORT_H
#define CT_CLI_REPORT_H

/* argv[0] is "report"; returns the exit status (a ct_status), after printing
 * the result line or the one error line. */
int ct_cli_report(int argc, char **argv);

extern const char ct_cli_report_usage[];

#endif

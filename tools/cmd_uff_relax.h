/* vkmd uff relax | md (tools/cmd_uff_relax.c), dispatched by cmd_uff.c. */
#ifndef VKMD_TOOLS_CMD_UFF_RELAX_H
#define VKMD_TOOLS_CMD_UFF_RELAX_H

#include <stdio.h>

/* argv[0] is "relax" / "md"; return the process exit code (0 ok, 1 failure,
 * 2 usage error). */
int cmd_uff_relax(int argc, char **argv);
int cmd_uff_md(int argc, char **argv);

/* Usage text of both subcommands. */
void cmd_uff_relax_usage(FILE *out);

#endif

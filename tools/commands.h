/* Subcommands of the vkmd tool. Each parses its own arguments, calls the
 * engine, prints errors with file/line detail and returns the exit code. */
#ifndef VKMD_TOOLS_COMMANDS_H
#define VKMD_TOOLS_COMMANDS_H

int cmd_devices(int argc, char **argv);
int cmd_energy(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_equilibrate(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_uff(int argc, char **argv);
int cmd_view(int argc, char **argv);

/* Prints "vkmd <what>: <result>: <detail>" to stderr; returns exit code 1. */
int tool_error(const char *what, int result);

#endif

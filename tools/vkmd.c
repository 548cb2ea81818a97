/* The vkmd command: dispatches to a subcommand (tools/cmd_*.c). */
#include "commands.h"
#include "core/result.h"

#include <stdio.h>
#include <string.h>

typedef struct command {
    const char *name;
    int (*fn)(int, char **);
    const char *help;
} command;

static const command commands[] = {
    {"devices", cmd_devices, "list Vulkan devices and their features (--json)"},
    {"run", cmd_run, "molecular dynamics on a GPU, in a live window when there is a display"},
    {"equilibrate", cmd_equilibrate,
     "minimise, heat, bring to density and release a solvated system (restraints, NPT)"},
    {"view", cmd_view, "show a structure or play a trajectory (DCD) in a window"},
    {"energy", cmd_energy, "energies and forces of a system on the CPU reference or a GPU"},
    {"bench", cmd_bench, "time force evaluations on a device, split by pass (--forces)"},
    {"uff", cmd_uff, "UFF energies and forces of small molecules (uff energy MOL)"},
};

int tool_error(const char *what, int result)
{
    fprintf(stderr, "vkmd %s: %s: %s\n", what, vkmd_result_str((vkmd_result)result),
            vkmd_last_error());
    return 1;
}

static void usage(FILE *out)
{
    fprintf(out,
            "vkmd %s (%s): molecular dynamics on any GPU through Vulkan compute\n\n"
            "usage: vkmd <command> [options]   (vkmd <command> --help for details)\n\n",
            VKMD_VERSION, VKMD_GIT_COMMIT);
    for (size_t i = 0; i < sizeof commands / sizeof *commands; ++i)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].help);
    fprintf(out, "\nSystems: an AMBER prmtop (with --coords inpcrd|rst7|pdb) or water:N (N TIP3P "
                 "waters at 0.997 g/cm^3).\n");
}

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("vkmd %s (%s)\n", VKMD_VERSION, VKMD_GIT_COMMIT);
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof *commands; ++i)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "vkmd: unknown command '%s'\n\n", argv[1]);
    usage(stderr);
    return 2;
}

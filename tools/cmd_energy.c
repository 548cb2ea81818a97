/* placeholder until the energy command lands (replaced in this session) */
#include "commands.h"
int cmd_energy(int argc, char **argv) { return 1; }

/* placeholder until engine/vk lands (replaced in this session) */
#include "commands.h"
int cmd_devices(int argc, char **argv) { return 1; }

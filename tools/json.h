/* JSON output helpers shared by the vkmd subcommands. */
#ifndef VKMD_TOOLS_JSON_H
#define VKMD_TOOLS_JSON_H

#include "vk/context.h"

#include <stdio.h>

/* Writes `s` as a JSON string literal: quotes, backslash escapes, control
 * characters as \u00XX. */
void json_string(FILE *out, const char *s);

/* The device as one JSON object: name, vendor, type, driver name, info and
 * version, Vulkan version. */
void json_device(FILE *out, const vkmd_vk_device_info *d);

#endif

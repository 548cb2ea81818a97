/* A Vulkan device's identity as one JSON object, as the benchmark result
 * files and `vkmd devices --json` record it. */
#ifndef VKMD_VK_DEVICE_JSON_H
#define VKMD_VK_DEVICE_JSON_H

#include "vk/context.h"

#include <stdio.h>

/* Writes {"name", "vendor", "type", "driver_name", "driver_info",
 * "driver_version", "vulkan": "major.minor.patch"} on one line. */
void vkmd_vk_device_write_json(FILE *out, const vkmd_vk_device_info *d);

#endif

/* Vulkan devices as JSON: one device's identity as the benchmark result
 * files record it, and the full list as `vkmd devices --json` prints it. */
#ifndef VKMD_VK_DEVICE_JSON_H
#define VKMD_VK_DEVICE_JSON_H

#include "vk/context.h"

#include <stdio.h>

/* Writes {"name", "vendor", "type", "driver_name", "driver_info",
 * "driver_version", "vulkan": "major.minor.patch"} on one line. */
void vkmd_vk_device_write_json(FILE *out, const vkmd_vk_device_info *d);

/* Writes {"devices": [...]} over several lines, one object per device of
 * devs[n] with its identity, driver, memory (bytes), limits and optional
 * features, "default": true on devs[default_index] (UINT32_MAX: none). */
void vkmd_vk_devices_write_json(FILE *out, const vkmd_vk_device_info *devs, uint32_t n,
                                uint32_t default_index);

#endif

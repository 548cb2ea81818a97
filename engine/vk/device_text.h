/* A Vulkan device as text, as `vkmd devices` lists it: identity, driver,
 * API version, memory, the optional features vkmd uses and the compute
 * limits (the JSON form is device_json.h). */
#ifndef VKMD_VK_DEVICE_TEXT_H
#define VKMD_VK_DEVICE_TEXT_H

#include "vk/context.h"

#include <stdio.h>

/* Writes device d over several lines ("N: NAME  [default]" when is_default,
 * then vendor, type, driver, api, memory, features, compute). */
void vkmd_vk_device_write_text(FILE *out, const vkmd_vk_device_info *d, int is_default);

#endif

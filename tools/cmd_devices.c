/* `vkmd devices [--json]`: every Vulkan device with its identity, driver,
 * memory and the optional features vkmd uses, and which one vkmd picks by
 * default (honouring $VKMD_DEVICE). Exit 0 when at least one device is
 * listed; 1 with a clear message when there is none. */
#include "commands.h"
#include "vk/device_json.h"
#include "vk/device_text.h"
#include "vk/context.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cmd_devices(int argc, char **argv)
{
    int json = 0;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--json")) {
            json = 1;
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("usage: vkmd devices [--json]\n\n"
                   "Lists every Vulkan device with vendor, driver, API version, memory and the\n"
                   "optional features vkmd uses; [default] marks the device vkmd picks\n"
                   "(discrete > integrated > virtual > cpu, or $VKMD_DEVICE: an index or a\n"
                   "name substring).\n");
            return 0;
        } else {
            fprintf(stderr, "vkmd devices: unknown option '%s' (try --help)\n", argv[i]);
            return 2;
        }
    }
    vkmd_vk_device_info *devs = NULL;
    uint32_t n = 0;
    vkmd_result res = vkmd_vk_devices_list(&devs, &n);
    if (res != VKMD_OK)
        return tool_error("devices", res);
    if (n == 0) {
        fprintf(stderr, "vkmd devices: no Vulkan device found (is a Vulkan driver installed? on a "
                        "machine without a GPU, Mesa's lavapipe: mesa-vulkan-drivers)\n");
        free(devs);
        return 1;
    }
    uint32_t def = UINT32_MAX;
    if (vkmd_vk_devices_choose(devs, n, getenv("VKMD_DEVICE"), &def) != VKMD_OK)
        def = UINT32_MAX; /* listed anyway; the reason shows when a command runs */
    if (json) {
        vkmd_vk_devices_write_json(stdout, devs, n, def);
    } else {
        for (uint32_t i = 0; i < n; ++i)
            vkmd_vk_device_write_text(stdout, &devs[i], i == def);
    }
    free(devs);
    return 0;
}

/* `vkmd devices [--json]`: every Vulkan device with its identity, driver,
 * memory and the optional features vkmd uses, and which one vkmd picks by
 * default (honouring $VKMD_DEVICE). Exit 0 when at least one device is
 * listed; 1 with a clear message when there is none. */
#include "commands.h"
#include "vk/device_json.h"
#include "vk/context.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void print_bytes(FILE *out, uint64_t b)
{
    if (b >= (1ull << 30))
        fprintf(out, "%.1f GiB", (double)b / (double)(1ull << 30));
    else
        fprintf(out, "%.0f MiB", (double)b / (double)(1ull << 20));
}

static const char *yes(int v)
{
    return v ? "yes" : "no";
}

static void print_text(const vkmd_vk_device_info *d, int is_default)
{
    printf("%u: %s%s\n", d->index, d->name, is_default ? "  [default]" : "");
    printf("    vendor    %s (0x%04x), device 0x%04x\n", d->vendor_name, d->vendor_id,
           d->device_id);
    printf("    type      %s\n", d->type_name);
    printf("    driver    %s, %s, version %s\n", d->driver_name[0] ? d->driver_name : "?",
           d->driver_info[0] ? d->driver_info : "?", d->driver_version_str);
    printf("    api       Vulkan %u.%u.%u\n", VK_API_VERSION_MAJOR(d->api_version),
           VK_API_VERSION_MINOR(d->api_version), VK_API_VERSION_PATCH(d->api_version));
    printf("    memory    device-local ");
    print_bytes(stdout, d->device_local_bytes);
    printf(", host ");
    print_bytes(stdout, d->host_bytes);
    printf("%s\n", d->unified_memory ? " (unified: no staging)" : "");
    const vkmd_vk_features *f = &d->features;
    printf("    features  float16 %s, 16-bit storage %s, int64 %s, int64 atomics %s, "
           "float32 atomic add %s\n",
           yes(f->shader_float16), yes(f->storage_buffer_16bit), yes(f->shader_int64),
           yes(f->buffer_int64_atomics), yes(f->buffer_float32_atomic_add));
    printf("    compute   subgroup %u, workgroup <= %u, shared %u KiB, timestamps %s",
           f->subgroup_size, d->max_workgroup_invocations, d->max_shared_memory_bytes / 1024,
           yes(f->timestamps));
    if (f->timestamps)
        printf(" (%.3g ns/tick)", d->timestamp_period_ns);
    printf("\n");
    if (!d->usable)
        printf("    unusable: vkmd needs Vulkan 1.2 and a compute queue\n");
}

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
            print_text(&devs[i], i == def);
    }
    free(devs);
    return 0;
}

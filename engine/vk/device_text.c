/* A Vulkan device as `vkmd devices` lists it (see device_text.h). */
#include "vk/device_text.h"

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

void vkmd_vk_device_write_text(FILE *out, const vkmd_vk_device_info *d, int is_default)
{
    fprintf(out, "%u: %s%s\n", d->index, d->name, is_default ? "  [default]" : "");
    fprintf(out, "    vendor    %s (0x%04x), device 0x%04x\n", d->vendor_name, d->vendor_id,
            d->device_id);
    fprintf(out, "    type      %s\n", d->type_name);
    fprintf(out, "    driver    %s, %s, version %s\n", d->driver_name[0] ? d->driver_name : "?",
            d->driver_info[0] ? d->driver_info : "?", d->driver_version_str);
    fprintf(out, "    api       Vulkan %u.%u.%u\n", VK_API_VERSION_MAJOR(d->api_version),
            VK_API_VERSION_MINOR(d->api_version), VK_API_VERSION_PATCH(d->api_version));
    fprintf(out, "    memory    device-local ");
    print_bytes(out, d->device_local_bytes);
    fprintf(out, ", host ");
    print_bytes(out, d->host_bytes);
    fprintf(out, "%s\n", d->unified_memory ? " (unified: no staging)" : "");
    const vkmd_vk_features *f = &d->features;
    fprintf(out,
            "    features  float16 %s, 16-bit storage %s, int64 %s, int64 atomics %s, "
            "float32 atomic add %s, conditional dispatch %s\n",
            yes(f->shader_float16), yes(f->storage_buffer_16bit), yes(f->shader_int64),
            yes(f->buffer_int64_atomics), yes(f->buffer_float32_atomic_add),
            yes(f->conditional_rendering));
    fprintf(out, "    compute   subgroup %u, workgroup <= %u, shared %u KiB, timestamps %s",
            f->subgroup_size, d->max_workgroup_invocations, d->max_shared_memory_bytes / 1024,
            yes(f->timestamps));
    if (f->timestamps)
        fprintf(out, " (%.3g ns/tick)", d->timestamp_period_ns);
    fprintf(out, "\n");
    if (!d->usable)
        fprintf(out, "    unusable: vkmd needs Vulkan 1.2 and a compute queue\n");
}

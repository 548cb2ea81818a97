/* Devices as JSON (see device_json.h). */
#include "vk/device_json.h"
#include "core/json_write.h"

void vkmd_vk_device_write_json(FILE *out, const vkmd_vk_device_info *d)
{
    fprintf(out, "{\"name\": ");
    vkmd_json_write_string(out, d->name);
    fprintf(out, ", \"vendor\": ");
    vkmd_json_write_string(out, d->vendor_name);
    fprintf(out, ", \"type\": ");
    vkmd_json_write_string(out, d->type_name);
    fprintf(out, ", \"driver_name\": ");
    vkmd_json_write_string(out, d->driver_name);
    fprintf(out, ", \"driver_info\": ");
    vkmd_json_write_string(out, d->driver_info);
    fprintf(out, ", \"driver_version\": ");
    vkmd_json_write_string(out, d->driver_version_str);
    fprintf(out, ", \"vulkan\": \"%u.%u.%u\"}", VK_API_VERSION_MAJOR(d->api_version),
            VK_API_VERSION_MINOR(d->api_version), VK_API_VERSION_PATCH(d->api_version));
}

static void write_one(FILE *out, const vkmd_vk_device_info *d, int is_default, int last)
{
    const vkmd_vk_features *f = &d->features;
    fprintf(out, "    {\n      \"index\": %u,\n      \"name\": ", d->index);
    vkmd_json_write_string(out, d->name);
    fprintf(out, ",\n      \"default\": %s,\n      \"usable\": %s,\n",
            is_default ? "true" : "false", d->usable ? "true" : "false");
    fprintf(out, "      \"vendor\": ");
    vkmd_json_write_string(out, d->vendor_name);
    fprintf(out, ",\n      \"vendor_id\": %u,\n      \"device_id\": %u,\n      \"type\": \"%s\",\n",
            d->vendor_id, d->device_id, d->type_name);
    fprintf(out, "      \"driver_name\": ");
    vkmd_json_write_string(out, d->driver_name);
    fprintf(out, ",\n      \"driver_info\": ");
    vkmd_json_write_string(out, d->driver_info);
    fprintf(out, ",\n      \"driver_version\": ");
    vkmd_json_write_string(out, d->driver_version_str);
    fprintf(out, ",\n      \"api_version\": \"%u.%u.%u\",\n", VK_API_VERSION_MAJOR(d->api_version),
            VK_API_VERSION_MINOR(d->api_version), VK_API_VERSION_PATCH(d->api_version));
    fprintf(out, "      \"device_local_bytes\": %llu,\n      \"host_bytes\": %llu,\n",
            (unsigned long long)d->device_local_bytes, (unsigned long long)d->host_bytes);
    fprintf(out, "      \"unified_memory\": %s,\n", d->unified_memory ? "true" : "false");
    fprintf(out,
            "      \"max_workgroup_invocations\": %u,\n      \"max_shared_memory_bytes\": %u,\n",
            d->max_workgroup_invocations, d->max_shared_memory_bytes);
    fprintf(out, "      \"features\": {\n");
    fprintf(out, "        \"shader_float16\": %s,\n", f->shader_float16 ? "true" : "false");
    fprintf(out, "        \"storage_buffer_16bit_access\": %s,\n",
            f->storage_buffer_16bit ? "true" : "false");
    fprintf(out, "        \"shader_int64\": %s,\n", f->shader_int64 ? "true" : "false");
    fprintf(out, "        \"shader_buffer_int64_atomics\": %s,\n",
            f->buffer_int64_atomics ? "true" : "false");
    fprintf(out, "        \"shader_buffer_float32_atomic_add\": %s,\n",
            f->buffer_float32_atomic_add ? "true" : "false");
    fprintf(out, "        \"conditional_rendering\": %s,\n",
            f->conditional_rendering ? "true" : "false");
    fprintf(out, "        \"subgroup_size\": %u,\n", f->subgroup_size);
    fprintf(out, "        \"timestamps\": %s,\n", f->timestamps ? "true" : "false");
    fprintf(out, "        \"timestamp_period_ns\": %.9g\n", d->timestamp_period_ns);
    fprintf(out, "      }\n    }%s\n", last ? "" : ",");
}

void vkmd_vk_devices_write_json(FILE *out, const vkmd_vk_device_info *devs, uint32_t n,
                                uint32_t default_index)
{
    fprintf(out, "{\n  \"devices\": [\n");
    for (uint32_t i = 0; i < n; ++i)
        write_one(out, &devs[i], i == default_index, i + 1 == n);
    fprintf(out, "  ]\n}\n");
}

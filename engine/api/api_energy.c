/* One configuration's energy, the device list and DCD trajectories for the
 * public API (include/vkmd.h): what `vkmd energy --device D --json`,
 * `vkmd devices --json` and the run's trajectory reporter do, as text and
 * arrays a client (the Python package) reads back. JSON is written by the
 * commands' own writers into memory, so a client's figures are the
 * command's to the last digit. */
#define _POSIX_C_SOURCE 200809L
#include "api/api_context.h"
#include "api/api_dynamics.h"
#include "api/api_system.h"
#include "forces/energy_report.h"
#include "forces/forcefield.h"
#include "io/dcd.h"
#include "vk/device_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void vkmd_free(void *p)
{
    free(p);
}

/* A memory stream for a JSON writer; *buf receives the text on close. */
static vkmd_result json_open(char **buf, size_t *size, FILE **out)
{
    *buf = NULL;
    *out = open_memstream(buf, size);
    return *out ? VKMD_OK : vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "no memory for a JSON text");
}

static vkmd_result json_close(FILE *f, char **buf, char **out_json)
{
    const int bad = ferror(f) != 0;
    if (fclose(f) != 0 || bad || !*buf) {
        free(*buf);
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "writing a JSON text in memory failed");
    }
    *out_json = *buf;
    return VKMD_OK;
}

vkmd_result vkmd_devices_json(char **out_json)
{
    if (!out_json)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "vkmd_devices_json: out_json is NULL");
    *out_json = NULL;
    vkmd_vk_device_info *devs = NULL;
    uint32_t n = 0;
    VKMD_TRY_RETURN(vkmd_vk_devices_list(&devs, &n));
    if (n == 0) {
        free(devs);
        return vkmd_fail(VKMD_ERROR_NO_DEVICE,
                         "no Vulkan device found (is a Vulkan driver installed? on a machine "
                         "without a GPU, Mesa's lavapipe: mesa-vulkan-drivers)");
    }
    uint32_t def = UINT32_MAX;
    if (vkmd_vk_devices_choose(devs, n, getenv("VKMD_DEVICE"), &def) != VKMD_OK)
        def = UINT32_MAX;
    char *buf;
    size_t size;
    FILE *f;
    vkmd_result res = json_open(&buf, &size, &f);
    if (res == VKMD_OK) {
        vkmd_vk_devices_write_json(f, devs, n, def);
        res = json_close(f, &buf, out_json);
    }
    free(devs);
    return res;
}

vkmd_result vkmd_sys_energy(const vkmd_sys *sys, vkmd_context *ctx, double cutoff_a,
                            vkmd_precision_mode precision, char **out_json, double *out_forces)
{
    if (out_json)
        *out_json = NULL;
    if (!sys || !ctx || !out_json)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "vkmd_sys_energy: %s is NULL",
                         !sys   ? "sys"
                         : !ctx ? "ctx"
                                : "out_json");
    if (!(cutoff_a >= 0) || (int)precision < VKMD_PRECISION_MODE_AUTO ||
        (int)precision > VKMD_PRECISION_MODE_FIXED)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "vkmd_sys_energy: cutoff %g A (>= 0, 0: 9 A) or precision %d out of range",
                         cutoff_a, (int)precision);
    const vkmd_system *s = &sys->system;
    vkmd_vk_context *vk = ctx->vk;
    vkmd_result res = VKMD_OK;
    vkmd_ff_settings ff = {.cutoff_a = cutoff_a, .gb = sys->gb};
    vkmd_precision_choice choice;
    vkmd_forcefield *field = NULL;
    vkmd_energy e;
    memset(&e, 0, sizeof e);
    double *forces = calloc(3 * (size_t)(s->atom_count > 0 ? s->atom_count : 1), sizeof *forces);
    char label[320], *buf = NULL;
    size_t size;
    FILE *f = NULL;
    if (!forces)
        VKMD_TRY(vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "forces of %d atoms", s->atom_count));
    /* As vkmd energy: coordinates and box against the cutoff, settings, the
     * precision resolved on the device, one evaluation. */
    VKMD_TRY(
        vkmd_system_check_coordinates(s, cutoff_a > 0 ? cutoff_a : VKMD_FF_CUTOFF_A, sys->source));
    VKMD_TRY(vkmd_ff_settings_resolve(&ff, s));
    snprintf(label, sizeof label, "%s (Vulkan device %u)", vk->info.name, vk->info.index);
    VKMD_TRY(vkmd_precision_resolve(
        &(vkmd_precision_request){.precision = vkmd_api_precision(precision)}, vk, s, &ff,
        &choice));
    const vkmd_forcefield_desc fdesc = {.settings = &ff};
    VKMD_TRY(vkmd_forcefield_create(vk, s, &fdesc, &field));
    VKMD_TRY(vkmd_forcefield_evaluate(vk, field, NULL, &e, forces));
    VKMD_TRY(json_open(&buf, &size, &f));
    const vkmd_energy_report_desc report = {
        .system = sys->spec, .device = label, .choice = &choice, .json = 1};
    res = vkmd_energy_report_write(f, &report, s, &ff, &e);
    if (res != VKMD_OK) {
        fclose(f);
        free(buf);
        goto cleanup;
    }
    VKMD_TRY(json_close(f, &buf, out_json));
    if (out_forces)
        memcpy(out_forces, forces, 3 * (size_t)s->atom_count * sizeof *forces);
cleanup:
    vkmd_forcefield_destroy(vk, field);
    free(forces);
    return res;
}

/* ---- DCD ------------------------------------------------------------------ */

struct vkmd_dcd {
    vkmd_dcd_writer *w;
};

vkmd_result vkmd_dcd_create(const char *path, int32_t atom_count, int periodic, double dt_fs,
                            int32_t steps_per_frame, vkmd_dcd **out_dcd)
{
    if (!out_dcd)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "vkmd_dcd_create: out_dcd is NULL");
    *out_dcd = NULL;
    if (!path || atom_count < 1 || !(dt_fs >= 0) || steps_per_frame < 0)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "vkmd_dcd_create: %s (atom_count %d, dt_fs %g, steps_per_frame %d)",
                         path ? "bad argument" : "no path", (int)atom_count, dt_fs,
                         (int)steps_per_frame);
    vkmd_dcd *d = calloc(1, sizeof *d);
    if (!d)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "vkmd_dcd_create: out of memory");
    const vkmd_dcd_desc desc = {.atom_count = atom_count,
                                .periodic = periodic != 0,
                                .dt_fs = dt_fs,
                                .steps_per_frame = steps_per_frame ? steps_per_frame : 1};
    vkmd_result res = vkmd_dcd_writer_create(path, &desc, &d->w);
    if (res != VKMD_OK) {
        free(d);
        return res;
    }
    *out_dcd = d;
    return VKMD_OK;
}

vkmd_result vkmd_dcd_append(vkmd_dcd *dcd, const double *xyz, const double box_a[3])
{
    if (!dcd || !xyz)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "vkmd_dcd_append: %s is NULL",
                         dcd ? "xyz" : "dcd");
    vkmd_box box = {0};
    if (box_a && box_a[0] > 0) {
        vkmd_box_set_rect(&box, box_a);
    }
    return vkmd_dcd_writer_append(dcd->w, xyz, box.periodic ? &box : NULL);
}

vkmd_result vkmd_dcd_close(vkmd_dcd *dcd)
{
    if (!dcd)
        return VKMD_OK;
    vkmd_result res = vkmd_dcd_writer_close(dcd->w);
    free(dcd);
    return res;
}

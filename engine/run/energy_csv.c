/* Energy CSV of a run (see energy_csv.h). */
#include "run/energy_csv.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct vkmd_energy_csv {
    FILE *f;
    char *path;
    int periodic;
    int restraint_column;
    int failed; /* a write failed and was reported: close adds no second message */
};

static vkmd_result csv_io_error(const vkmd_energy_csv *c, const char *what)
{
    return vkmd_fail(VKMD_ERROR_IO, "%s: %s failed: %s", c->path, what,
                     errno ? strerror(errno) : "unknown error");
}

vkmd_result vkmd_energy_csv_create(const char *path, const vkmd_energy_csv_desc *d,
                                   vkmd_energy_csv **out_csv)
{
    *out_csv = NULL;
    if (!d->system || !d->system[0])
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s: energy CSV needs a system name", path);
    vkmd_energy_csv *c = calloc(1, sizeof *c);
    size_t len = strlen(path) + 1;
    if (!c || !(c->path = malloc(len))) {
        free(c);
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: energy CSV", path);
    }
    memcpy(c->path, path, len);
    c->periodic = d->periodic;
    c->restraint_column = d->restraint_column;
    c->f = fopen(path, d->append ? "a" : "w");
    if (!c->f) {
        vkmd_result res =
            vkmd_fail(VKMD_ERROR_IO, "%s: cannot open for writing: %s", path, strerror(errno));
        free(c->path);
        free(c);
        return res;
    }
    struct stat st;
    int empty = !d->append || (fstat(fileno(c->f), &st) == 0 && st.st_size == 0);
    if (empty) {
        FILE *f = c->f;
        fprintf(f, "# vkmd run energies: system %s", d->system);
        if (d->atom_count > 0)
            fprintf(f, ", %d atoms", d->atom_count);
        if (d->dof > 0)
            fprintf(f, ", %lld degrees of freedom", (long long)d->dof);
        fprintf(f, "\n# integrator %s", d->integrator && d->integrator[0] ? d->integrator : "?");
        if (d->dt_fs > 0)
            fprintf(f, ", dt %g fs", d->dt_fs);
        if (d->temperature_k > 0)
            fprintf(f, ", T %g K", d->temperature_k);
        if (d->friction_per_ps > 0)
            fprintf(f, ", friction %g /ps", d->friction_per_ps);
        fputc('\n', f);
        if (d->settings && d->settings[0])
            fprintf(f, "# %s\n", d->settings);
        fprintf(f,
                "# units: time ps, energies kcal/mol, temperature K, speed simulated ns per "
                "day of wall time (0 until measured)%s\n",
                d->periodic ? ", volume A^3, density g/cm^3, box edges A" : "");
        fprintf(f, "%s%s%s\n", VKMD_ENERGY_CSV_COLUMNS,
                d->restraint_column ? VKMD_ENERGY_CSV_RESTRAINT_COLUMN : "",
                d->periodic ? VKMD_ENERGY_CSV_BOX_COLUMNS : "");
    }
    errno = 0;
    if (ferror(c->f) || fflush(c->f) != 0) {
        vkmd_result res = csv_io_error(c, "writing the header");
        vkmd_energy_csv_close(c);
        return res;
    }
    *out_csv = c;
    return VKMD_OK;
}

vkmd_result vkmd_energy_csv_write(vkmd_energy_csv *c, const vkmd_energy_row *r)
{
    const double v[12] = {
        r->time_ps,       r->potential_kcal_mol, r->kinetic_kcal_mol,   r->total_kcal_mol,
        r->temperature_k, r->ns_per_day,         r->restraint_kcal_mol, r->volume_a3,
        r->density_g_cm3, r->box_a[0],           r->box_a[1],           r->box_a[2]};
    static const char *const names[12] = {"time_ps",
                                          "potential_kcal_mol",
                                          "kinetic_kcal_mol",
                                          "total_kcal_mol",
                                          "temperature_K",
                                          "ns_per_day",
                                          "restraint_kcal_mol",
                                          "volume_A3",
                                          "density_g_cm3",
                                          "box_x_A",
                                          "box_y_A",
                                          "box_z_A"};
    for (int k = 0; k < 12; ++k) {
        if ((k == 6 && !c->restraint_column) || (k >= 7 && !c->periodic))
            continue;
        if (!isfinite(v[k]))
            return vkmd_fail(VKMD_ERROR_NUMERIC, "%s: step %lld: %s is %g; row not written",
                             c->path, (long long)r->step, names[k], v[k]);
    }
    errno = 0;
    int n = fprintf(c->f, "%lld,%.6f,%.6f,%.6f,%.6f,%.4f,%.3f", (long long)r->step, v[0], v[1],
                    v[2], v[3], v[4], v[5]);
    if (n >= 0 && c->restraint_column)
        n = fprintf(c->f, ",%.6f", v[6]);
    if (n >= 0 && c->periodic)
        n = fprintf(c->f, ",%.4f,%.6f,%.6f,%.6f,%.6f", v[7], v[8], v[9], v[10], v[11]);
    if (n >= 0)
        n = fputc('\n', c->f) == EOF ? -1 : 1;
    if (n < 0 || fflush(c->f) != 0) {
        c->failed = 1;
        return csv_io_error(c, "writing a row");
    }
    return VKMD_OK;
}

vkmd_result vkmd_energy_csv_close(vkmd_energy_csv *c)
{
    if (!c)
        return VKMD_OK;
    vkmd_result res = VKMD_OK;
    errno = 0;
    int err = ferror(c->f);
    /* After a reported row error (a full disk) closing fails too: keep the
     * first, precise message. */
    if (fclose(c->f) != 0 || err)
        res = c->failed ? VKMD_ERROR_IO : csv_io_error(c, "closing");
    free(c->path);
    free(c);
    return res;
}

vkmd_result vkmd_energy_csv_truncate_after(const char *path, int64_t last_step)
{
    vkmd_result res = VKMD_OK;
    char tmp[4200], line[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *in = fopen(path, "r");
    if (!in)
        return vkmd_fail(VKMD_ERROR_IO, "%s: cannot open the energies to continue them: %s", path,
                         strerror(errno));
    FILE *out = fopen(tmp, "w");
    if (!out) {
        res = vkmd_fail(VKMD_ERROR_IO, "%s: cannot create: %s", tmp, strerror(errno));
        fclose(in);
        return res;
    }
    int found = 0, lineno = 0;
    int64_t last_seen = -1;
    while (fgets(line, sizeof line, in)) {
        ++lineno;
        if (line[0] == '#' || !strncmp(line, "step,", 5)) {
            fputs(line, out);
            continue;
        }
        char *end = NULL;
        const long long step = strtoll(line, &end, 10);
        if (end == line || *end != ',') {
            res = vkmd_fail(VKMD_ERROR_PARSE, "%s:%d: not an energy row: '%.40s'", path, lineno,
                            line);
            break;
        }
        if (step > last_step)
            break; /* rows written after the checkpoint: dropped */
        last_seen = step;
        found |= step == last_step;
        fputs(line, out);
    }
    fclose(in);
    if (res == VKMD_OK && !found)
        res = vkmd_fail(VKMD_ERROR_PARSE,
                        "%s: ends at step %lld, before the checkpoint's step %lld: the energies "
                        "of the steps between are lost",
                        path, (long long)last_seen, (long long)last_step);
    if (ferror(out) || fclose(out) != 0) {
        if (res == VKMD_OK)
            res = vkmd_fail(VKMD_ERROR_IO, "%s: write failed: %s", tmp, strerror(errno));
    }
    if (res == VKMD_OK && rename(tmp, path) != 0)
        res = vkmd_fail(VKMD_ERROR_IO, "%s: cannot replace it: %s", path, strerror(errno));
    if (res != VKMD_OK)
        remove(tmp);
    return res;
}

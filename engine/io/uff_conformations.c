/* Conformations of one UFF molecule from a file (see uff_conformations.h). */
#include "io/uff_conformations.h"
#include "io/uff_load.h"
#include "system/fire_settings.h"

#include <stdlib.h>
#include <string.h>

vkmd_result vkmd_uff_conformations_load(const char *path, const vkmd_uff_molecule *m,
                                        const char *m_name, vkmd_uff_molecule **out_confs,
                                        int32_t *out_conf_count, int32_t *out_total)
{
    vkmd_result res = VKMD_OK;
    vkmd_uff_molecule *confs = NULL;
    int32_t nconf = 0, n = 0;
    VKMD_TRY(vkmd_uff_molecule_load(path, &confs, &nconf));
    for (int32_t k = 0; k < nconf; ++k) {
        const vkmd_uff_molecule *c = &confs[k];
        if (c->atom_count != m->atom_count) {
            res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                            "%s: record %d has %d atoms, %s has %d: not a conformation of it",
                            c->source, k + 1, c->atom_count, m_name, m->atom_count);
            goto cleanup;
        }
        for (int32_t a = 0; a < m->atom_count; ++a)
            if (c->z[a] != m->z[a]) {
                res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                                "%s: record %d atom %d has atomic number %d, %s has %d there (the "
                                "atoms must come in the same order)",
                                c->source, k + 1, a + 1, c->z[a], m_name, m->z[a]);
                goto cleanup;
            }
        n += c->conformer_count;
    }
    *out_confs = confs;
    *out_conf_count = nconf;
    *out_total = n;
    return VKMD_OK;
cleanup:
    vkmd_uff_molecule_array_free(confs, nconf);
    return res;
}

const double *vkmd_uff_conformation(const vkmd_uff_molecule *confs, int32_t r, int32_t *out_record,
                                    int32_t *out_conformer)
{
    int32_t k = 0;
    while (r >= confs[k].conformer_count) {
        r -= confs[k].conformer_count;
        ++k;
    }
    if (out_record)
        *out_record = k;
    if (out_conformer)
        *out_conformer = r;
    return vkmd_uff_molecule_conformer(&confs[k], r);
}

void vkmd_uff_conformations_replicas(const vkmd_uff_molecule *confs, int32_t conf_count,
                                     vkmd_uff_replica *out)
{
    for (int32_t k = 0, r = 0; k < conf_count; ++k)
        for (int32_t c = 0; c < confs[k].conformer_count; ++c, ++r)
            out[r] = (vkmd_uff_replica){0, vkmd_uff_molecule_conformer(&confs[k], c)};
}

vkmd_result vkmd_uff_starts_make(const vkmd_uff_molecule *m, const char *m_name,
                                 const char *confs_path, int32_t replicas, double perturb_a,
                                 uint64_t seed, double **out_xyz, int32_t *out_count)
{
    vkmd_result res = VKMD_OK;
    vkmd_uff_molecule *confs = NULL;
    int32_t nconf = 0, n = replicas;
    const size_t per = 3 * (size_t)m->atom_count;
    double *xyz = NULL;
    if (confs_path)
        VKMD_TRY(vkmd_uff_conformations_load(confs_path, m, m_name, &confs, &nconf, &n));
    xyz = malloc(sizeof *xyz * per * (size_t)n);
    if (!xyz) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "starts of %d replicas", n);
        goto cleanup;
    }
    for (int32_t r = 0; r < n; ++r)
        if (confs_path)
            memcpy(xyz + per * r, vkmd_uff_conformation(confs, r, NULL, NULL), sizeof *xyz * per);
        else
            vkmd_uff_perturb(m->positions, m->atom_count, perturb_a, seed, (uint32_t)r,
                             xyz + per * r);
    *out_xyz = xyz;
    *out_count = n;
cleanup:
    vkmd_uff_molecule_array_free(confs, nconf);
    return res;
}

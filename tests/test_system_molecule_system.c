/* A UFF molecule as a vkmd_system (system/molecule_system.h): one copy with
 * its first conformer, replicas with their own coordinates (elements, bond
 * indices offset per replica, positions in replica order), the extent, the
 * error for no replicas, and which names are molecules (io/uff_load.h). */
#include "io/uff_load.h"
#include "system/molecule_system.h"
#include "testlib.h"

#include <math.h>
#include <string.h>

int main(void)
{
    vkmd_uff_molecule *recs = NULL;
    int32_t n = 0;
    CHECK_OK(vkmd_uff_molecule_load("formic-acid", &recs, &n));
    if (!recs)
        return test_finish("test_system_molecule_system");
    const vkmd_uff_molecule *m = &recs[0];
    const int32_t na = m->atom_count, nb = m->bond_count;
    CHECK(na == 5 && nb == 4);

    vkmd_system one;
    CHECK_OK(vkmd_system_from_uff_molecule(m, 1, NULL, &one));
    CHECK(one.atom_count == na && one.bond_count == nb);
    CHECK(!strcmp(one.title, m->name));
    for (int32_t i = 0; i < one.atom_count && i < na; ++i)
        CHECK(one.atoms[i].element == m->z[i]);
    for (int32_t b = 0; b < one.bond_count && b < nb; ++b)
        CHECK(one.bonds[b].i == m->bonds[b].a && one.bonds[b].j == m->bonds[b].b);
    CHECK(one.positions && !memcmp(one.positions, m->positions, 3 * sizeof(double) * (size_t)na));
    vkmd_system_destroy(&one);

    enum { R = 3 };
    double xyz[R * 5 * 3];
    for (int k = 0; k < R * 5 * 3; ++k)
        xyz[k] = 0.25 * k;
    vkmd_system rep;
    CHECK_OK(vkmd_system_from_uff_molecule(m, R, xyz, &rep));
    CHECK(rep.atom_count == R * na && rep.bond_count == R * nb);
    if (rep.atom_count == R * na && rep.bond_count == R * nb) {
        for (int32_t r = 0; r < R; ++r) {
            for (int32_t i = 0; i < na; ++i)
                CHECK(rep.atoms[r * na + i].element == m->z[i]);
            for (int32_t b = 0; b < nb; ++b)
                CHECK_MSG(rep.bonds[r * nb + b].i == r * na + m->bonds[b].a &&
                              rep.bonds[r * nb + b].j == r * na + m->bonds[b].b,
                          "replica %d bond %d", r, b);
        }
        CHECK(!memcmp(rep.positions, xyz, sizeof xyz));
    }
    vkmd_system_destroy(&rep);

    /* The extent of the first conformer, by hand. */
    double ext = 0;
    for (int k = 0; k < 3; ++k) {
        double lo = INFINITY, hi = -INFINITY;
        for (int32_t i = 0; i < na; ++i) {
            lo = fmin(lo, m->positions[3 * i + k]);
            hi = fmax(hi, m->positions[3 * i + k]);
        }
        ext = fmax(ext, hi - lo);
    }
    printf("formic acid extent %.4f A\n", vkmd_uff_molecule_extent(m));
    CHECK(ext > 1 && vkmd_uff_molecule_extent(m) == ext);

    vkmd_system none;
    CHECK(vkmd_system_from_uff_molecule(m, 0, NULL, &none) == VKMD_ERROR_INVALID_ARGUMENT);
    CHECK(none.atom_count == 0 && none.atoms == NULL);
    vkmd_uff_molecule_array_free(recs, n);

    /* What vkmd view takes for a molecule rather than a system. */
    CHECK(vkmd_uff_molecule_spec("xylitol") && vkmd_uff_molecule_spec("dir/a.SDF"));
    CHECK(vkmd_uff_molecule_spec("b.mol") && vkmd_uff_molecule_spec("c.sd") &&
          vkmd_uff_molecule_spec("d.xyz"));
    CHECK(!vkmd_uff_molecule_spec("water:216") && !vkmd_uff_molecule_spec("dhfr.prmtop") &&
          !vkmd_uff_molecule_spec(".xyz") && !vkmd_uff_molecule_spec("xylitol2"));
    return test_finish("test_system_molecule_system");
}

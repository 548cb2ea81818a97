/* Conformations of one molecule from a file (io/uff_conformations.h): three
 * records of formic acid written with io/sdf.h are its conformations 1..3
 * (records, conformers, coordinates and replicas in order); a record with
 * another element, or another atom count, is refused naming the record. */
#include "core/result.h"
#include "io/sdf.h"
#include "io/uff_conformations.h"
#include "io/uff_load.h"
#include "testlib.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GEN VKMD_TEST_GEN_DIR "/io_uff_conformations"

static int write_records(const char *path, const vkmd_uff_molecule *m, int count, int bad_z)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return 0;
    for (int r = 0; r < count; ++r) {
        double xyz[3 * 16];
        for (int k = 0; k < 3 * m->atom_count; ++k)
            xyz[k] = m->positions[k] + 0.1 * r;
        vkmd_uff_molecule copy = *m;
        int32_t z[16];
        memcpy(z, m->z, sizeof(int32_t) * (size_t)m->atom_count);
        if (bad_z && r == count - 1)
            z[1] = 16;
        copy.z = z;
        char title[32];
        snprintf(title, sizeof title, "conf %d", r + 1);
        vkmd_sdf_write_record(f, &copy, title, xyz, NULL, 0);
    }
    return fclose(f) == 0;
}

int main(void)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", GEN);
    CHECK(system(cmd) == 0);
    vkmd_uff_molecule *fa = NULL, *xy = NULL;
    int32_t nfa = 0, nxy = 0;
    CHECK_OK(vkmd_uff_molecule_load("formic-acid", &fa, &nfa));
    CHECK_OK(vkmd_uff_molecule_load("xylitol", &xy, &nxy));
    if (!fa || !xy || fa[0].atom_count > 16)
        return test_finish("test_io_uff_conformations");
    const vkmd_uff_molecule *m = &fa[0];

    CHECK(write_records(GEN "/three.sdf", m, 3, 0));
    vkmd_uff_molecule *confs = NULL;
    int32_t nconf = 0, total = 0;
    CHECK_OK(vkmd_uff_conformations_load(GEN "/three.sdf", m, "FA", &confs, &nconf, &total));
    CHECK(nconf == 3 && total == 3);
    vkmd_uff_replica reps[3];
    if (confs && total == 3) {
        vkmd_uff_conformations_replicas(confs, nconf, reps);
        for (int32_t r = 0; r < 3; ++r) {
            int32_t k = -1, c = -1;
            const double *x = vkmd_uff_conformation(confs, r, &k, &c);
            CHECK(k == r && c == 0 && x == reps[r].positions && reps[r].molecule == 0);
            CHECK(fabs(x[0] - (m->positions[0] + 0.1 * r)) < 1e-4);
        }
    }
    vkmd_uff_molecule_array_free(confs, nconf);

    /* another element in the last record */
    CHECK(write_records(GEN "/bad_element.sdf", m, 2, 1));
    confs = NULL;
    CHECK(vkmd_uff_conformations_load(GEN "/bad_element.sdf", m, "FA", &confs, &nconf, &total) ==
          VKMD_ERROR_INVALID_ARGUMENT);
    printf("%s\n", vkmd_last_error());
    CHECK(confs == NULL && strstr(vkmd_last_error(), "record 2 atom 2 has atomic number 16"));
    /* another molecule */
    CHECK(vkmd_uff_conformations_load("xylitol", m, "FA", &confs, &nconf, &total) ==
          VKMD_ERROR_INVALID_ARGUMENT);
    printf("%s\n", vkmd_last_error());
    CHECK(strstr(vkmd_last_error(), "record 1 has 22 atoms, FA has 5"));
    vkmd_uff_molecule_array_free(fa, nfa);
    vkmd_uff_molecule_array_free(xy, nxy);
    return test_finish("test_io_uff_conformations");
}

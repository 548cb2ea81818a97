/* The SDF record writer (io/sdf.h) against the reader: a charged radical
 * with single, double and triple bonds and two records is written, read
 * back, and every element, formal charge, radical, bond, coordinate (within
 * the 4-decimal rounding), title and data item compared; a stream error is
 * reported. */
#include "io/sdf.h"
#include "testlib.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GEN VKMD_TEST_GEN_DIR "/io_sdf_write"

int main(void)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", GEN);
    CHECK(system(cmd) == 0);
    /* C(-)=N-C#C and a radical O, hand made: atoms 0..4 */
    vkmd_uff_molecule m;
    CHECK_OK(vkmd_uff_molecule_alloc(5, 3, 1, &m));
    snprintf(m.name, sizeof m.name, "written");
    const int32_t z[5] = {6, 7, 6, 6, 8};
    for (int32_t a = 0; a < 5; ++a) {
        m.z[a] = z[a];
        for (int k = 0; k < 3; ++k)
            m.positions[3 * a + k] = 1.23456789 * a - 0.5 * k + 1e-3 * (a * k);
    }
    m.formal_charge[0] = -1;
    m.formal_charge[1] = 1;
    m.radicals[4] = 1;
    m.radicals[3] = 2;
    const vkmd_uff_bond bonds[3] = {{0, 1, 2}, {1, 2, 1}, {2, 3, 3}};
    memcpy(m.bonds, bonds, sizeof bonds);
    double shifted[15];
    for (int k = 0; k < 15; ++k)
        shifted[k] = m.positions[k] + 10.0;

    const char *path = GEN "/two.sdf";
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f)
        return test_finish("test_io_sdf_write");
    const vkmd_sdf_item items[2] = {{"ENERGY", "1.500000"}, {"NOTE", "second item"}};
    CHECK_OK(vkmd_sdf_write_record(f, &m, "first record", m.positions, items, 2));
    CHECK_OK(vkmd_sdf_write_record(f, &m, "second record", shifted, NULL, 0));
    CHECK(fclose(f) == 0);

    vkmd_uff_molecule *recs = NULL;
    int32_t n = 0;
    CHECK_OK(vkmd_sdf_read(path, &recs, &n));
    CHECK(n == 2);
    for (int32_t r = 0; recs && r < n && r < 2; ++r) {
        const vkmd_uff_molecule *b = &recs[r];
        CHECK(!strcmp(b->name, r ? "second record" : "first record"));
        CHECK(b->atom_count == 5 && b->bond_count == 3 && b->conformer_count == 1);
        if (b->atom_count != 5 || b->bond_count != 3)
            continue;
        double err = 0;
        for (int32_t a = 0; a < 5; ++a) {
            CHECK(b->z[a] == m.z[a]);
            CHECK_MSG(b->formal_charge[a] == m.formal_charge[a], "atom %d charge %d", a + 1,
                      b->formal_charge[a]);
            CHECK_MSG(b->radicals[a] == m.radicals[a], "atom %d radicals %d", a + 1,
                      b->radicals[a]);
            for (int k = 0; k < 3; ++k)
                err = fmax(err, fabs(b->positions[3 * a + k] -
                                     (r ? shifted[3 * a + k] : m.positions[3 * a + k])));
        }
        printf("record %d: max coordinate change %.2e A (4 decimals: <= 5e-5)\n", r + 1, err);
        CHECK(err <= 5.0001e-5);
        for (int32_t k = 0; k < 3; ++k)
            CHECK(b->bonds[k].a == bonds[k].a && b->bonds[k].b == bonds[k].b &&
                  b->bonds[k].order == bonds[k].order);
    }
    vkmd_uff_molecule_array_free(recs, n);

    /* The data items, as written. */
    f = fopen(path, "r");
    char text[4096] = "";
    if (f) {
        text[fread(text, 1, sizeof text - 1, f)] = 0;
        fclose(f);
    }
    CHECK(strstr(text, "M  END\n> <ENERGY>\n1.500000\n\n> <NOTE>\nsecond item\n\n$$$$\n") != NULL);
    CHECK(strstr(text, "second record\n     vkmd          3D\n\n  5  3  0") != NULL);

    /* A stream that cannot be written is an error. */
    f = fopen(path, "r");
    if (f) {
        CHECK(vkmd_sdf_write_record(f, &m, "read-only", m.positions, NULL, 0) == VKMD_ERROR_IO);
        fclose(f);
    }
    vkmd_uff_molecule_destroy(&m);
    return test_finish("test_io_sdf_write");
}

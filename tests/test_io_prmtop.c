/* AMBER prmtop reader: a hand-written 5-atom molecule checked value by value
 * (tests/data/tiny.prmtop: numbers that run together, a multi-term dihedral,
 * an improper, a duplicated 1-4 pair), then the committed OpenMM test systems
 * checked for counts, charges, parameters and topology invariants. */
#include "io/load.h"
#include "io/prmtop.h"
#include "system/ff_settings.h"
#include "system/water_box.h"
#include "testlib.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double pi = 3.14159265358979323846;

static void test_tiny(void)
{
    printf("== tiny.prmtop\n");
    vkmd_system s;
    CHECK_OK(vkmd_prmtop_read(VKMD_TEST_DATA_DIR "/tiny.prmtop", &s));
    if (s.atom_count != 5) {
        CHECK(s.atom_count == 5);
        vkmd_system_destroy(&s);
        return;
    }
    CHECK(strcmp(s.title, "tiny test molecule") == 0);
    static const char *names[5] = {"H1", "C1", "C2", "O", "H2"};
    static const char *types[5] = {"HC", "CT", "CT", "OH", "HO"};
    static const double q[5] = {0.1, -0.2, 0.15, -0.45, 0.4};
    static const int z[5] = {1, 6, 6, 8, 1}, lj[5] = {0, 1, 1, 2, 0};
    for (int a = 0; a < 5; ++a) {
        CHECK(strcmp(s.atoms[a].name, names[a]) == 0);
        CHECK(strcmp(s.atoms[a].type_name, types[a]) == 0);
        CHECK(strcmp(s.atoms[a].res_name, "MOL") == 0 && s.atoms[a].res_index == 0);
        CHECK(s.atoms[a].element == z[a]);
        CHECK(s.atoms[a].lj_type == lj[a]);
        CHECK(fabs(s.atoms[a].charge - q[a]) < 1e-5); /* E12.5 in the file */
    }
    check_close("mass C1", s.atoms[1].mass, 12.01, 0, 1e-12);
    CHECK(s.lj_type_count == 3);
    /* LJ: (rmin/2, eps) H 0.6/0.0157, C 1.908/0.1094, O 1.721/0.2104. */
    const double r[3] = {0.6, 1.908, 1.721}, e[3] = {0.0157, 0.1094, 0.2104};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            double rm = r[i] + r[j], ep = sqrt(e[i] * e[j]);
            CHECK(fabs(s.lj_a[3 * i + j] / (ep * pow(rm, 12)) - 1) < 1e-7);
            CHECK(fabs(s.lj_b[3 * i + j] / (2 * ep * pow(rm, 6)) - 1) < 1e-7);
            CHECK(s.lj_a[3 * i + j] == s.lj_a[3 * j + i]);
        }
    CHECK(s.bond_count == 4);
    if (s.bond_count == 4) {
        CHECK(s.bonds[0].i == 0 && s.bonds[0].j == 1 && s.bonds[0].k == 340.0 &&
              s.bonds[0].r0 == 1.09);
        CHECK(s.bonds[1].i == 3 && s.bonds[1].j == 4 && s.bonds[1].k == 553.0);
        CHECK(s.bonds[2].i == 1 && s.bonds[2].j == 2 && s.bonds[2].r0 == 1.526);
        CHECK(s.bonds[3].i == 2 && s.bonds[3].j == 3 && s.bonds[3].k == 320.0);
    }
    CHECK(s.angle_count == 3);
    if (s.angle_count == 3) {
        CHECK(s.angles[0].i == 0 && s.angles[0].j == 1 && s.angles[0].k == 2);
        CHECK(s.angles[0].k_theta == 50.0 && s.angles[0].theta0 == 1.9111355);
        CHECK(s.angles[1].i == 2 && s.angles[1].j == 3 && s.angles[1].k == 4);
        CHECK(s.angles[2].k_theta == 55.0 && s.angles[2].theta0 == 1.85);
    }
    CHECK(s.dihedral_count == 5);
    if (s.dihedral_count == 5) {
        const vkmd_dihedral *d = s.dihedrals;
        CHECK(d[0].i == 0 && d[0].j == 1 && d[0].k == 2 && d[0].l == 3 && !d[0].improper);
        CHECK(d[0].periodicity == 3 && d[0].k_phi == 0.15 && d[0].phase == 0.0);
        CHECK(d[1].k == 2 && d[1].periodicity == 2 && d[1].phase == 3.141594 && !d[1].improper);
        CHECK(d[3].i == 0 && d[3].j == 3 && d[3].k == 1 && d[3].l == 2 && d[3].improper);
        CHECK(d[3].k_phi == 1.1);
    }
    /* 1-4: (0,3) from the first dihedral (its SCEE 1.2, not the duplicate's
     * 1.5) and (1,4); none from the multi-term entry or the improper. */
    CHECK(s.pair14_count == 2);
    if (s.pair14_count == 2) {
        CHECK(s.pairs14[0].i == 0 && s.pairs14[0].j == 3);
        CHECK(s.pairs14[0].scee == 1.2 && s.pairs14[0].scnb == 2.0);
        CHECK(s.pairs14[1].i == 1 && s.pairs14[1].j == 4);
    }
    /* Exclusions: everything but the 1-5 pair (0,4). */
    CHECK(s.exclusion_count == 9);
    for (int i = 0; i < 5; ++i)
        for (int j = i + 1; j < 5; ++j)
            CHECK(vkmd_system_is_excluded(&s, i, j) == !(i == 0 && j == 4));
    CHECK(s.water_count == 0);
    CHECK(s.box.periodic == 1 && s.box.len[0] == 20.0 && s.box.len[1] == 21.0 &&
          s.box.len[2] == 22.0);
    CHECK(s.positions == NULL);
    check_close("net charge", vkmd_system_net_charge(&s), 0.0, 0, 1e-5);
    vkmd_system_destroy(&s);
}

/* Invariants every real system satisfies. */
static void check_topology(const vkmd_system *s)
{
    int bad = 0;
    for (int32_t b = 0; b < s->bond_count; ++b)
        bad += !vkmd_system_is_excluded(s, s->bonds[b].i, s->bonds[b].j);
    for (int32_t b = 0; b < s->angle_count; ++b)
        bad += !vkmd_system_is_excluded(s, s->angles[b].i, s->angles[b].k);
    for (int32_t b = 0; b < s->pair14_count; ++b)
        bad += !vkmd_system_is_excluded(s, s->pairs14[b].i, s->pairs14[b].j);
    CHECK_MSG(bad == 0, "%d bonds/angles/1-4 pairs are not excluded", bad);
    for (int32_t b = 1; b < s->pair14_count; ++b)
        for (int32_t c = 0; c < b && b < 2000; ++c)
            bad += s->pairs14[b].i == s->pairs14[c].i && s->pairs14[b].j == s->pairs14[c].j;
    CHECK_MSG(bad == 0, "duplicate 1-4 pairs");
    for (int32_t i = 0; i < s->lj_type_count; ++i)
        for (int32_t j = 0; j < s->lj_type_count; ++j)
            bad += s->lj_a[i * s->lj_type_count + j] != s->lj_a[j * s->lj_type_count + i];
    CHECK_MSG(bad == 0, "LJ table not symmetric");
    for (int32_t w = 0; w < s->water_count; ++w) {
        const vkmd_water *wt = &s->waters[w];
        bad += s->atoms[wt->o].element != 8 || s->atoms[wt->h1].element != 1 ||
               s->atoms[wt->h2].element != 1;
    }
    CHECK_MSG(bad == 0, "water atoms with the wrong elements");
}

static void test_water_box_prmtop(void)
{
    printf("== water_box.prmtop\n");
    vkmd_system s;
    CHECK_OK(vkmd_system_load(VKMD_TEST_DATA_DIR "/water_box.prmtop",
                              VKMD_TEST_DATA_DIR "/water_box.inpcrd", &s));
    if (s.atom_count != 939) {
        CHECK(s.atom_count == 939);
        vkmd_system_destroy(&s);
        return;
    }
    CHECK(s.water_count == 313 && s.bond_count == 626 && s.angle_count == 313);
    CHECK(s.dihedral_count == 0 && s.pair14_count == 0 && s.exclusion_count == 939);
    CHECK(s.lj_type_count == 2);
    CHECK(s.box.periodic && s.box.len[0] == 22.0 && s.positions != NULL);
    check_close("O charge", s.atoms[0].charge, -0.834, 0, 1e-6);
    check_close("H charge", s.atoms[1].charge, 0.417, 0, 1e-6);
    check_close("O-H k", s.bonds[0].k, 553.0, 1e-6, 0);
    check_close("O-H r0", s.bonds[0].r0, 0.9572, 1e-6, 0);
    check_close("H-O-H theta0", s.angles[0].theta0, 104.52 * pi / 180, 1e-6, 0);
    check_close("H-O-H k", s.angles[0].k_theta, 100.0, 1e-6, 0);
    check_close("net charge", vkmd_system_net_charge(&s), 0, 0, 1e-6);
    check_topology(&s);
    /* The built-in box must carry exactly these parameters. */
    vkmd_system w;
    CHECK_OK(vkmd_water_box_build(8, 1, &w));
    if (w.atom_count == 24) {
        int o = s.atoms[0].lj_type, h = s.atoms[1].lj_type, n = s.lj_type_count;
        check_close("water:N A(O,O) vs prmtop", w.lj_a[0], s.lj_a[o * n + o], 1e-6, 0);
        check_close("water:N B(O,O) vs prmtop", w.lj_b[0], s.lj_b[o * n + o], 1e-6, 0);
        CHECK(s.lj_a[h * n + h] == 0 && s.lj_b[o * n + h] == 0);
        check_close("water:N O mass vs prmtop", w.atoms[0].mass, s.atoms[0].mass, 1e-9, 0);
        check_close("water:N H mass vs prmtop", w.atoms[1].mass, s.atoms[1].mass, 1e-9, 0);
        check_close("water:N O charge vs prmtop", w.atoms[0].charge, s.atoms[0].charge, 0, 1e-6);
    }
    vkmd_system_destroy(&w);
    vkmd_system_destroy(&s);
}

static void test_other_systems(void)
{
    static const char *names[] = {"villin_vac", "water_nacl", "water_na_charged"};
    for (int k = 0; k < 3; ++k) {
        char prm[512];
        snprintf(prm, sizeof prm, "%s/%s.prmtop", VKMD_TEST_DATA_DIR, names[k]);
        printf("== %s\n", prm);
        vkmd_system s;
        /* No coordinates given: the .inpcrd beside the prmtop is found. */
        vkmd_result r = vkmd_system_load(prm, NULL, &s);
        CHECK_OK(r);
        if (r != VKMD_OK)
            continue;
        printf("  %d atoms, %d types, %d bonds, %d angles, %d dihedrals, %d 1-4, %d excl, %d "
               "waters, box %d\n",
               s.atom_count, s.lj_type_count, s.bond_count, s.angle_count, s.dihedral_count,
               s.pair14_count, s.exclusion_count, s.water_count, s.box.periodic);
        CHECK(s.positions != NULL);
        check_topology(&s);
        if (k == 0) {
            CHECK(s.atom_count == 584 && s.box.periodic == 0 && s.water_count == 0);
            CHECK(s.bond_count == 293 + 296 && s.angle_count == 672 + 395);
            CHECK(s.dihedral_count == 1257 + 994);
            CHECK(s.pair14_count > 0 && s.pair14_count < s.dihedral_count);
            int impropers = 0;
            for (int32_t d = 0; d < s.dihedral_count; ++d)
                impropers += s.dihedrals[d].improper;
            CHECK(impropers > 0);
            /* Two Cl- counter-ions end the file. */
            CHECK(strcmp(s.atoms[583].res_name, "Cl-") == 0 || s.atoms[583].element == 17);
            check_close("villin net charge", vkmd_system_net_charge(&s), 0, 0, 1e-5);
        } else {
            CHECK(s.box.periodic == 1 && s.water_count > 0);
        }
        vkmd_system_destroy(&s);
    }
}

int main(void)
{
    test_tiny();
    test_water_box_prmtop();
    test_other_systems();
    return test_finish("test_io_prmtop");
}

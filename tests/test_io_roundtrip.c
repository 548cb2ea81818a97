/* Coordinate I/O: rst7 and PDB written then read back (equal to the written
 * precision, velocities and box included), the inpcrd reader against the
 * committed tiny system, numbers that run together, serial wrapping in PDB
 * output, and vkmd_system_load's choice of coordinate file. */
#include "io/coords.h"
#include "io/load.h"
#include "io/pdb.h"
#include "system/water_box.h"
#include "testlib.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GEN VKMD_TEST_GEN_DIR

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void test_tiny_inpcrd(void)
{
    printf("== tiny.inpcrd\n");
    vkmd_system s;
    CHECK_OK(vkmd_system_load(VKMD_TEST_DATA_DIR "/tiny.prmtop", NULL, &s));
    CHECK(s.positions != NULL && s.velocities == NULL);
    if (s.positions) {
        CHECK(s.positions[0] == 1.0 && s.positions[3] == 2.09 && s.positions[14] == 1.3);
        CHECK(s.box.periodic && s.box.len[0] == 20 && s.box.len[1] == 21 && s.box.len[2] == 22);
    }
    vkmd_system_destroy(&s);
}

static void test_rst7_roundtrip(void)
{
    printf("== rst7 round trip (water:50 with velocities)\n");
    vkmd_system s, t;
    CHECK_OK(vkmd_water_box_build(50, 5, &s));
    CHECK_OK(vkmd_water_box_build(50, 6, &t)); /* same topology, other coordinates */
    if (!s.positions || !t.positions)
        goto out;
    s.velocities = malloc((size_t)s.atom_count * 3 * sizeof(double));
    for (int32_t k = 0; k < 3 * s.atom_count; ++k)
        s.velocities[k] = 0.01 * sin(0.37 * k); /* A/fs */
    s.positions[7] = -123.4567891;              /* negative numbers that fill the field */
    CHECK_OK(vkmd_coords_write_rst7(GEN "/rt.rst7", &s, 12.5));
    CHECK_OK(vkmd_coords_read_amber(GEN "/rt.rst7", &t));
    double dx = max_abs_error(t.positions, s.positions, 3 * s.atom_count);
    printf("  max |dx| %.3g A, ", dx);
    CHECK(dx <= 0.5e-7 + 1e-12);
    CHECK(t.velocities != NULL);
    if (t.velocities) {
        /* Written in AMBER units with 7 decimals. */
        double dv = max_abs_error(t.velocities, s.velocities, 3 * s.atom_count);
        printf("max |dv| %.3g A/fs\n", dv);
        CHECK(dv <= 0.5e-7 * VKMD_AMBER_VELOCITY_TO_A_PER_FS + 1e-15);
    }
    for (int k = 0; k < 3; ++k)
        CHECK(fabs(t.box.len[k] - s.box.len[k]) <= 0.5e-7);
    /* Without velocities and box. */
    free(s.velocities);
    s.velocities = NULL;
    s.box.periodic = 0;
    free(t.velocities);
    t.velocities = NULL;
    t.box.periodic = 1;
    t.box.len[0] = 99;
    CHECK_OK(vkmd_coords_write_rst7(GEN "/rt_novel.rst7", &s, 0));
    CHECK_OK(vkmd_coords_read_amber(GEN "/rt_novel.rst7", &t));
    CHECK(t.velocities == NULL && t.box.len[0] == 99); /* no box line: box kept */
    /* Values too large for %12.7f lose decimals, not columns. */
    s.positions[0] = -98765.4321;
    CHECK_OK(vkmd_coords_write_rst7(GEN "/rt_big.rst7", &s, 0));
    CHECK_OK(vkmd_coords_read_amber(GEN "/rt_big.rst7", &t));
    check_close("large coordinate", t.positions[0], -98765.4321, 0, 1e-4);
out:
    vkmd_system_destroy(&s);
    vkmd_system_destroy(&t);
}

static void test_run_together(void)
{
    printf("== fields that run together, short velocity-free file, CRLF\n");
    vkmd_system s;
    CHECK_OK(vkmd_system_load("water:1", NULL, &s));
    if (!s.positions)
        return;
    write_text(GEN "/together.inpcrd",
               "title\r\n    3\r\n"
               "-100.1234567-200.1234567-300.1234567   1.0000000   2.0000000"
               "   3.0000000\r\n   4.0000000   5.0000000   6.0000000\r\n");
    CHECK_OK(vkmd_coords_read_amber(GEN "/together.inpcrd", &s));
    CHECK(s.positions[0] == -100.1234567 && s.positions[2] == -300.1234567);
    CHECK(s.positions[8] == 6.0);
    vkmd_system_destroy(&s);
}

static void test_pdb_roundtrip(void)
{
    printf("== PDB round trip\n");
    vkmd_system s, t;
    CHECK_OK(vkmd_system_load(VKMD_TEST_DATA_DIR "/tiny.prmtop", NULL, &s));
    CHECK_OK(vkmd_system_load(VKMD_TEST_DATA_DIR "/tiny.prmtop", NULL, &t));
    if (!s.positions || !t.positions)
        goto out;
    s.positions[3] = -999.9876;
    CHECK_OK(vkmd_pdb_write(GEN "/tiny.pdb", &s));
    memset(t.positions, 0, 15 * sizeof(double));
    t.box.len[0] = 1;
    CHECK_OK(vkmd_pdb_read_coords(GEN "/tiny.pdb", &t));
    double dx = max_abs_error(t.positions, s.positions, 15);
    printf("  max |dx| %.3g A\n", dx);
    CHECK(dx <= 0.5e-3 + 1e-12);
    CHECK(t.box.periodic && fabs(t.box.len[0] - 20) < 1e-3 && fabs(t.box.len[2] - 22) < 1e-3);
    size_t len = 0;
    char *text = test_read_file(GEN "/tiny.pdb", &len);
    CHECK(text != NULL);
    if (text) {
        CHECK(strstr(text, "CRYST1   20.000   21.000   22.000  90.00  90.00  90.00") != NULL);
        CHECK(strstr(text, "ATOM      1  H1  MOL A   1       1.000   1.000   1.000  1.00  0.00"
                           "           H") != NULL);
        CHECK(strstr(text, "ATOM      2  C1  MOL A   1    -999.988   1.000") != NULL);
        CHECK(strstr(text, "\nTER ") != NULL && strstr(text, "\nEND\n") != NULL);
        free(text);
    }
    /* Through vkmd_system_load by extension. */
    vkmd_system u;
    CHECK_OK(vkmd_system_load(VKMD_TEST_DATA_DIR "/tiny.prmtop", GEN "/tiny.pdb", &u));
    if (u.positions)
        CHECK(max_abs_error(u.positions, s.positions, 15) <= 0.5e-3 + 1e-12);
    vkmd_system_destroy(&u);
out:
    vkmd_system_destroy(&s);
    vkmd_system_destroy(&t);
}

static void test_pdb_wrap(void)
{
    printf("== PDB serial wrapping (water:34000, 102000 atoms)\n");
    vkmd_system s;
    CHECK_OK(vkmd_water_box_build(34000, 1, &s));
    if (!s.positions)
        return;
    CHECK_OK(vkmd_pdb_write(GEN "/big.pdb", &s));
    size_t len = 0;
    char *text = test_read_file(GEN "/big.pdb", &len);
    CHECK(text != NULL);
    if (text) {
        CHECK(strstr(text, "ATOM  99999  H2  WAT A3333") != NULL);
        CHECK(strstr(text, "ATOM      0  O   WAT A3334") != NULL); /* serial 100000 wraps */
        CHECK(strstr(text, "ATOM      1  H1  WAT A3334") != NULL);
        free(text);
    }
    vkmd_system t;
    CHECK_OK(vkmd_water_box_build(34000, 2, &t));
    CHECK_OK(vkmd_pdb_read_coords(GEN "/big.pdb", &t));
    if (t.positions)
        CHECK(max_abs_error(t.positions, s.positions, 3 * s.atom_count) <= 0.5e-3 + 1e-12);
    vkmd_system_destroy(&t);
    vkmd_system_destroy(&s);
}

static void test_load_choices(void)
{
    printf("== vkmd_system_load coordinate choices\n");
    /* A prmtop with no coordinates beside it: positions stay NULL. */
    size_t len = 0;
    char *prm = test_read_file(VKMD_TEST_DATA_DIR "/tiny.prmtop", &len);
    CHECK(prm != NULL);
    if (!prm)
        return;
    write_text(GEN "/lonely.prmtop", prm);
    remove(GEN "/lonely.inpcrd");
    remove(GEN "/lonely.rst7");
    vkmd_system s;
    CHECK_OK(vkmd_system_load(GEN "/lonely.prmtop", NULL, &s));
    CHECK(s.atom_count == 5 && s.positions == NULL);
    CHECK(vkmd_system_check_coordinates(&s, 9.0, GEN "/lonely.prmtop") ==
          VKMD_ERROR_INVALID_ARGUMENT);
    vkmd_system_destroy(&s);
    /* A .rst7 beside it is found when there is no .inpcrd. */
    CHECK_OK(vkmd_system_load(VKMD_TEST_DATA_DIR "/tiny.prmtop", NULL, &s));
    s.positions[0] = 7.25;
    CHECK_OK(vkmd_coords_write_rst7(GEN "/lonely.rst7", &s, 0));
    vkmd_system_destroy(&s);
    CHECK_OK(vkmd_system_load(GEN "/lonely.prmtop", NULL, &s));
    CHECK(s.positions != NULL && s.positions[0] == 7.25);
    vkmd_system_destroy(&s);
    /* An unknown extension is read as AMBER ASCII. */
    rename(GEN "/lonely.rst7", GEN "/lonely.coords");
    CHECK_OK(vkmd_system_load(GEN "/lonely.prmtop", GEN "/lonely.coords", &s));
    CHECK(s.positions != NULL && s.positions[0] == 7.25);
    vkmd_system_destroy(&s);
    /* water:N with a coordinate file replaces the built coordinates and box. */
    vkmd_system w;
    CHECK_OK(vkmd_water_box_build(40, 99, &w));
    w.box.len[0] = w.box.len[1] = w.box.len[2] = 30;
    CHECK_OK(vkmd_coords_write_rst7(GEN "/w40.rst7", &w, 0));
    CHECK_OK(vkmd_system_load("water:40", GEN "/w40.rst7", &s));
    if (s.positions) {
        CHECK(max_abs_error(s.positions, w.positions, 360) <= 0.5e-7);
        CHECK(s.box.len[0] == 30);
    }
    vkmd_system_destroy(&s);
    vkmd_system_destroy(&w);
    free(prm);
}

int main(void)
{
    test_tiny_inpcrd();
    test_rst7_roundtrip();
    test_run_together();
    test_pdb_roundtrip();
    test_pdb_wrap();
    test_load_choices();
    return test_finish("test_io_roundtrip");
}

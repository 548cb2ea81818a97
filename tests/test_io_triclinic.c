/* Triclinic boxes through the readers and writers:
 *   - prmtop IFBOX = 2 (BOX_DIMENSIONS beta 109.4712190, a, b, c) gives a
 *     truncated octahedron with all three angles beta; the rst7 box line
 *     loaded with it replaces the angles with its own (109.4712206);
 *   - rst7, PDB CRYST1 and DCD unit cells written then read back give the
 *     same lengths and angles (to the written precision: 7 decimals in rst7,
 *     2 in PDB angles, doubles in DCD; DCD angles also read as cosines);
 *   - a checkpoint keeps the triclinic cell bit for bit (version 3) and a
 *     rectangular box's checkpoint stays version 2;
 *   - whole-molecule wrapping: every bond has its minimum-image length and
 *     each molecule's first atom lies in the brick of vkmd_box_wrap_shift;
 *   - the energy report names the angles (JSON box_angles_deg). */
#include "forces/energy_report.h"
#include "io/checkpoint.h"
#include "io/coords.h"
#include "io/dcd.h"
#include "io/load.h"
#include "io/pdb.h"
#include "io/prmtop.h"
#include "system/molecules.h"
#include "system/water_box.h"
#include "testlib.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define DIR     VKMD_TEST_GEN_DIR "/io_triclinic"
#define OCT_DEG 109.4712206344907

static double max_angle_diff(const vkmd_box *a, const double want[3])
{
    double m = 0;
    for (int k = 0; k < 3; ++k)
        m = fmax(m, fabs(a->angle_deg[k] - want[k]));
    return m;
}

static double max_len_diff(const vkmd_box *a, const vkmd_box *b)
{
    double m = 0;
    for (int k = 0; k < 3; ++k)
        m = fmax(m, fabs(a->len[k] - b->len[k]));
    return m;
}

static void test_prmtop_rst7(void)
{
    printf("== prmtop IFBOX = 2 and the rst7 box line\n");
    vkmd_system s;
    memset(&s, 0, sizeof s);
    CHECK_OK(vkmd_prmtop_read(VKMD_TEST_DATA_DIR "/tiny_octahedron.prmtop", &s));
    const double beta[3] = {109.471219, 109.471219, 109.471219};
    printf("  prmtop: triclinic %d, edges %g %g %g, angles %.7f %.7f %.7f\n", s.box.triclinic,
           s.box.len[0], s.box.len[1], s.box.len[2], s.box.angle_deg[0], s.box.angle_deg[1],
           s.box.angle_deg[2]);
    CHECK(s.box.periodic && s.box.triclinic && s.box.len[0] == 20 && s.box.len[2] == 22);
    CHECK(max_angle_diff(&s.box, beta) < 1e-12);
    vkmd_system_destroy(&s);

    CHECK_OK(vkmd_system_load(VKMD_TEST_DATA_DIR "/tiny_octahedron.prmtop",
                              VKMD_TEST_DATA_DIR "/tiny_octahedron.rst7", &s));
    const double rst[3] = {109.4712206, 109.4712206, 109.4712206};
    printf("  with the rst7: angles %.7f %.7f %.7f, vectors a (%g) b (%g %g) c (%g %g %g)\n",
           s.box.angle_deg[0], s.box.angle_deg[1], s.box.angle_deg[2], s.box.vec[0][0],
           s.box.vec[1][0], s.box.vec[1][1], s.box.vec[2][0], s.box.vec[2][1], s.box.vec[2][2]);
    CHECK(s.box.triclinic && max_angle_diff(&s.box, rst) < 1e-12);
    /* The volume against the cell's Gram determinant. */
    {
        const double *L = s.box.len, c[3] = {cos(rst[0] * M_PI / 180), cos(rst[1] * M_PI / 180),
                                             cos(rst[2] * M_PI / 180)};
        const double v = L[0] * L[1] * L[2] *
                         sqrt(1 - c[0] * c[0] - c[1] * c[1] - c[2] * c[2] + 2 * c[0] * c[1] * c[2]);
        printf("  volume %.6f A^3 (Gram determinant %.6f)\n", vkmd_box_volume_a3(&s.box), v);
        CHECK(fabs(vkmd_box_volume_a3(&s.box) - v) < 1e-9 * v);
    }

    /* rst7 round trip. */
    const char *path = DIR "/oct.rst7";
    CHECK_OK(vkmd_coords_write_rst7(path, &s, 1.5));
    vkmd_system r;
    memset(&r, 0, sizeof r);
    CHECK_OK(vkmd_prmtop_read(VKMD_TEST_DATA_DIR "/tiny_octahedron.prmtop", &r));
    CHECK_OK(vkmd_coords_read_amber(path, &r));
    printf("  rst7 written and read: edges diff %.2g A, angles diff %.2g deg\n",
           max_len_diff(&r.box, &s.box), max_angle_diff(&r.box, s.box.angle_deg));
    CHECK(r.box.triclinic && max_len_diff(&r.box, &s.box) < 1e-7 &&
          max_angle_diff(&r.box, s.box.angle_deg) < 1e-7);
    {
        size_t len = 0;
        char *text = test_read_file(path, &len);
        CHECK(text && strstr(text, " 109.4712206 109.4712206 109.4712206") != NULL);
        free(text);
    }

    /* PDB round trip (CRYST1 angles have 2 decimals). */
    const char *pdb = DIR "/oct.pdb";
    CHECK_OK(vkmd_pdb_write(pdb, &s));
    CHECK_OK(vkmd_pdb_read_coords(pdb, &r));
    printf("  PDB CRYST1 written and read: angles %.2f %.2f %.2f, diff %.2g deg\n",
           r.box.angle_deg[0], r.box.angle_deg[1], r.box.angle_deg[2],
           max_angle_diff(&r.box, s.box.angle_deg));
    CHECK(r.box.triclinic && max_len_diff(&r.box, &s.box) < 1e-3 &&
          max_angle_diff(&r.box, s.box.angle_deg) < 5e-3);

    /* DCD round trip (doubles in the cell record). */
    const char *dcd = DIR "/oct.dcd";
    vkmd_dcd_desc d = {.atom_count = s.atom_count, .periodic = 1, .dt_fs = 2, .title = "oct"};
    vkmd_dcd_writer *w = NULL;
    CHECK_OK(vkmd_dcd_writer_create(dcd, &d, &w));
    if (w) {
        CHECK_OK(vkmd_dcd_writer_append(w, s.positions, &s.box));
        CHECK_OK(vkmd_dcd_writer_close(w));
    }
    double xyz[15];
    vkmd_box got;
    CHECK_OK(vkmd_dcd_read_frame(dcd, 0, xyz, &got));
    printf("  DCD cell written and read: edges diff %.2g A, angles diff %.2g deg\n",
           max_len_diff(&got, &s.box), max_angle_diff(&got, s.box.angle_deg));
    CHECK(got.triclinic && max_len_diff(&got, &s.box) == 0 &&
          max_angle_diff(&got, s.box.angle_deg) == 0);
    CHECK(memcmp(got.vec, s.box.vec, sizeof got.vec) == 0);
    /* The same cell with its angles as cosines (CHARMM, NAMD >= 2.5, VMD's
     * writer): cell record A, cos(gamma), B, cos(beta), cos(alpha), C. */
    {
        vkmd_dcd_info info;
        CHECK_OK(vkmd_dcd_read_info(dcd, &info));
        size_t len = 0;
        unsigned char *bytes = (unsigned char *)test_read_file(dcd, &len);
        CHECK(bytes && len > (size_t)info.header_bytes + 52);
        if (bytes && len > (size_t)info.header_bytes + 52) {
            const double deg[3] = {s.box.angle_deg[2], s.box.angle_deg[1], s.box.angle_deg[0]};
            const int slot[3] = {1, 3, 4};
            for (int k = 0; k < 3; ++k) {
                const double c = cos(deg[k] * M_PI / 180.0);
                memcpy(bytes + info.header_bytes + 4 + 8 * slot[k], &c, 8);
            }
            const char *cosdcd = DIR "/oct_cosines.dcd";
            FILE *f = fopen(cosdcd, "wb");
            CHECK(f && fwrite(bytes, 1, len, f) == len);
            if (f)
                fclose(f);
            vkmd_box cb;
            CHECK_OK(vkmd_dcd_read_frame(cosdcd, 0, xyz, &cb));
            printf("  DCD cell with cosines: angles %.7f %.7f %.7f, diff %.2g deg\n",
                   cb.angle_deg[0], cb.angle_deg[1], cb.angle_deg[2],
                   max_angle_diff(&cb, s.box.angle_deg));
            CHECK(cb.triclinic && max_angle_diff(&cb, s.box.angle_deg) < 1e-9);
        }
        free(bytes);
    }

    /* The energy report. */
    const char *json = DIR "/oct.json";
    FILE *f = fopen(json, "w");
    CHECK(f != NULL);
    if (f) {
        vkmd_ff_settings ff = {
            .cutoff_a = 8, .ewald_alpha = 0.3, .pme_grid = {20, 20, 20}, .pme_order = 5};
        vkmd_energy e = {0};
        vkmd_energy_report_desc rd = {.system = "oct", .device = "cpu", .json = 1};
        CHECK_OK(vkmd_energy_report_write(f, &rd, &s, &ff, &e));
        fclose(f);
        size_t len = 0;
        char *text = test_read_file(json, &len);
        CHECK(text && strstr(text, "\"box_angles_deg\": [109.4712206, 109.4712206, "
                                   "109.4712206]") != NULL);
        free(text);
    }
    vkmd_system_destroy(&r);
    vkmd_system_destroy(&s);
}

static void test_checkpoint(void)
{
    printf("== checkpoints keep the cell bit for bit\n");
    vkmd_box oct;
    CHECK_OK(vkmd_box_set(&oct, (double[3]){31.3, 31.3, 31.3},
                          (double[3]){OCT_DEG, OCT_DEG, OCT_DEG}, "oct"));
    vkmd_box_scale(&oct, 1.0007); /* as a barostat leaves it: not rebuildable from len + angles */
    double x[6] = {1, 2, 3, 4, 5, 6}, v[6] = {0};
    for (int tri = 1; tri >= 0; --tri) {
        vkmd_box box = oct;
        if (!tri)
            vkmd_box_set_rect(&box, (double[3]){30, 31, 32});
        vkmd_checkpoint c = {
            .atom_count = 2, .step = 10, .md_step = 10, .positions = x, .velocities = v};
        vkmd_checkpoint_set_box(&c, &box);
        const char *path = DIR "/c.chk";
        CHECK_OK(vkmd_checkpoint_write(path, &c));
        vkmd_checkpoint r;
        CHECK_OK(vkmd_checkpoint_read(path, &r));
        vkmd_box back;
        vkmd_checkpoint_box(&r, &back);
        size_t len = 0;
        unsigned char *bytes = (unsigned char *)test_read_file(path, &len);
        uint32_t version = 0;
        if (bytes)
            memcpy(&version, bytes + 8, 4);
        free(bytes);
        printf("  %s: version %u, %zu bytes, box equal bit for bit: %d\n",
               tri ? "octahedron" : "rectangular", version, len, !memcmp(&back, &box, sizeof box));
        CHECK(!memcmp(&back, &box, sizeof box));
        CHECK(version == (tri ? 3u : 2u));
        vkmd_checkpoint_free(&r);
    }
}

static void test_make_whole(void)
{
    printf("== whole molecules in a truncated octahedron\n");
    vkmd_system s;
    CHECK_OK(vkmd_water_box_build(64, VKMD_WATER_BOX_DEFAULT_SEED, &s));
    CHECK_OK(vkmd_box_set(&s.box, (double[3]){16, 16, 16}, (double[3]){OCT_DEG, OCT_DEG, OCT_DEG},
                          "oct"));
    vkmd_molecules m;
    CHECK_OK(vkmd_molecules_build(&s, &m));
    /* Scatter every atom by lattice vectors, then make whole. */
    const double(*vec)[3] = s.box.vec;
    for (int32_t a = 0; a < s.atom_count; ++a) {
        const int k[3] = {a % 3 - 1, (a / 3) % 5 - 2, (a / 7) % 3 - 1};
        for (int c = 0; c < 3; ++c)
            s.positions[3 * a + c] += k[0] * vec[0][c] + k[1] * vec[1][c] + k[2] * vec[2][c];
    }
    vkmd_molecules_make_whole(&s, &m, s.positions);
    double worst_bond = 0, worst_root = 0;
    for (int32_t w = 0; w < s.water_count; ++w) {
        const int32_t o = s.waters[w].o, h[2] = {s.waters[w].h1, s.waters[w].h2};
        for (int k = 0; k < 2; ++k) {
            double d[3], dm[3];
            for (int c = 0; c < 3; ++c)
                d[c] = dm[c] = s.positions[3 * h[k] + c] - s.positions[3 * o + c];
            vkmd_box_min_image(&s.box, dm);
            worst_bond =
                fmax(worst_bond, fabs(sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) -
                                      sqrt(dm[0] * dm[0] + dm[1] * dm[1] + dm[2] * dm[2])));
        }
    }
    for (int32_t mol = 0; mol < m.count; ++mol) {
        double sh[3];
        vkmd_box_wrap_shift(&s.box, &s.positions[3 * m.walk[m.first[mol]]], sh);
        worst_root = fmax(worst_root, fabs(sh[0]) + fabs(sh[1]) + fabs(sh[2]));
    }
    printf("  %d molecules: max |bond - min-image bond| %.2g A, max root shift %.2g A\n", m.count,
           worst_bond, worst_root);
    CHECK(worst_bond < 1e-12 && worst_root == 0);
    vkmd_molecules_destroy(&m);
    vkmd_system_destroy(&s);
}

int main(void)
{
    mkdir(VKMD_TEST_GEN_DIR, 0777);
    mkdir(DIR, 0777);
    test_prmtop_rst7();
    test_checkpoint();
    test_make_whole();
    return test_finish("test_io_triclinic");
}

/* vkmd's DCD files against MDTraj, both ways, for a periodic box (water:20,
 * a box that changes from frame to frame) and a system without one:
 *   - vkmd writes a PDB (topology) and a DCD; tests/test_io_dcd_mdtraj.py
 *     loads them with md.load_dcd (frames, atoms, coordinates and box
 *     lengths in nm, angles 90) and with MDTraj's raw reader (the float32
 *     values in A, bit for bit);
 *   - the script writes the frames back in reverse order with MDTraj's DCD
 *     writer and vkmd's reader must find them, and the box, unchanged;
 *   - the same for a truncated octahedron's cell (angles 109.47 degrees both
 *     ways).
 * Runs /usr/bin/python3 (Debian's python3-mdtraj). A missing MDTraj fails the
 * test: it is a build dependency (build.sh). */
#include "io/dcd.h"
#include "io/pdb.h"
#include "system/water_box.h"
#include "testlib.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#define DIR    VKMD_TEST_GEN_DIR "/io_dcd_mdtraj"
#define SCRIPT VKMD_TEST_DATA_DIR "/../test_io_dcd_mdtraj.py"

enum { FRAMES = 4 };

/* Frame f: the built positions moved by a few A, box grown by 0.25 A per frame
 * (a triclinic box keeps its angles). */
static void frame_of(const vkmd_system *sys, int f, double *xyz, vkmd_box *box)
{
    for (int32_t i = 0; i < 3 * sys->atom_count; ++i)
        xyz[i] = sys->positions[i] + 0.7 * f * sin(0.91 * i + f);
    *box = sys->box;
    double len[3];
    for (int k = 0; k < 3; ++k)
        len[k] = box->len[k] + 0.25 * f + 0.01 * k;
    if (box->triclinic)
        CHECK_OK(vkmd_box_set(box, len, sys->box.angle_deg, "frame_of"));
    else
        memcpy(box->len, len, sizeof len);
}

static void run_case(const vkmd_system *sys, int periodic)
{
    const char *tag = !periodic ? "vacuum" : sys->box.triclinic ? "octahedron" : "box";
    printf("%s:\n", tag);
    char dcd[512], pdb[512], expected[512], back[512], cmd[2560];
    snprintf(dcd, sizeof dcd, "%s/%s.dcd", DIR, tag);
    snprintf(pdb, sizeof pdb, "%s/%s.pdb", DIR, tag);
    snprintf(expected, sizeof expected, "%s/%s.expected.txt", DIR, tag);
    snprintf(back, sizeof back, "%s/%s.mdtraj.dcd", DIR, tag);

    vkmd_system s = *sys; /* shallow: only the box flag differs */
    s.box.periodic = periodic;
    CHECK_OK(vkmd_pdb_write(pdb, &s));

    const int32_t n = sys->atom_count;
    double *xyz = malloc(sizeof(double) * 3 * (size_t)n);
    double *got = malloc(sizeof(double) * 3 * (size_t)n);
    FILE *ex = fopen(expected, "w");
    CHECK(xyz && got && ex);
    if (!xyz || !got || !ex) {
        free(xyz);
        free(got);
        if (ex)
            fclose(ex);
        return;
    }
    vkmd_dcd_desc d = {.atom_count = n,
                       .periodic = periodic,
                       .dt_fs = 2.0,
                       .steps_per_frame = 500,
                       .first_step = 500,
                       .title = "water:20 for mdtraj"};
    vkmd_dcd_writer *w = NULL;
    CHECK_OK(vkmd_dcd_writer_create(dcd, &d, &w));
    fprintf(ex, "frames %d atoms %d periodic %d\n", FRAMES, n, periodic);
    for (int f = 0; f < FRAMES && w; ++f) {
        vkmd_box box;
        frame_of(sys, f, xyz, &box);
        CHECK_OK(vkmd_dcd_writer_append(w, xyz, &box));
        if (periodic && box.triclinic)
            fprintf(ex, "box %.17g %.17g %.17g %.17g %.17g %.17g\n", box.len[0], box.len[1],
                    box.len[2], box.angle_deg[0], box.angle_deg[1], box.angle_deg[2]);
        else if (periodic)
            fprintf(ex, "box %.17g %.17g %.17g\n", box.len[0], box.len[1], box.len[2]);
        for (int32_t i = 0; i < n; ++i)
            fprintf(ex, "%.9g %.9g %.9g\n", (float)xyz[3 * i], (float)xyz[3 * i + 1],
                    (float)xyz[3 * i + 2]);
    }
    CHECK_OK(vkmd_dcd_writer_close(w));
    CHECK(fclose(ex) == 0);

    remove(back);
    snprintf(cmd, sizeof cmd, "/usr/bin/python3 '%s' '%s' '%s' '%s' '%s'", SCRIPT, dcd, pdb,
             expected, back);
    fflush(stdout);
    int status = system(cmd);
    int rc = status == -1 ? -1 : WIFEXITED(status) ? WEXITSTATUS(status) : 128;
    CHECK_MSG(rc == 0, "%s exited with %d", cmd, rc);

    /* MDTraj's file, read by vkmd: frame k is vkmd's frame FRAMES - 1 - k. */
    vkmd_dcd_info info;
    vkmd_result res = vkmd_dcd_read_info(back, &info);
    CHECK_OK(res);
    if (res == VKMD_OK) {
        printf("  vkmd reads mdtraj's DCD: %d frames of %d atoms, periodic %d, CHARMM %d, "
               "trailing %lld bytes\n",
               info.frame_count, info.atom_count, info.periodic, info.charmm,
               (long long)info.trailing_bytes);
        CHECK(info.frame_count == FRAMES && info.atom_count == n && info.periodic == periodic);
        double worst = 0, worst_box = 0, worst_angle = 0;
        for (int k = 0; k < info.frame_count && k < FRAMES; ++k) {
            vkmd_box want_box, got_box;
            frame_of(sys, FRAMES - 1 - k, xyz, &want_box);
            CHECK_OK(vkmd_dcd_read_frame(back, k, got, &got_box));
            for (int32_t i = 0; i < 3 * n; ++i)
                worst = fmax(worst, fabs(got[i] - (double)(float)xyz[i]));
            CHECK(got_box.periodic == periodic);
            if (periodic) {
                CHECK(got_box.triclinic == want_box.triclinic);
                for (int c = 0; c < 3; ++c) {
                    worst_box = fmax(worst_box, fabs(got_box.len[c] - want_box.len[c]));
                    if (want_box.triclinic)
                        worst_angle =
                            fmax(worst_angle, fabs(got_box.angle_deg[c] - want_box.angle_deg[c]));
                }
            }
        }
        printf("  max |coordinate - float(written)| %g A, max |box - written| %.3g A\n", worst,
               worst_box);
        CHECK(worst == 0);
        /* MDTraj stores the cell lengths as float32 before writing doubles. */
        CHECK(worst_box < 1e-5);
        if (sys->box.triclinic) {
            printf("  max |angle - written| %.3g degrees (float32 in MDTraj)\n", worst_angle);
            CHECK(worst_angle < 1e-4);
        }
    }
    free(xyz);
    free(got);
}

int main(void)
{
    mkdir(DIR, 0755);
    vkmd_system sys = {0};
    CHECK_OK(vkmd_water_box_build(20, VKMD_WATER_BOX_DEFAULT_SEED, &sys));
    if (sys.positions) {
        run_case(&sys, 1);
        run_case(&sys, 0);
        /* The same atoms in a truncated octahedron's cell. */
        const double oct = 109.4712206344907;
        CHECK_OK(vkmd_box_set(&sys.box, sys.box.len, (double[3]){oct, oct, oct}, "octahedron"));
        run_case(&sys, 1);
    }
    vkmd_system_destroy(&sys);
    return test_finish("test_io_dcd_mdtraj");
}

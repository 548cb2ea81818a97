/* What vkmd uff relax and vkmd view read and write through io/: the starts
 * of relax (vkmd_uff_starts_make: perturbed copies as vkmd_uff_perturb makes
 * them, or every conformation of a file), the replicas' SDF with FIRE data
 * items (vkmd_uff_replicas_write_sdf, read back as conformations, titles
 * and items as written) and view's frames (vkmd_frame_source: a molecule's
 * conformers; a file that cannot be written is an i/o error). */
#include "core/result.h"
#include "io/frame_source.h"
#include "io/uff_conformations.h"
#include "io/uff_load.h"
#include "io/uff_replicas_json.h"
#include "io/uff_replicas_sdf.h"
#include "testlib.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GEN VKMD_TEST_GEN_DIR "/io_uff_replicas"

int main(void)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", GEN);
    CHECK(system(cmd) == 0);
    vkmd_uff_molecule *fa = NULL;
    int32_t nfa = 0;
    CHECK_OK(vkmd_uff_molecule_load("formic-acid", &fa, &nfa));
    if (!fa)
        return test_finish("test_io_uff_replicas");
    const vkmd_uff_molecule *m = &fa[0];
    const int32_t na = m->atom_count;

    /* perturbed starts: replica r as vkmd_uff_perturb(seed, r) */
    double *start = NULL;
    int32_t n = 0;
    CHECK_OK(vkmd_uff_starts_make(m, "FA", NULL, 3, 0.2, 7, &start, &n));
    CHECK(n == 3 && start);
    double *one = malloc(sizeof *one * 3 * (size_t)na);
    for (int32_t r = 0; start && one && r < n; ++r) {
        vkmd_uff_perturb(m->positions, na, 0.2, 7, (uint32_t)r, one);
        CHECK(memcmp(one, start + 3 * (size_t)r * na, sizeof *one * 3 * (size_t)na) == 0);
    }

    /* the SDF of the replicas, read back as conformations */
    vkmd_uff_fire_result res[3] = {{.energy_final = -1.5, .energy_initial = 2, .steps = 40},
                                   {.energy_final = -1.25, .converged = 1, .fmax = 1e-4},
                                   {.energy_final = -1}};
    CHECK_OK(vkmd_uff_replicas_write_sdf(GEN "/reps.sdf", m, n, start, res, " after 5 steps"));
    double *again = NULL;
    int32_t n2 = 0;
    CHECK_OK(vkmd_uff_starts_make(m, "FA", GEN "/reps.sdf", 99, 0, 0, &again, &n2));
    CHECK(n2 == 3);
    for (int32_t k = 0; again && start && n2 == 3 && k < 3 * na * 3; ++k)
        CHECK(fabs(again[k] - start[k]) <= 5.1e-5);
    FILE *f = fopen(GEN "/reps.sdf", "r");
    char text[20000] = {0};
    if (f) {
        CHECK(fread(text, 1, sizeof text - 1, f) > 0);
        fclose(f);
    }
    char want[200];
    snprintf(want, sizeof want, "%s replica 2 after 5 steps\n", m->name);
    CHECK(strstr(text, want) != NULL);
    CHECK(strstr(text, "> <UFF_ENERGY_KCAL_PER_MOL>\n-1.500000\n") != NULL);
    CHECK(strstr(text, "> <FIRE_STEPS>\n40\n") != NULL);
    CHECK(strstr(text, "> <MAX_FORCE_KCAL_PER_MOL_A>\n1.000e-04\n") != NULL);
    CHECK(vkmd_uff_replicas_write_sdf(GEN "/no/such/dir/x.sdf", m, n, start, res, "") ==
          VKMD_ERROR_IO);

    /* the relax report: settings as resolved, replicas 1-based, converged counted */
    const vkmd_uff_relax_report rep = {.molecule = "FA",
                                       .device = "cpu",
                                       .out = "reps.sdf",
                                       .atom_count = na,
                                       .replica_count = 3,
                                       .params = vkmd_uff_fire_params_resolve(NULL),
                                       .results = res};
    f = fopen(GEN "/relax.json", "w+");
    CHECK(f != NULL);
    if (f) {
        vkmd_uff_relax_write_json(f, &rep);
        rewind(f);
        memset(text, 0, sizeof text);
        CHECK(fread(text, 1, sizeof text - 1, f) > 0);
        fclose(f);
    }
    CHECK(strstr(text, "\"n_converged\": 1,\n") && strstr(text, "\"criterion\": \"max\""));
    CHECK(strstr(text, "{\"replica\": 3, \"energy_initial_kcal_per_mol\": 0.0000000000, "));

    /* frames of a molecule: its conformers, the first as loaded */
    vkmd_frame_source fs;
    CHECK_OK(vkmd_frame_source_open("formic-acid", NULL, NULL, &fs));
    CHECK(fs.frame_count == m->conformer_count && fs.sys.atom_count == na && !fs.dcd);
    float *x4 = calloc(4 * (size_t)na, sizeof *x4);
    if (x4 && fs.sys.atom_count == na) {
        CHECK_OK(vkmd_frame_source_read(&fs, 0, x4));
        for (int32_t i = 0; i < na; ++i)
            CHECK(fabs(x4[4 * i + 2] - m->positions[3 * i + 2]) < 1e-5);
        CHECK(vkmd_frame_source_time_ps(&fs, 0) == 0);
    }
    vkmd_frame_source_close(&fs);
    CHECK(vkmd_frame_source_open(GEN "/absent.prmtop", NULL, NULL, &fs) != VKMD_OK);
    vkmd_frame_source_close(&fs);

    free(x4);
    free(one);
    free(start);
    free(again);
    vkmd_uff_molecule_array_free(fa, nfa);
    return test_finish("test_io_uff_replicas");
}

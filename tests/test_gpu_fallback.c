/* The 32-bit words fallback of the fixed-point sums (engine/forces/
 * fixed_point.h) against the int64-atomic path on the same device, bit for
 * bit: the whole force field (nonbonded, bonded + 1-4 + exclusions, PME) on
 * water:216 (displaced, periodic: every pass), villin in vacuum and salt
 * water, evaluated on three contexts of one device:
 *   int64   - the device as it is (int64 atomics);
 *   words   - VKMD_FORCE_NO_INT64_ATOMICS=1 (the atomics hidden);
 *   no-int64 - VKMD_FORCE_NO_INT64=1 (64-bit integers hidden altogether:
 *              the validation layer checks that no module declares them).
 * The raw accumulators (int64 forces and energy slots, as the device left
 * them) and the host's energies and forces must be identical, not close.
 * Where the device itself lacks the atomics the comparison is words vs
 * no-int64 only, and the test says so. */
#include "testlib.h"
#include "forces/fixed_point.h"
#include "forces/forcefield.h"
#include "io/load.h"
#include "vk/context.h"

#include <stdlib.h>
#include <string.h>

enum { CTX_INT64, CTX_WORDS, CTX_NO_INT64, CTX_COUNT };
static const char *const ctx_names[CTX_COUNT] = {"int64", "words", "no-int64"};
static const char *const ctx_env[CTX_COUNT] = {NULL, "VKMD_FORCE_NO_INT64_ATOMICS",
                                               "VKMD_FORCE_NO_INT64"};

/* One evaluation's results on one context. */
typedef struct result {
    int ok;
    int64_t *fixed_forces; /* [3 * atom_count], as on the device */
    int64_t slots[VKMD_ENERGY_SLOT_COUNT];
    double *forces; /* [3 * atom_count] kcal/mol/A */
    vkmd_energy energy;
} result;

/* Deterministic displacement of up to 0.03 A per coordinate: rigid water
 * boxes sit at the bond and angle minimum, where those terms are ~0. */
static void displace(vkmd_system *sys)
{
    uint64_t st = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < 3 * sys->atom_count; ++i) {
        st ^= st >> 12;
        st ^= st << 25;
        st ^= st >> 27;
        double u = (double)((st * 0x2545F4914F6CDD1Dull) >> 11) / 9007199254740992.0;
        sys->positions[i] += 0.06 * (u - 0.5);
    }
}

static void evaluate(vkmd_vk_context *ctx, const vkmd_system *sys, const vkmd_ff_settings *s,
                     result *out)
{
    const int32_t n = sys->atom_count;
    out->fixed_forces = calloc(3 * (size_t)n, sizeof *out->fixed_forces);
    out->forces = calloc(3 * (size_t)n, sizeof *out->forces);
    CHECK(out->fixed_forces && out->forces);
    if (!out->fixed_forces || !out->forces)
        return;
    vkmd_forcefield *ff = NULL;
    const vkmd_forcefield_desc fd = {.settings = s};
    CHECK_OK(vkmd_forcefield_create(ctx, sys, &fd, &ff));
    if (!ff)
        return;
    vkmd_result r = vkmd_forcefield_evaluate(ctx, ff, NULL, &out->energy, out->forces);
    CHECK_OK(r);
    const vkmd_accum *acc = vkmd_forcefield_accum(ff);
    if (r == VKMD_OK) {
        vkmd_result r1 = vkmd_vk_buffer_readback(ctx, &acc->forces, 0, out->fixed_forces,
                                                 3 * (size_t)n * sizeof(int64_t));
        vkmd_result r2 =
            vkmd_vk_buffer_readback(ctx, &acc->energies, 0, out->slots, sizeof out->slots);
        CHECK_OK(r1);
        CHECK_OK(r2);
        out->ok = r1 == VKMD_OK && r2 == VKMD_OK;
    }
    vkmd_forcefield_destroy(ctx, ff);
}

static void free_result(result *r)
{
    free(r->fixed_forces);
    free(r->forces);
}

/* Prints and checks that b is bitwise a. */
static void compare(const char *what, const result *a, const result *b, int32_t n)
{
    if (!a->ok || !b->ok) {
        printf("  %s: no result to compare\n", what);
        CHECK(a->ok && b->ok);
        return;
    }
    int force_diff = 0, slot_diff = 0, first = -1;
    for (int i = 0; i < 3 * n; ++i)
        if (a->fixed_forces[i] != b->fixed_forces[i] && force_diff++ == 0)
            first = i;
    for (int s = 0; s < VKMD_ENERGY_SLOT_COUNT; ++s)
        slot_diff += a->slots[s] != b->slots[s];
    int host_same = !memcmp(&a->energy, &b->energy, sizeof a->energy) &&
                    !memcmp(a->forces, b->forces, 3 * (size_t)n * sizeof(double));
    printf("  %s: fixed-point forces differing %d of %d, energy slots differing %d of %d, host "
           "energies and forces %s\n",
           what, force_diff, 3 * n, slot_diff, VKMD_ENERGY_SLOT_COUNT,
           host_same ? "identical" : "DIFFER");
    if (first >= 0)
        printf("    first force difference: component %d: %lld vs %lld\n", first,
               (long long)a->fixed_forces[first], (long long)b->fixed_forces[first]);
    CHECK(force_diff == 0);
    CHECK(slot_diff == 0);
    CHECK(host_same);
}

static void run(vkmd_vk_context *const *ctx, const char *spec, int displaced)
{
    vkmd_system sys = {0};
    CHECK_OK(vkmd_system_load(spec, NULL, &sys));
    if (!sys.positions)
        return;
    if (displaced)
        displace(&sys);
    vkmd_ff_settings s = {0};
    CHECK_OK(vkmd_ff_settings_resolve(&s, &sys));
    const int32_t n = sys.atom_count;
    result r[CTX_COUNT] = {{0}};
    for (int c = 0; c < CTX_COUNT; ++c)
        if (ctx[c])
            evaluate(ctx[c], &sys, &s, &r[c]);
    const result *base = ctx[CTX_INT64] ? &r[CTX_INT64] : &r[CTX_WORDS];
    printf("== %s: %d atoms, %s; total %.9f kcal/mol (LJ %.9f, real %.9f, recip %.9f, bonded "
           "%.9f)\n",
           spec, n, sys.box.periodic ? "periodic" : "vacuum", base->energy.total,
           base->energy.lj_pair, base->energy.coulomb_real, base->energy.coulomb_recip,
           base->energy.bond + base->energy.angle + base->energy.dihedral + base->energy.improper);
    long long nonzero_slots = 0;
    for (int k = 0; k < VKMD_ENERGY_SLOT_COUNT; ++k)
        nonzero_slots += base->slots[k] != 0;
    printf("  energy slots written: %lld\n", nonzero_slots);
    if (ctx[CTX_INT64])
        compare("words vs int64", &r[CTX_INT64], &r[CTX_WORDS], n);
    compare("no-int64 vs words", &r[CTX_WORDS], &r[CTX_NO_INT64], n);
    for (int c = 0; c < CTX_COUNT; ++c)
        free_result(&r[c]);
    vkmd_system_destroy(&sys);
}

int main(void)
{
    vkmd_vk_context *ctx[CTX_COUNT] = {NULL};
    int early = test_vk_open("test_gpu_fallback", &ctx[CTX_INT64]);
    if (early >= 0)
        return early;
    if (vkmd_fixed_mode_of(ctx[CTX_INT64]) != VKMD_FIXED_MODE_INT64) {
        printf("the device has no int64 atomics: comparing the words build with itself under "
               "the two overrides only\n");
        vkmd_vk_context_destroy(ctx[CTX_INT64]);
        ctx[CTX_INT64] = NULL;
    }
    for (int c = CTX_WORDS; c < CTX_COUNT; ++c) {
        setenv(ctx_env[c], "1", 1);
        CHECK_OK(vkmd_vk_context_create(NULL, &ctx[c]));
        unsetenv(ctx_env[c]);
        if (ctx[c]) {
            printf("context %s: fixed-point sums in %s (shaderInt64 %d, "
                   "shaderBufferInt64Atomics %d)\n",
                   ctx_names[c], vkmd_fixed_mode_name(vkmd_fixed_mode_of(ctx[c])),
                   ctx[c]->info.features.shader_int64, ctx[c]->info.features.buffer_int64_atomics);
            CHECK(vkmd_fixed_mode_of(ctx[c]) == VKMD_FIXED_MODE_WORDS);
        }
    }
    if (ctx[CTX_WORDS] && ctx[CTX_NO_INT64]) {
        run(ctx, "water:216", 1);
        run(ctx, VKMD_TEST_DATA_DIR "/villin_vac.prmtop", 0);
        run(ctx, VKMD_TEST_DATA_DIR "/water_nacl.prmtop", 1);
    }
    for (int c = 0; c < CTX_COUNT; ++c) {
        if (!ctx[c])
            continue;
        printf("validation errors (%s): %u\n", ctx_names[c],
               vkmd_vk_context_validation_errors(ctx[c]));
        CHECK_OK(vkmd_vk_context_check_validation(ctx[c]));
        vkmd_vk_context_destroy(ctx[c]);
    }
    return test_finish("test_gpu_fallback");
}

/* The host setup of a surface evaluation (io/uff_surface_setup.h): formic
 * acid above NaCl, directly (no grid) and with an allocated grid (its shape
 * covers the placed atoms' channels); the description names the substrate,
 * the mode and the height; an unknown substrate fails and frees cleanly. */
#include "io/uff_load.h"
#include "io/uff_surface_setup.h"
#include "system/uff_terms.h"
#include "testlib.h"

#include <string.h>

int main(void)
{
    vkmd_uff_molecule *fa = NULL;
    int32_t nfa = 0;
    vkmd_uff_typing ty;
    vkmd_uff_terms terms;
    memset(&ty, 0, sizeof ty);
    memset(&terms, 0, sizeof terms);
    CHECK_OK(vkmd_uff_molecule_load("formic-acid", &fa, &nfa));
    if (!fa)
        return test_finish("test_io_uff_surface_setup");
    CHECK_OK(vkmd_uff_setup(&fa[0], NULL, &ty, &terms));
    const vkmd_uff_typing *types[1] = {&ty};
    const vkmd_uff_replica reps[2] = {{0, fa[0].positions}, {0, fa[0].positions}};
    char desc[512];

    vkmd_uff_surface_setup_desc d = {.spec = "nacl", .height_a = 3.0};
    vkmd_uff_surface_setup s;
    CHECK_OK(vkmd_uff_surface_setup_build(&d, types, 1, reps, 2, &s));
    CHECK(s.placed.count == 2 && s.placed.atom_count == 2 * fa[0].atom_count);
    CHECK(s.grid.nx == 0 && s.surf.cutoff_a > 0);
    vkmd_uff_surface_setup_describe(&s, &d, desc, sizeof desc);
    printf("%s\n", desc);
    CHECK(!strncmp(desc, "nacl, direct, UFF LJ 12-6, cutoff", 33));
    CHECK(strstr(desc, "lowest atom 3.000 A above the top layer") != NULL);
    vkmd_uff_surface_setup_free(&s);

    d.grid = 1;
    d.spacing_a = 0.3;
    d.form = VKMD_UFF_SURFACE_FORM_MORSE;
    CHECK_OK(vkmd_uff_surface_setup_build(&d, types, 1, reps, 2, &s));
    CHECK(s.grid.nx > 0 && s.grid.ny > 0 && s.grid.nz > 0);
    vkmd_uff_surface_setup_describe(&s, &d, desc, sizeof desc);
    printf("%s\n", desc);
    CHECK(!strncmp(desc, "nacl, grid ", 11) && strstr(desc, "Morse (UFF well)") != NULL);
    vkmd_uff_surface_setup_free(&s);

    d.spec = "no-such-substrate.xyz";
    CHECK(vkmd_uff_surface_setup_build(&d, types, 1, reps, 2, &s) != VKMD_OK);
    vkmd_uff_surface_setup_free(&s);

    vkmd_uff_terms_free(&terms);
    vkmd_uff_typing_free(&ty);
    vkmd_uff_molecule_array_free(fa, nfa);
    return test_finish("test_io_uff_surface_setup");
}

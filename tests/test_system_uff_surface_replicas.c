/* Replicas placed above a surface (system/uff_surface_replicas.h): the
 * distinct labels of two molecules in order of first appearance; replicas of
 * both, in turn, placed with their lowest atom at the height asked (x, y and
 * the shape kept), their offsets, and each atom's channel naming its own UFF
 * type; an atom type the surface lacks is refused. */
#include "io/uff_load.h"
#include "system/uff_params.h"
#include "system/uff_surface_replicas.h"
#include "system/uff_terms.h"
#include "testlib.h"

#include <math.h>
#include <string.h>

int main(void)
{
    vkmd_uff_molecule *fa = NULL, *xy = NULL;
    int32_t nfa = 0, nxy = 0;
    vkmd_uff_typing ty[2];
    vkmd_uff_terms terms[2];
    memset(ty, 0, sizeof ty);
    memset(terms, 0, sizeof terms);
    vkmd_uff_param_table params = {0};
    vkmd_uff_substrate sub = {0};
    vkmd_uff_surface surf = {0}, small = {0};
    CHECK_OK(vkmd_uff_molecule_load("formic-acid", &fa, &nfa));
    CHECK_OK(vkmd_uff_molecule_load("xylitol", &xy, &nxy));
    CHECK_OK(vkmd_uff_params_load_default(&params));
    CHECK_OK(vkmd_uff_substrate_nacl(2, &sub));
    if (!fa || !xy)
        return test_finish("test_system_uff_surface_replicas");
    CHECK_OK(vkmd_uff_setup(&fa[0], NULL, &ty[0], &terms[0]));
    CHECK_OK(vkmd_uff_setup(&xy[0], NULL, &ty[1], &terms[1]));
    const vkmd_uff_typing *types[2] = {&ty[0], &ty[1]};
    char labels[64][VKMD_UFF_LABEL_MAX];
    const int32_t nl = vkmd_uff_surface_labels_of(types, 2, labels);
    printf("%d labels:", nl);
    for (int32_t k = 0; k < nl; ++k)
        printf(" %s", labels[k]);
    printf("\n");
    CHECK(nl >= 3 && !strcmp(labels[0], ty[0].label[0]));
    for (int32_t k = 0; k < nl; ++k)
        for (int32_t j = 0; j < k; ++j)
            CHECK(strcmp(labels[j], labels[k]) != 0);
    CHECK_OK(vkmd_uff_surface_build(&sub, &params, (const char(*)[VKMD_UFF_LABEL_MAX])labels, nl,
                                    NULL, &surf));

    const vkmd_uff_replica reps[3] = {
        {1, xy[0].positions}, {0, fa[0].positions}, {1, xy[0].positions}};
    vkmd_uff_surface_replicas p;
    CHECK_OK(vkmd_uff_surface_replicas_place(&surf, types, reps, 3, 2.5, &p));
    const int32_t nx = xy[0].atom_count, nf = fa[0].atom_count;
    CHECK(p.count == 3 && p.atom_count == 2 * nx + nf);
    CHECK(p.offset && p.offset[0] == 0 && p.offset[1] == nx && p.offset[2] == nx + nf);
    for (int32_t r = 0; p.offset && r < 3; ++r) {
        const vkmd_uff_typing *t = types[reps[r].molecule];
        const double *src = reps[r].positions, *dst = p.xyz + 3 * (size_t)p.offset[r];
        double zmin = INFINITY, shift = dst[2] - src[2];
        for (int32_t a = 0; a < t->atom_count; ++a) {
            zmin = fmin(zmin, dst[3 * a + 2]);
            CHECK(dst[3 * a] == src[3 * a] && dst[3 * a + 1] == src[3 * a + 1]);
            CHECK(fabs(dst[3 * a + 2] - src[3 * a + 2] - shift) < 1e-12);
            CHECK(!strcmp(surf.channel_label[p.channel[p.offset[r] + a]], t->label[a]));
        }
        CHECK(fabs(zmin - 2.5) < 1e-12);
    }
    vkmd_uff_surface_replicas_free(&p);
    CHECK(p.xyz == NULL && p.count == 0);

    /* a surface with formic acid's types only: its replica is placed, xylitol's
     * other types are refused */
    const int32_t nfl = vkmd_uff_surface_labels_of(types, 1, labels);
    CHECK_OK(vkmd_uff_surface_build(&sub, &params, (const char(*)[VKMD_UFF_LABEL_MAX])labels, nfl,
                                    NULL, &small));
    CHECK_OK(vkmd_uff_surface_replicas_place(&small, types, reps + 1, 1, 3.0, &p));
    vkmd_uff_surface_replicas_free(&p);
    if (nl > nfl) {
        CHECK(vkmd_uff_surface_replicas_place(&small, types, reps, 3, 3.0, &p) ==
              VKMD_ERROR_INVALID_ARGUMENT);
        CHECK(p.xyz == NULL);
        printf("%s\n", vkmd_last_error());
    }
    vkmd_uff_surface_free(&small);
    vkmd_uff_surface_free(&surf);
    vkmd_uff_substrate_free(&sub);
    vkmd_uff_params_destroy(&params);
    for (int k = 0; k < 2; ++k) {
        vkmd_uff_terms_free(&terms[k]);
        vkmd_uff_typing_free(&ty[k]);
    }
    vkmd_uff_molecule_array_free(fa, nfa);
    vkmd_uff_molecule_array_free(xy, nxy);
    return test_finish("test_system_uff_surface_replicas");
}

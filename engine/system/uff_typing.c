/* UFF atom typing (see uff_typing.h). */
#include "system/uff_typing.h"

#include "system/element.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

vkmd_result vkmd_uff_atom_label(const vkmd_uff_molecule *mol, const vkmd_uff_perception *p,
                                int32_t a, char out_label[VKMD_UFF_LABEL_MAX])
{
    int32_t z = mol->z[a];
    const char *sym = vkmd_element_symbol(z);
    char key[16];
    snprintf(key, sizeof key, "%s%s", sym, strlen(sym) == 1 ? "_" : "");
    int outer = vkmd_uff_outer_electrons(z);
    vkmd_uff_hybridization h = p->hyb[a];
    const char *flag = "";
    if (vkmd_uff_default_valence(z) == -1 || (outer != 1 && outer != 7)) {
        switch (z) {
        case 12:
        case 13:
        case 14:
        case 15:
        case 50:
        case 51:
        case 52:
        case 81:
        case 82:
        case 83:
        case 84:
            strcat(key, "3"); /* always tetrahedral in RDKit's typer */
            break;
        default:
            switch (h) {
            case VKMD_UFF_HYB_SP:
                strcat(key, "1");
                break;
            case VKMD_UFF_HYB_SP2: {
                int conj = 0;
                for (int32_t k = p->nbr_start[a]; k < p->nbr_start[a + 1]; ++k)
                    conj |= p->bond_conjugated[p->nbr_bond[k]];
                int resonant = (p->aromatic[a] || conj) && (z == 6 || z == 7 || z == 8 || z == 16);
                strcat(key, resonant ? "R" : "2");
                break;
            }
            case VKMD_UFF_HYB_SP3:
                strcat(key, "3");
                break;
            case VKMD_UFF_HYB_SP2D:
                strcat(key, "4");
                break;
            case VKMD_UFF_HYB_SP3D:
                strcat(key, "5");
                break;
            case VKMD_UFF_HYB_SP3D2:
                strcat(key, "6");
                break;
            default:
                break;
            }
        }
    }
    int val = p->valence[a];
    if (z == 15) {
        flag = val == 3 ? "+3" : val == 5 ? "+5" : NULL;
    } else if (z == 16 && h != VKMD_UFF_HYB_SP2) {
        flag = val == 2 ? "+2" : val == 4 ? "+4" : val == 6 ? "+6" : NULL;
    } else if (z == 34 || z == 52 || z == 84) {
        flag = val == 2 ? "+2" : NULL;
    }
    if (!flag)
        return vkmd_fail(VKMD_ERROR_UNSUPPORTED,
                         "%s: atom %d (%s): no UFF charge state for total valence %d", mol->source,
                         a + 1, sym, val);
    strcat(key, flag);
    if (strlen(key) >= VKMD_UFF_LABEL_MAX)
        return vkmd_fail(VKMD_ERROR_UNSUPPORTED, "%s: atom %d (%s): label '%s' is too long",
                         mol->source, a + 1, sym, key);
    strcpy(out_label, key);
    return VKMD_OK;
}

vkmd_result vkmd_uff_type_atoms(const vkmd_uff_molecule *mol, const vkmd_uff_param_table *params,
                                vkmd_uff_typing *out)
{
    memset(out, 0, sizeof *out);
    vkmd_result res = vkmd_uff_perceive(mol, &out->perception);
    if (res != VKMD_OK)
        return res;
    out->atom_count = mol->atom_count;
    out->type = malloc((size_t)mol->atom_count * sizeof *out->type);
    out->label = calloc((size_t)mol->atom_count, sizeof *out->label);
    if (!out->type || !out->label) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: out of memory", mol->source);
        goto cleanup;
    }
    for (int32_t a = 0; a < mol->atom_count; ++a) {
        if ((res = vkmd_uff_atom_label(mol, &out->perception, a, out->label[a])) != VKMD_OK)
            goto cleanup;
        out->type[a] = vkmd_uff_params_find(params, out->label[a]);
        if (out->type[a] < 0) {
            res = vkmd_fail(VKMD_ERROR_UNSUPPORTED,
                            "%s: atom %d (%s, %s): UFF type '%s' is not in the parameter table",
                            mol->source, a + 1, vkmd_element_symbol(mol->z[a]),
                            vkmd_uff_hybridization_name(out->perception.hyb[a]), out->label[a]);
            goto cleanup;
        }
    }
    return VKMD_OK;
cleanup:
    vkmd_uff_typing_free(out);
    return res;
}

void vkmd_uff_typing_free(vkmd_uff_typing *t)
{
    vkmd_uff_perception_free(&t->perception);
    free(t->type);
    free(t->label);
    memset(t, 0, sizeof *t);
}

/* Element symbols and standard masses (IUPAC, amu). */
#include "system/element.h"

#include <math.h>
#include <string.h>

static const struct {
    const char *sym;
    double mass;
} elements[] = {
    {"", 0.0},      {"H", 1.008},   {"He", 4.0026}, {"Li", 6.94},   {"Be", 9.0122}, {"B", 10.81},
    {"C", 12.011},  {"N", 14.007},  {"O", 15.999},  {"F", 18.998},  {"Ne", 20.180}, {"Na", 22.990},
    {"Mg", 24.305}, {"Al", 26.982}, {"Si", 28.085}, {"P", 30.974},  {"S", 32.06},   {"Cl", 35.45},
    {"Ar", 39.948}, {"K", 39.098},  {"Ca", 40.078}, {"Sc", 44.956}, {"Ti", 47.867}, {"V", 50.942},
    {"Cr", 51.996}, {"Mn", 54.938}, {"Fe", 55.845}, {"Co", 58.933}, {"Ni", 58.693}, {"Cu", 63.546},
    {"Zn", 65.38},  {"Ga", 69.723}, {"Ge", 72.630}, {"As", 74.922}, {"Se", 78.971}, {"Br", 79.904},
    {"Kr", 83.798}, {"Rb", 85.468}, {"Sr", 87.62},  {"Y", 88.906},  {"Zr", 91.224}, {"Nb", 92.906},
    {"Mo", 95.95},  {"Tc", 98.0},   {"Ru", 101.07}, {"Rh", 102.91}, {"Pd", 106.42}, {"Ag", 107.87},
    {"Cd", 112.41}, {"In", 114.82}, {"Sn", 118.71}, {"Sb", 121.76}, {"Te", 127.60}, {"I", 126.90},
    {"Xe", 131.29}, {"Cs", 132.91}, {"Ba", 137.33},
};

#define ELEMENT_COUNT ((int32_t)(sizeof elements / sizeof *elements))

const char *vkmd_element_symbol(int32_t z)
{
    return z > 0 && z < ELEMENT_COUNT ? elements[z].sym : "";
}

int32_t vkmd_element_from_mass(double mass_amu)
{
    if (!(mass_amu >= 0.5))
        return 0;
    if (mass_amu < 4.5 && mass_amu > 3.5 && fabs(mass_amu - elements[2].mass) < 0.01)
        return 2;
    if (mass_amu < 4.5)
        return 1; /* H, D, T and repartitioned hydrogens */
    int32_t best = 0;
    double best_d = 1.0;
    for (int32_t z = 3; z < ELEMENT_COUNT; ++z) {
        double d = fabs(mass_amu - elements[z].mass);
        if (d < best_d) {
            best_d = d;
            best = z;
        }
    }
    return best;
}

int32_t vkmd_element_from_symbol(const char *sym)
{
    if (!strcmp(sym, "D") || !strcmp(sym, "T"))
        return 1;
    for (int32_t z = 1; z < 128; ++z) {
        const char *s = vkmd_element_symbol(z);
        if (!*s)
            break;
        if (!strcmp(s, sym))
            return z;
    }
    return 0;
}

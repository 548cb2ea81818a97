/* Chemical elements for the readers and writers: symbols for PDB output and a
 * guess from the mass when a prmtop has no ATOMIC_NUMBER section. */
#ifndef VKMD_SYSTEM_ELEMENT_H
#define VKMD_SYSTEM_ELEMENT_H

#include <stdint.h>

/* Symbol of atomic number z ("C", "Na"); "" for 0 or unknown numbers. */
const char *vkmd_element_symbol(int32_t z);

/* Atomic number whose standard mass is nearest `mass_amu` (H..Xe plus Cs, Ba),
 * or 0 for a mass below 0.5 amu (extra points) or with no element within
 * 1 amu (hydrogen-mass-repartitioned hydrogens, up to 4 amu, count as 1). */
int32_t vkmd_element_from_mass(double mass_amu);

/* Atomic number of the exact symbol `sym` ("C", "Cl"; deuterium "D" and
 * tritium "T" count as hydrogen), 0 when unknown. */
int32_t vkmd_element_from_symbol(const char *sym);

#endif

/* The sections of an AMBER prmtop, for the readers in io/prmtop*.c only
 * (not an interface of the engine): the file indexed once into %FLAG
 * sections, each read with its own %FORMAT into a growable array, so a
 * wrong count in POINTERS gives "expected N values, found M" instead of a
 * huge allocation; every message names path:line and the section.
 * prmtop_sections.c reads sections and checks indices, prmtop_charmm.c the
 * CHARMM (chamber) and CMAP sections, prmtop.c builds the system. */
#ifndef VKMD_IO_PRMTOP_SECTIONS_H
#define VKMD_IO_PRMTOP_SECTIONS_H

#include "io/text.h"
#include "system/system.h"

#include <stdint.h>

/* Upper bounds that keep every size computation far from overflow. */
#define MAX_ATOMS 100000000
#define MAX_TYPES 10000
#define MAX_COUNT 500000000

typedef struct vkmd_prmtop_section {
    char name[64];
    int32_t flag_line; /* 0-based line of "%FLAG NAME" */
    int32_t fmt_line;  /* 0-based line of "%FORMAT(...)", -1 if none */
    int32_t begin;     /* first data line */
    int32_t end;       /* one past the last data line (next %FLAG or EOF) */
} vkmd_prmtop_section;

typedef struct vkmd_prmtop_file {
    const char *path;
    vkmd_text text;
    vkmd_prmtop_section *secs;
    int32_t sec_count;
} vkmd_prmtop_file;

typedef struct vkmd_prmtop_format {
    int per_line; /* values per line */
    char kind;    /* 'I' integer, 'E' real, 'A' string */
    int width;    /* characters per value */
} vkmd_prmtop_format;

/* One section's values; exactly one of i / d / s is set by the reader. */
typedef struct vkmd_prmtop_values {
    int present;
    int64_t count;
    int64_t cap;
    int64_t *i;
    double *d;
    char (*s)[8];
    int32_t *line; /* 1-based line of each value (integer sections) */
} vkmd_prmtop_values;

/* Frees a section's values and zeroes them. */
void vkmd_prmtop_values_free(vkmd_prmtop_values *v);

/* The section called `name`, or NULL. */
const vkmd_prmtop_section *vkmd_prmtop_find_section(const vkmd_prmtop_file *p, const char *name);

/* Splits p->text into sections (p->secs). Errors: VKMD_ERROR_PARSE naming
 * path:line (no %FLAG at all, a %FLAG without name, a section twice). */
vkmd_result vkmd_prmtop_index_sections(vkmd_prmtop_file *p);

/* Reads section `name` as `kind` values ('I', 'E', 'A') into *v. `want`
 * (or `alt`, if >= 0) is the count the pointers promise; want < 0 accepts
 * any count. A missing section is an error only if `required` and the
 * promised count is not zero. */
vkmd_result vkmd_prmtop_read_section(const vkmd_prmtop_file *p, const char *name, char kind,
                                     int required, int64_t want, int64_t alt,
                                     vkmd_prmtop_values *v);

/* A stored atom index (3 * (atom - 1), sign = flag) as 0-based *out; a
 * parameter type 1..ntypes as 0-based *out; a plain 1-based atom number as
 * 0-based *out. Errors name path:line, the section, what and its entry. */
vkmd_result vkmd_prmtop_atom_index(const vkmd_prmtop_file *p, const char *sec, const char *what,
                                   int64_t entry, int32_t line, int64_t raw, int32_t natom,
                                   int32_t *out);
vkmd_result vkmd_prmtop_type_index(const vkmd_prmtop_file *p, const char *sec, const char *what,
                                   int64_t entry, int32_t line, int64_t raw, int64_t ntypes,
                                   int32_t *out);
vkmd_result vkmd_prmtop_plain_atom(const vkmd_prmtop_file *p, const char *sec, const char *what,
                                   int64_t entry, int32_t line, int64_t raw, int32_t natom,
                                   int32_t *out);

/* The 1-based line of the first data line of section `name` (or its %FLAG;
 * 0 when there is no such section). */
int32_t vkmd_prmtop_section_line(const vkmd_prmtop_file *p, const char *name);

/* A count section of n values ("terms, types"), each in 0..MAX_COUNT. */
vkmd_result vkmd_prmtop_read_counts(const vkmd_prmtop_file *p, const char *name, int64_t n,
                                    int64_t *out);

/* 1 for a chamber (CHARMM) prmtop (prmtop_charmm.c). */
int vkmd_prmtop_is_chamber(const vkmd_prmtop_file *p);

/* The CHARMM terms of a chamber prmtop (Urey-Bradley, harmonic impropers,
 * the 1-4 LJ tables; nbidx the NONBONDED_PARM_INDEX values) and the CMAP
 * terms of an AMBER or chamber prmtop, into s (prmtop_charmm.c). */
vkmd_result vkmd_prmtop_read_charmm(const vkmd_prmtop_file *p, int32_t natom, int64_t ntypes,
                                    const vkmd_prmtop_values *nbidx, vkmd_system *s);
vkmd_result vkmd_prmtop_read_cmap(const vkmd_prmtop_file *p, int32_t natom, vkmd_system *s);

#endif

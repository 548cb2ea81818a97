/* Line-oriented text input and fixed-width number helpers shared by the
 * readers and writers in engine/io (prmtop, inpcrd/rst7, pdb).
 *
 * The whole file is read into memory once and split into NUL-terminated lines
 * (a trailing '\r' is dropped, so CRLF files read like LF files). Fixed-width
 * fields are parsed by column, never by whitespace, because Fortran-formatted
 * numbers may run together ("-1.03E+01-7.57E+00"). */
#ifndef VKMD_IO_TEXT_H
#define VKMD_IO_TEXT_H

#include "core/result.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct vkmd_text {
    char *buf;          /* the file's bytes, '\n' replaced by NUL; owned */
    size_t size;        /* bytes read */
    char **lines;       /* [line_count] pointers into buf; owned */
    int32_t *lens;      /* [line_count] line lengths after trailing '\r' and spaces are cut */
    int32_t line_count; /* lines; a final line without '\n' counts */
} vkmd_text;

/* Reads `path` into `out` (overwritten). VKMD_ERROR_IO if it cannot be opened
 * or read, VKMD_ERROR_OUT_OF_MEMORY if it does not fit. An empty file reads
 * as zero lines (the caller decides whether that is an error). */
vkmd_result vkmd_text_read(const char *path, vkmd_text *out);

/* Frees what vkmd_text_read allocated and zeroes `t`. Safe on a zeroed struct. */
void vkmd_text_free(vkmd_text *t);

/* 1 if the first bytes look like a binary NetCDF (classic or HDF5-based) file. */
int vkmd_text_is_netcdf(const vkmd_text *t);

/* Parses the `len` characters at `field` (not NUL-terminated) as a whole
 * number or a real number; surrounding spaces are allowed, anything else is
 * not. Reals accept Fortran 'D' exponents and must be finite. Return 1 on
 * success, 0 for a blank or malformed field. */
int vkmd_text_parse_int(const char *field, int len, int64_t *out);
int vkmd_text_parse_real(const char *field, int len, double *out);

/* Copies a field of at most `len` characters into `dst` (size `dst_size`)
 * without leading and trailing spaces. */
void vkmd_text_field_str(const char *field, int len, char *dst, size_t dst_size);

/* Writes `v` right-aligned in exactly `width` characters with at most
 * `max_decimals` decimals, dropping decimals until it fits. Returns 0 (and
 * writes nothing useful) if it cannot fit even without decimals. `dst` must
 * hold width + 1 bytes. */
int vkmd_text_format_fixed(char *dst, int width, int max_decimals, double v);

/* Closes a file the writers wrote to `path` and reports the outcome: when
 * `values_fit` is 0 the partial file is removed and VKMD_ERROR_INVALID_ARGUMENT
 * carries "path: <why_not_fit>"; a write or close failure is VKMD_ERROR_IO. */
vkmd_result vkmd_text_close_written(FILE *f, const char *path, int values_fit,
                                    const char *why_not_fit);

#endif

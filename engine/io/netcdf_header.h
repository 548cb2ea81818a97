/* A check of a NetCDF file's header before libnetcdf parses it.
 *
 * libnetcdf (4.9) trusts a classic header: it allocates what the header
 * declares (a name of 3 GB, a billion dimensions) before it finds the file
 * too short for it, divides by zero on a variable with a bad type or the
 * record dimension out of place, and reads zeros past the end of a file cut
 * off in its data. All three were found by fuzz/fuzz_netcdf.c
 * (tests/broken/fuzz). This walks the header of a classic, 64-bit offset or
 * CDF-5 file and checks every count against the file's size, every type and
 * dimension id, the record dimension's place, and that every variable's data
 * lies inside the file. No allocation beyond what the header's own bytes
 * bound. */
#ifndef VKMD_IO_NETCDF_HEADER_H
#define VKMD_IO_NETCDF_HEADER_H

#include <stdint.h>

typedef enum vkmd_netcdf_header_kind {
    VKMD_NETCDF_HEADER_OK,          /* a classic NetCDF file whose header and data are whole */
    VKMD_NETCDF_HEADER_NOT_CLASSIC, /* no CDF signature (or the file cannot be read) */
    VKMD_NETCDF_HEADER_HDF5,        /* NetCDF-4: an HDF5 signature */
    VKMD_NETCDF_HEADER_CORRUPT,     /* *out_at: the byte where the header stops making sense */
    VKMD_NETCDF_HEADER_CUT          /* *out_at: the end of the data the header describes, past
                                       the file's *out_size bytes */
} vkmd_netcdf_header_kind;

/* Checks the file at `path` as above; out_at and out_size as the kinds say
 * (0 otherwise). Never fails otherwise: an unreadable file is NOT_CLASSIC. */
vkmd_netcdf_header_kind vkmd_netcdf_header_check(const char *path, int64_t *out_at,
                                                 int64_t *out_size);

#endif

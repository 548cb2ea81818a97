/* The classic NetCDF header walked before libnetcdf parses it (see
 * netcdf_header.h): the grammar of
 * https://docs.unidata.ucar.edu/netcdf-c/current/file_format_specifications.html,
 * every count checked against the bytes left in the file. */
#include "io/netcdf_header.h"

#include <netcdf.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

typedef struct hdr_reader {
    FILE *f;
    int64_t pos, size;
    int wide; /* CDF-5: 64-bit counts */
} hdr_reader;

static int hdr_u32(hdr_reader *h, uint64_t *out)
{
    unsigned char b[4];
    if (h->size - h->pos < 4 || fread(b, 1, 4, h->f) != 4)
        return 0;
    h->pos += 4;
    *out = (uint64_t)b[0] << 24 | (uint64_t)b[1] << 16 | (uint64_t)b[2] << 8 | b[3];
    return 1;
}

/* A count: 32 bits, or 64 in CDF-5. */
static int hdr_count(hdr_reader *h, uint64_t *out)
{
    uint64_t hi = 0, lo;
    if (h->wide && !hdr_u32(h, &hi))
        return 0;
    if (!hdr_u32(h, &lo))
        return 0;
    *out = hi << 32 | lo;
    return 1;
}

static int hdr_skip(hdr_reader *h, uint64_t n)
{
    if ((uint64_t)(h->size - h->pos) < n || fseeko(h->f, (off_t)n, SEEK_CUR) != 0)
        return 0;
    h->pos += (int64_t)n;
    return 1;
}

/* A list's tag and element count, the count bounded by the bytes left over
 * `min_bytes` per element. */
static int hdr_list(hdr_reader *h, uint64_t want_tag, uint64_t min_bytes, uint64_t *out_n)
{
    uint64_t tag, n;
    if (!hdr_u32(h, &tag) || !hdr_count(h, &n))
        return 0;
    if (tag == 0 && n == 0) { /* ABSENT */
        *out_n = 0;
        return 1;
    }
    *out_n = n;
    return tag == want_tag && n <= (uint64_t)(h->size - h->pos) / min_bytes;
}

static int hdr_name(hdr_reader *h)
{
    uint64_t len;
    return hdr_count(h, &len) && len <= NC_MAX_NAME && hdr_skip(h, (len + 3) & ~(uint64_t)3);
}

static int hdr_attrs(hdr_reader *h)
{
    static const uint64_t type_size[12] = {0, 1, 1, 2, 4, 4, 8, 1, 2, 4, 8, 8};
    uint64_t n;
    if (!hdr_list(h, 0x0C, h->wide ? 24 : 12, &n))
        return 0;
    for (uint64_t a = 0; a < n; ++a) {
        uint64_t type, count;
        if (!hdr_name(h) || !hdr_u32(h, &type) || type < 1 || type > (h->wide ? 11u : 6u) ||
            !hdr_count(h, &count) || count > (uint64_t)(h->size - h->pos) / type_size[type] ||
            !hdr_skip(h, (count * type_size[type] + 3) & ~(uint64_t)3))
            return 0;
    }
    return 1;
}

/* a * b + c, or UINT64_MAX when it overflows. */
static uint64_t mul_add(uint64_t a, uint64_t b, uint64_t c)
{
    if (b != 0 && a > (UINT64_MAX - c) / b)
        return UINT64_MAX;
    return a * b + c;
}

/* What the data check needs of one variable. */
typedef struct hdr_var {
    uint64_t begin, vsize; /* data offset; the header's vsize (padded) */
    uint64_t bytes;        /* unpadded bytes (of one record for a record variable) */
    int record;
} hdr_var;

vkmd_netcdf_header_kind vkmd_netcdf_header_check(const char *path, int64_t *out_at,
                                                 int64_t *out_size)
{
    static const uint64_t type_size[12] = {0, 1, 1, 2, 4, 4, 8, 1, 2, 4, 8, 8};
    *out_at = *out_size = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return VKMD_NETCDF_HEADER_NOT_CLASSIC;
    hdr_reader h = {.f = f};
    unsigned char magic[4] = {0};
    int ok = 1;
    vkmd_netcdf_header_kind kind = VKMD_NETCDF_HEADER_NOT_CLASSIC;
    uint64_t *dim_len = NULL;
    hdr_var *vars = NULL;
    if (fseeko(f, 0, SEEK_END) == 0 && (h.size = ftello(f)) >= 4 && fseeko(f, 0, SEEK_SET) == 0 &&
        fread(magic, 1, 4, f) == 4 && memcmp(magic, "\x89HDF", 4) == 0)
        kind = VKMD_NETCDF_HEADER_HDF5;
    if (h.size >= 4 && memcmp(magic, "CDF", 3) == 0 &&
        (magic[3] == 1 || magic[3] == 2 || magic[3] == 5)) {
        h.pos = 4;
        h.wide = magic[3] == 5;
        /* Also what libnetcdf 4.9 divides by without checking: a valid type
         * for every variable, one record dimension (length 0), first if used.
         * The arrays grow as the header is read: they stay within its size. */
        uint64_t numrecs, n_dims, len, n = 0, rec = UINT64_MAX, cap = 0;
        ok = hdr_count(&h, &numrecs) && hdr_list(&h, 0x0A, h.wide ? 16 : 8, &n_dims);
        for (uint64_t d = 0; ok && d < n_dims; ++d) {
            ok = hdr_name(&h) && hdr_count(&h, &len) && (len > 0 || rec == UINT64_MAX);
            if (ok && d >= cap) {
                cap = cap ? 2 * cap : 16;
                uint64_t *grown = realloc(dim_len, sizeof *dim_len * cap);
                ok = grown != NULL;
                if (grown)
                    dim_len = grown;
            }
            if (ok)
                dim_len[d] = len;
            if (len == 0)
                rec = d;
        }
        ok = ok && hdr_attrs(&h) && hdr_list(&h, 0x0B, h.wide ? 60 : 28, &n);
        cap = 0;
        for (uint64_t v = 0; ok && v < n; ++v) {
            if (v >= cap) {
                cap = cap ? 2 * cap : 16;
                hdr_var *grown = realloc(vars, sizeof *vars * cap);
                if (!grown) {
                    ok = 0;
                    break;
                }
                vars = grown;
            }
            hdr_var *hv = &vars[v];
            uint64_t ndims, type, id, bytes = 1, hi = 0, lo = 0;
            hv->record = 0;
            ok = hdr_name(&h) && hdr_count(&h, &ndims) &&
                 ndims <= (uint64_t)(h.size - h.pos) / (h.wide ? 8 : 4);
            for (uint64_t k = 0; ok && k < ndims; ++k) {
                ok = hdr_count(&h, &id) && id < n_dims && (id != rec || k == 0);
                if (ok && id == rec)
                    hv->record = 1;
                else if (ok)
                    bytes = mul_add(bytes, dim_len[id], 0);
            }
            ok = ok && hdr_attrs(&h) && hdr_u32(&h, &type) && type >= 1 &&
                 type <= (h.wide ? 11u : 6u) && hdr_count(&h, &hv->vsize) &&
                 (magic[3] == 1 || hdr_u32(&h, &hi)) && hdr_u32(&h, &lo);
            hv->begin = hi << 32 | lo;
            hv->bytes = ok ? mul_add(bytes, type_size[type], 0) : 0;
        }
        *out_at = h.pos;
        kind = ok ? VKMD_NETCDF_HEADER_OK : VKMD_NETCDF_HEADER_CORRUPT;
        /* The data: a record holds every record variable's vsize in turn (a
         * lone record variable: its unpadded size), numrecs of them. A
         * streaming numrecs (all ones) libnetcdf counts from the file's size. */
        const uint64_t streaming = h.wide ? UINT64_MAX : 0xffffffffu;
        uint64_t recsize = 0, n_rec = 0;
        for (uint64_t v = 0; ok && v < n; ++v)
            if (vars[v].record) {
                recsize = mul_add(1, recsize, vars[v].vsize);
                ++n_rec;
            }
        for (uint64_t v = 0; ok && v < n; ++v) {
            const hdr_var *hv = &vars[v];
            uint64_t end = mul_add(1, hv->begin, hv->bytes);
            if (hv->record) {
                if (numrecs == 0 || numrecs == streaming)
                    continue;
                end = mul_add(numrecs - 1, n_rec == 1 ? hv->bytes : recsize, end);
            }
            if (end > (uint64_t)h.size) {
                kind = VKMD_NETCDF_HEADER_CUT;
                *out_at = end > INT64_MAX ? INT64_MAX : (int64_t)end;
                *out_size = h.size;
                break;
            }
        }
    }
    free(dim_len);
    free(vars);
    fclose(f);
    return kind;
}

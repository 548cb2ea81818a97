/* DCD writer and reader (engine/io/dcd.h):
 *   - the bytes of the header and of a frame at the offsets CHARMM, VMD and
 *     MDTraj read them from (markers, ICNTRL, DELTA in AKMA units, unit cell
 *     A gamma B beta alpha C);
 *   - write/read round trips, periodic and not: coordinates come back as
 *     their float roundings, the box exactly;
 *   - NSET and NSTEP in the header after every append (a killed run leaves a
 *     valid file);
 *   - non-finite or float-overflowing coordinates and box lengths are refused
 *     and nothing is written;
 *   - reopening to append: mismatches refused, a cut-off last frame dropped;
 *   - truncated and malformed files: complete frames still read, parse errors
 *     name the byte offset, foreign flavours are refused as unsupported;
 *   - a full disk (/dev/full) is an I/O error. */
#include "io/dcd.h"
#include "testlib.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define DIR VKMD_TEST_GEN_DIR "/io_dcd"

static const int32_t atoms = 7;

/* Deterministic coordinates of frame `f`, spread over a few tens of A with
 * values that are not exact floats. */
static void frame_coords(int f, int32_t n, double *xyz)
{
    for (int32_t i = 0; i < 3 * n; ++i)
        xyz[i] = 30.0 * sin(0.37 * i + 1.3 * f) + 0.001 * f - 5.0 / (i + 1.7);
}

static int64_t file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (int64_t)st.st_size : -1;
}

static int32_t le_i32(const unsigned char *p)
{
    uint32_t u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    int32_t v;
    memcpy(&v, &u, 4);
    return v;
}

static float le_f32(const unsigned char *p)
{
    int32_t i = le_i32(p);
    float v;
    memcpy(&v, &i, 4);
    return v;
}

static double le_f64(const unsigned char *p)
{
    uint64_t u = (uint64_t)(uint32_t)le_i32(p) | (uint64_t)(uint32_t)le_i32(p + 4) << 32;
    double v;
    memcpy(&v, &u, 8);
    return v;
}

/* Largest |read - float(written)| over a frame (0 when they agree bit for bit). */
static double frame_error(const double *written, const double *read, int32_t n)
{
    double m = 0;
    for (int32_t i = 0; i < 3 * n; ++i)
        m = fmax(m, fabs(read[i] - (double)(float)written[i]));
    return m;
}

static vkmd_result write_frames(const char *path, const vkmd_dcd_desc *d, int frames,
                                const vkmd_box *box)
{
    vkmd_dcd_writer *w = NULL;
    double xyz[3 * 7];
    vkmd_result res = vkmd_dcd_writer_create(path, d, &w);
    for (int f = 0; f < frames && res == VKMD_OK; ++f) {
        frame_coords(f, d->atom_count, xyz);
        vkmd_box b = *box;
        b.len[0] += f; /* the box changes from frame to frame (NPT) */
        res = vkmd_dcd_writer_append(w, xyz, &b);
    }
    vkmd_result close_res = vkmd_dcd_writer_close(w);
    return res != VKMD_OK ? res : close_res;
}

static void test_layout(void)
{
    printf("layout of the header and the first frame:\n");
    const char *path = DIR "/layout.dcd";
    vkmd_dcd_desc d = {.atom_count = atoms,
                       .periodic = 1,
                       .dt_fs = 2.0,
                       .steps_per_frame = 500,
                       .first_step = 1000,
                       .title = "layout test"};
    vkmd_box box = {.periodic = 1, .len = {31.5, 32.25, 33.125}};
    CHECK_OK(write_frames(path, &d, 3, &box));
    size_t len = 0;
    unsigned char *b = (unsigned char *)test_read_file(path, &len);
    CHECK(b != NULL);
    if (!b)
        return;
    const int64_t header = 92 + 172 + 12, frame = 56 + 3 * (8 + 4 * atoms);
    printf("  size %zu bytes (header %lld + 3 frames of %lld)\n", len, (long long)header,
           (long long)frame);
    CHECK((int64_t)len == header + 3 * frame);
    CHECK(le_i32(b) == 84 && memcmp(b + 4, "CORD", 4) == 0 && le_i32(b + 88) == 84);
    CHECK(le_i32(b + 8) == 3);               /* NSET */
    CHECK(le_i32(b + 12) == 1000);           /* ISTART */
    CHECK(le_i32(b + 16) == 500);            /* NSAVC */
    CHECK(le_i32(b + 20) == 1000 + 2 * 500); /* NSTEP: step of the last frame */
    const double delta = le_f32(b + 8 + 9 * 4);
    printf("  DELTA %.9g AKMA = %.9g fs\n", delta, delta * 48.88821);
    CHECK(fabs(delta - 2.0 / 48.88821) < 1e-7);
    CHECK(le_i32(b + 8 + 10 * 4) == 1);  /* unit cell present */
    CHECK(le_i32(b + 8 + 19 * 4) == 24); /* CHARMM version */
    CHECK(le_i32(b + 92) == 164 && le_i32(b + 96) == 2 && le_i32(b + 92 + 168) == 164);
    CHECK(memcmp(b + 100, "layout test ", 12) == 0);
    CHECK(le_i32(b + 264) == 4 && le_i32(b + 268) == atoms && le_i32(b + 272) == 4);
    const unsigned char *fr = b + header;
    CHECK(le_i32(fr) == 48 && le_i32(fr + 52) == 48);
    const double cell[6] = {31.5, 90, 32.25, 90, 90, 33.125};
    for (int k = 0; k < 6; ++k)
        CHECK_MSG(le_f64(fr + 4 + 8 * k) == cell[k], "cell[%d] %g", k, le_f64(fr + 4 + 8 * k));
    double xyz[3 * 7];
    frame_coords(0, atoms, xyz);
    for (int k = 0; k < 3; ++k) {
        const unsigned char *r = fr + 56 + k * (8 + 4 * atoms);
        CHECK(le_i32(r) == 4 * atoms && le_i32(r + 4 + 4 * atoms) == 4 * atoms);
        for (int i = 0; i < atoms; ++i)
            CHECK(le_f32(r + 4 + 4 * i) == (float)xyz[3 * i + k]);
    }
    free(b);
}

static void test_round_trip(int periodic)
{
    printf("round trip, %s:\n", periodic ? "periodic" : "no box");
    const char *path = periodic ? DIR "/rt_box.dcd" : DIR "/rt_vac.dcd";
    vkmd_dcd_desc d = {.atom_count = atoms,
                       .periodic = periodic,
                       .dt_fs = 4.0,
                       .steps_per_frame = 250,
                       .title = NULL};
    vkmd_box box = {.periodic = 1, .len = {40.0, 41.0, 42.0}};
    CHECK_OK(write_frames(path, &d, 4, &box));
    vkmd_dcd_info info;
    CHECK_OK(vkmd_dcd_read_info(path, &info));
    printf("  atoms %d frames %d (NSET %d) periodic %d dt %.9g fs nsavc %d istart %lld "
           "title '%s'\n",
           info.atom_count, info.frame_count, info.header_frames, info.periodic, info.dt_fs,
           info.steps_per_frame, (long long)info.first_step, info.title);
    CHECK(info.atom_count == atoms && info.frame_count == 4 && info.header_frames == 4);
    CHECK(info.periodic == periodic && info.charmm == 1 && info.trailing_bytes == 0);
    CHECK(info.steps_per_frame == 250 && info.first_step == 0 && info.last_step == 750);
    CHECK(fabs(info.dt_fs - 4.0) < 4.0 * 1e-7);
    CHECK(strcmp(info.title, "vkmd") == 0);

    vkmd_dcd_reader *r = NULL;
    CHECK_OK(vkmd_dcd_reader_open(path, &r));
    double want[3 * 7], got[3 * 7];
    double worst = 0;
    for (int f = 0; r && f < 4; ++f) {
        vkmd_box b = {.periodic = -1};
        frame_coords(f, atoms, want);
        CHECK_OK(vkmd_dcd_reader_frame(r, f, got, &b));
        worst = fmax(worst, frame_error(want, got, atoms));
        if (periodic)
            CHECK(b.periodic == 1 && b.len[0] == 40.0 + f && b.len[1] == 41.0 && b.len[2] == 42.0);
        else
            CHECK(b.periodic == 0);
    }
    /* Frames read out of order come back the same. */
    frame_coords(1, atoms, want);
    if (r)
        CHECK_OK(vkmd_dcd_reader_frame(r, 1, got, NULL));
    worst = fmax(worst, frame_error(want, got, atoms));
    printf("  max |read - float(written)| = %g A over 5 frame reads\n", worst);
    CHECK(worst == 0);
    if (r)
        CHECK(vkmd_dcd_reader_frame(r, 4, got, NULL) == VKMD_ERROR_INVALID_ARGUMENT);
    vkmd_dcd_reader_close(r);
}

static void test_refuse_non_finite(void)
{
    printf("non-finite values refused:\n");
    const char *path = DIR "/nan.dcd";
    vkmd_dcd_desc d = {.atom_count = atoms, .periodic = 1, .dt_fs = 2.0, .steps_per_frame = 10};
    vkmd_box box = {.periodic = 1, .len = {30, 30, 30}};
    vkmd_dcd_writer *w = NULL;
    double xyz[3 * 7];
    frame_coords(0, atoms, xyz);
    CHECK_OK(vkmd_dcd_writer_create(path, &d, &w));
    if (!w)
        return;
    CHECK_OK(vkmd_dcd_writer_append(w, xyz, &box));
    const int64_t size1 = file_size(path);
    const double bad[3] = {NAN, INFINITY, 1e39};
    for (int k = 0; k < 3; ++k) {
        double x[3 * 7];
        memcpy(x, xyz, sizeof x);
        x[3 * 3 + 1] = bad[k]; /* atom 3, y */
        vkmd_result res = vkmd_dcd_writer_append(w, x, &box);
        printf("  y(atom 3) = %g -> %s: %s\n", bad[k], vkmd_result_str(res), vkmd_last_error());
        CHECK(res == VKMD_ERROR_NUMERIC);
        CHECK(strstr(vkmd_last_error(), "atom 3") && strstr(vkmd_last_error(), "nan.dcd"));
    }
    vkmd_box nan_box = box;
    nan_box.len[2] = NAN;
    vkmd_result res = vkmd_dcd_writer_append(w, xyz, &nan_box);
    printf("  box c = nan -> %s: %s\n", vkmd_result_str(res), vkmd_last_error());
    CHECK(res == VKMD_ERROR_NUMERIC);
    CHECK(vkmd_dcd_writer_append(w, xyz, NULL) == VKMD_ERROR_INVALID_ARGUMENT);
    CHECK(vkmd_dcd_writer_frame_count(w) == 1);
    CHECK(file_size(path) == size1);
    CHECK_OK(vkmd_dcd_writer_append(w, xyz, &box));
    CHECK_OK(vkmd_dcd_writer_close(w));
    vkmd_dcd_info info;
    CHECK_OK(vkmd_dcd_read_info(path, &info));
    CHECK(info.frame_count == 2 && info.header_frames == 2 && info.trailing_bytes == 0);

    d.dt_fs = NAN;
    CHECK(vkmd_dcd_writer_create(path, &d, &w) == VKMD_ERROR_INVALID_ARGUMENT);
    d.dt_fs = 2.0;
    d.atom_count = 0;
    CHECK(vkmd_dcd_writer_create(path, &d, &w) == VKMD_ERROR_INVALID_ARGUMENT);
    d.atom_count = atoms;
    d.first_step = (int64_t)INT32_MAX + 1;
    CHECK(vkmd_dcd_writer_create(path, &d, &w) == VKMD_ERROR_INVALID_ARGUMENT);
    CHECK(w == NULL);
}

static void test_append_reopen(void)
{
    printf("reopen and append:\n");
    const char *path = DIR "/append.dcd";
    vkmd_dcd_desc d = {.atom_count = atoms,
                       .periodic = 1,
                       .dt_fs = 2.0,
                       .steps_per_frame = 100,
                       .first_step = 100,
                       .title = "append"};
    vkmd_box box = {.periodic = 1, .len = {35, 36, 37}};
    CHECK_OK(write_frames(path, &d, 2, &box));

    vkmd_dcd_writer *w = NULL;
    vkmd_dcd_desc wrong = d;
    wrong.atom_count = atoms + 1;
    vkmd_result res = vkmd_dcd_writer_open_append(path, &wrong, &w);
    printf("  atom count mismatch -> %s: %s\n", vkmd_result_str(res), vkmd_last_error());
    CHECK(res == VKMD_ERROR_INVALID_ARGUMENT && w == NULL);
    wrong = d;
    wrong.periodic = 0;
    res = vkmd_dcd_writer_open_append(path, &wrong, &w);
    printf("  periodic mismatch -> %s: %s\n", vkmd_result_str(res), vkmd_last_error());
    CHECK(res == VKMD_ERROR_INVALID_ARGUMENT && w == NULL);
    wrong = d;
    wrong.steps_per_frame = 50;
    CHECK(vkmd_dcd_writer_open_append(path, &wrong, &w) == VKMD_ERROR_INVALID_ARGUMENT);
    wrong = d;
    wrong.dt_fs = 1.0;
    CHECK(vkmd_dcd_writer_open_append(path, &wrong, &w) == VKMD_ERROR_INVALID_ARGUMENT);
    CHECK(vkmd_dcd_writer_open_append(DIR "/missing.dcd", &d, &w) == VKMD_ERROR_IO);

    /* Zero steps_per_frame and dt_fs take the file's. */
    vkmd_dcd_desc loose = {.atom_count = atoms, .periodic = 1};
    CHECK_OK(vkmd_dcd_writer_open_append(path, &loose, &w));
    if (!w)
        return;
    CHECK(vkmd_dcd_writer_frame_count(w) == 2);
    double xyz[3 * 7];
    frame_coords(2, atoms, xyz);
    vkmd_box b = box;
    b.len[0] += 2;
    CHECK_OK(vkmd_dcd_writer_append(w, xyz, &b));
    CHECK_OK(vkmd_dcd_writer_close(w));

    vkmd_dcd_info info;
    CHECK_OK(vkmd_dcd_read_info(path, &info));
    printf("  after append: frames %d NSET %d ISTART %lld NSTEP %lld title '%s'\n",
           info.frame_count, info.header_frames, (long long)info.first_step,
           (long long)info.last_step, info.title);
    CHECK(info.frame_count == 3 && info.header_frames == 3 && info.trailing_bytes == 0);
    CHECK(info.first_step == 100 && info.last_step == 300 && strcmp(info.title, "append") == 0);
    double got[3 * 7], want[3 * 7];
    double worst = 0;
    for (int f = 0; f < 3; ++f) {
        vkmd_box gb;
        frame_coords(f, atoms, want);
        CHECK_OK(vkmd_dcd_read_frame(path, f, got, &gb));
        worst = fmax(worst, frame_error(want, got, atoms));
        CHECK(gb.periodic == 1 && gb.len[0] == 35.0 + f);
    }
    printf("  max |read - float(written)| = %g A\n", worst);
    CHECK(worst == 0);

    /* Restart from a checkpoint older than the last frame: drop it. */
    CHECK_OK(vkmd_dcd_writer_open_append(path, &d, &w));
    if (w) {
        CHECK(vkmd_dcd_writer_truncate(w, 4) == VKMD_ERROR_INVALID_ARGUMENT);
        CHECK_OK(vkmd_dcd_writer_truncate(w, 1));
        CHECK(vkmd_dcd_writer_frame_count(w) == 1);
        CHECK_OK(vkmd_dcd_writer_close(w));
    }
    CHECK_OK(vkmd_dcd_read_info(path, &info));
    printf("  after truncate(1): frames %d NSET %d NSTEP %lld\n", info.frame_count,
           info.header_frames, (long long)info.last_step);
    CHECK(info.frame_count == 1 && info.header_frames == 1 && info.last_step == 100);
}

static void test_truncated(void)
{
    printf("a run killed mid-frame, and malformed files:\n");
    const char *path = DIR "/killed.dcd";
    vkmd_dcd_desc d = {.atom_count = atoms, .periodic = 1, .dt_fs = 2.0, .steps_per_frame = 10};
    vkmd_box box = {.periodic = 1, .len = {30, 31, 32}};
    CHECK_OK(write_frames(path, &d, 3, &box));
    const int64_t frame = 56 + 3 * (8 + 4 * atoms);
    const int64_t full = file_size(path);
    CHECK(truncate(path, (off_t)(full - frame / 2)) == 0);

    vkmd_dcd_info info;
    CHECK_OK(vkmd_dcd_read_info(path, &info));
    printf("  cut mid-frame: frames %d NSET %d trailing %lld bytes\n", info.frame_count,
           info.header_frames, (long long)info.trailing_bytes);
    CHECK(info.frame_count == 2 && info.header_frames == 3);
    CHECK(info.trailing_bytes == frame - frame / 2);
    double got[3 * 7], want[3 * 7];
    frame_coords(1, atoms, want);
    CHECK_OK(vkmd_dcd_read_frame(path, 1, got, NULL));
    CHECK(frame_error(want, got, atoms) == 0);
    CHECK(vkmd_dcd_read_frame(path, 2, got, NULL) == VKMD_ERROR_INVALID_ARGUMENT);

    vkmd_dcd_writer *w = NULL;
    CHECK_OK(vkmd_dcd_writer_open_append(path, &d, &w));
    if (w) {
        CHECK(vkmd_dcd_writer_frame_count(w) == 2);
        printf("  reopened: %d frames, size %lld (was %lld)\n", vkmd_dcd_writer_frame_count(w),
               (long long)file_size(path), (long long)(full - frame / 2));
        CHECK(file_size(path) == full - frame);
        frame_coords(7, atoms, want);
        CHECK_OK(vkmd_dcd_writer_append(w, want, &box));
        CHECK_OK(vkmd_dcd_writer_close(w));
    }
    CHECK_OK(vkmd_dcd_read_info(path, &info));
    CHECK(info.frame_count == 3 && info.header_frames == 3 && info.trailing_bytes == 0);
    CHECK_OK(vkmd_dcd_read_frame(path, 2, got, NULL));
    CHECK(frame_error(want, got, atoms) == 0);

    /* Killed between the frame and the header update: NSET one short; the
     * reader goes by the size. */
    FILE *f = fopen(path, "r+b");
    CHECK(f != NULL);
    if (f) {
        const unsigned char two[4] = {2, 0, 0, 0};
        fseek(f, 8, SEEK_SET);
        fwrite(two, 1, 4, f);
        fclose(f);
    }
    CHECK_OK(vkmd_dcd_read_info(path, &info));
    CHECK(info.frame_count == 3 && info.header_frames == 2);

    /* A corrupted Y-record marker in frame 1. */
    const int64_t y_marker = info.header_bytes + frame + 56 + (8 + 4 * atoms);
    f = fopen(path, "r+b");
    if (f) {
        const unsigned char junk[4] = {9, 9, 0, 0};
        fseek(f, (long)y_marker, SEEK_SET);
        fwrite(junk, 1, 4, f);
        fclose(f);
    }
    vkmd_result res = vkmd_dcd_read_frame(path, 1, got, NULL);
    char want_msg[64];
    snprintf(want_msg, sizeof want_msg, "byte %lld", (long long)y_marker);
    printf("  bad Y marker -> %s: %s\n", vkmd_result_str(res), vkmd_last_error());
    CHECK(res == VKMD_ERROR_PARSE && strstr(vkmd_last_error(), want_msg));
    CHECK_OK(vkmd_dcd_read_frame(path, 0, got, NULL));

    /* Cut inside the header. */
    const char *cut = DIR "/cut_header.dcd";
    CHECK_OK(write_frames(cut, &d, 1, &box));
    CHECK(truncate(cut, 150) == 0);
    res = vkmd_dcd_read_info(cut, &info);
    printf("  header cut at 150 bytes -> %s: %s\n", vkmd_result_str(res), vkmd_last_error());
    CHECK(res == VKMD_ERROR_PARSE && strstr(vkmd_last_error(), "byte 100"));
    CHECK(vkmd_dcd_writer_open_append(cut, &d, &w) == VKMD_ERROR_PARSE && w == NULL);

    /* Not a DCD; a big-endian one; a missing file. */
    const char *text = DIR "/text.dcd";
    f = fopen(text, "wb");
    if (f) {
        fputs("HEADER    not a trajectory\n", f);
        fclose(f);
    }
    res = vkmd_dcd_read_info(text, &info);
    printf("  text file -> %s: %s\n", vkmd_result_str(res), vkmd_last_error());
    CHECK(res == VKMD_ERROR_PARSE && strstr(vkmd_last_error(), "byte 0"));
    const char *big = DIR "/big_endian.dcd";
    f = fopen(big, "wb");
    if (f) {
        const unsigned char h[8] = {0, 0, 0, 84, 'C', 'O', 'R', 'D'};
        fwrite(h, 1, 8, f);
        fclose(f);
    }
    res = vkmd_dcd_read_info(big, &info);
    printf("  big-endian -> %s: %s\n", vkmd_result_str(res), vkmd_last_error());
    CHECK(res == VKMD_ERROR_UNSUPPORTED);
    CHECK(vkmd_dcd_read_info(DIR "/missing.dcd", &info) == VKMD_ERROR_IO);
}

static void test_disk_full(void)
{
    printf("disk full:\n");
    if (access("/dev/full", W_OK) != 0) {
        printf("  /dev/full not writable here; not checked\n");
        return;
    }
    vkmd_dcd_desc d = {.atom_count = atoms};
    vkmd_dcd_writer *w = NULL;
    vkmd_result res = vkmd_dcd_writer_create("/dev/full", &d, &w);
    printf("  create on /dev/full -> %s: %s\n", vkmd_result_str(res), vkmd_last_error());
    CHECK(res == VKMD_ERROR_IO && w == NULL);
    CHECK(strstr(vkmd_last_error(), "/dev/full") != NULL);
}

int main(void)
{
    mkdir(DIR, 0755);
    test_layout();
    test_round_trip(1);
    test_round_trip(0);
    test_refuse_non_finite();
    test_append_reopen();
    test_truncated();
    test_disk_full();
    return test_finish("test_io_dcd");
}

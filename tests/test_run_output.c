/* run/energy_drift, run/energy_csv and run/progress_line: the energy-drift fit (slope, its standard
 * error, the conversion to k_B T per ns per degree of freedom), the energy CSV (header, columns,
 * digits kept, non-finite rows refused, append without a second header) and the progress reporter
 * (lines, bar redraw throttling, ETA). */
#include "core/clock.h"
#include "run/progress_line.h"
#include "run/energy_csv.h"
#include "run/energy_drift.h"
#include "testlib.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define DIR VKMD_TEST_GEN_DIR "/run_output"

static void test_drift(void)
{
    printf("drift fit:\n");
    enum { N = 2001 };
    double t[N], e[N];
    /* An exact line far from zero: the centred sums keep every digit. */
    const double slope_per_ps = 0.0123, offset = -312345.678;
    for (int i = 0; i < N; ++i) {
        t[i] = 0.05 * i + 100.0; /* ps; a restart's times do not start at 0 */
        e[i] = offset + slope_per_ps * t[i];
    }
    vkmd_energy_drift d;
    CHECK_OK(vkmd_energy_drift_fit(t, e, N, 300.0, 26601, &d));
    check_close("exact line: slope kcal/mol/ns", d.slope_kcal_mol_per_ns, 12.3, 1e-9, 0);
    check_close("exact line: intercept kcal/mol", d.intercept_kcal_mol, offset, 1e-12, 0);
    CHECK(d.rms_residual_kcal_mol < 1e-9 && d.samples == N);
    /* k_B T at 300 K is 0.596161 kcal/mol (k_B = 0.0019872043 kcal/mol/K). */
    check_close("kT/ns/dof", d.kt_per_ns_per_dof, 12.3 / (0.0019872042586 * 300.0) / 26601, 1e-9,
                0);

    /* A line plus a fluctuation of 1 kcal/mol: the slope is found within a
     * few standard errors, and the standard error matches the scatter. */
    for (int i = 0; i < N; ++i)
        e[i] = offset + slope_per_ps * t[i] + sin(2.3 * i) + 0.5 * cos(0.7 * i * i);
    CHECK_OK(vkmd_energy_drift_fit(t, e, N, 300.0, 26601, &d));
    printf("  noisy line: slope %.4f +- %.4f kcal/mol/ns (true 12.3), rms residual %.4f\n",
           d.slope_kcal_mol_per_ns, d.slope_stderr_kcal_mol_per_ns, d.rms_residual_kcal_mol);
    CHECK(fabs(d.slope_kcal_mol_per_ns - 12.3) < 4 * d.slope_stderr_kcal_mol_per_ns);
    /* stderr ~ rms / sqrt(sum (t - mean)^2) = 0.79 / sqrt(N var_t) = 0.6 kcal/mol/ns */
    const double var_t = ((double)N * N - 1) / 12.0 * 0.05 * 0.05;
    const double want_se = d.rms_residual_kcal_mol / sqrt(N * var_t) * 1000.0;
    check_close("noisy line: slope stderr", d.slope_stderr_kcal_mol_per_ns, want_se, 0.01, 0);
    CHECK(fabs(d.rms_residual_kcal_mol - sqrt(0.5 + 0.125)) < 0.05);

    /* Two samples: exact, no standard error. */
    double t2[2] = {0, 2}, e2[2] = {-10, -9};
    CHECK_OK(vkmd_energy_drift_fit(t2, e2, 2, 300, 10, &d));
    CHECK(fabs(d.slope_kcal_mol_per_ns - 500.0) < 1e-9 && d.slope_stderr_kcal_mol_per_ns == 0);

    CHECK(vkmd_energy_drift_fit(t, e, 1, 300, 10, &d) == VKMD_ERROR_INVALID_ARGUMENT);
    double same[3] = {1, 1, 1};
    CHECK(vkmd_energy_drift_fit(same, e, 3, 300, 10, &d) == VKMD_ERROR_INVALID_ARGUMENT);
    CHECK(vkmd_energy_drift_fit(t, e, N, 0, 10, &d) == VKMD_ERROR_INVALID_ARGUMENT);
    CHECK(vkmd_energy_drift_fit(t, e, N, 300, 0, &d) == VKMD_ERROR_INVALID_ARGUMENT);
    e[17] = NAN;
    vkmd_result res = vkmd_energy_drift_fit(t, e, N, 300, 10, &d);
    printf("  NaN sample -> %s: %s\n", vkmd_result_str(res), vkmd_last_error());
    CHECK(res == VKMD_ERROR_NUMERIC && strstr(vkmd_last_error(), "sample 17"));
}

static int count_lines(const char *s, const char *prefix)
{
    int n = 0;
    for (const char *p = s; p && *p;) {
        if (strncmp(p, prefix, strlen(prefix)) == 0)
            ++n;
        p = strchr(p, '\n');
        if (p)
            ++p;
    }
    return n;
}

static void test_csv(void)
{
    printf("energy CSV:\n");
    const char *path = DIR "/energy.csv";
    vkmd_energy_csv_desc d = {.system = "water:216",
                              .atom_count = 648,
                              .dof = 1293,
                              .integrator = "langevin-middle",
                              .dt_fs = 2.0,
                              .temperature_k = 300,
                              .friction_per_ps = 1.0,
                              .settings =
                                  "constraints hbonds+rigid water, cutoff 9 A, PME tolerance 5e-4"};
    vkmd_energy_csv *c = NULL;
    CHECK_OK(vkmd_energy_csv_create(path, &d, &c));
    if (!c)
        return;
    vkmd_energy_row rows[3];
    for (int i = 0; i < 3; ++i) {
        rows[i] = (vkmd_energy_row){.step = 1000 * i,
                                    .time_ps = 2.0 * i,
                                    .potential_kcal_mol = -312345.6789012 + 1.23456789 * i,
                                    .kinetic_kcal_mol = 385.123456789 - 0.1 * i,
                                    .temperature_k = 299.987654,
                                    .ns_per_day = i ? 123.4567 : 0};
        rows[i].total_kcal_mol = rows[i].potential_kcal_mol + rows[i].kinetic_kcal_mol;
        CHECK_OK(vkmd_energy_csv_write(c, &rows[i]));
    }
    vkmd_energy_row bad = rows[2];
    bad.total_kcal_mol = NAN;
    vkmd_result res = vkmd_energy_csv_write(c, &bad);
    printf("  NaN total -> %s: %s\n", vkmd_result_str(res), vkmd_last_error());
    CHECK(res == VKMD_ERROR_NUMERIC && strstr(vkmd_last_error(), "total_kcal_mol"));
    bad = rows[2];
    bad.temperature_k = INFINITY;
    CHECK(vkmd_energy_csv_write(c, &bad) == VKMD_ERROR_NUMERIC);
    CHECK_OK(vkmd_energy_csv_close(c));

    /* Restart: append two more rows, no second header. */
    d.append = 1;
    CHECK_OK(vkmd_energy_csv_create(path, &d, &c));
    if (c) {
        vkmd_energy_row r = rows[2];
        r.step = 3000;
        CHECK_OK(vkmd_energy_csv_write(c, &r));
        CHECK_OK(vkmd_energy_csv_close(c));
    }

    size_t len = 0;
    char *text = test_read_file(path, &len);
    CHECK(text != NULL);
    if (!text)
        return;
    printf("%s", text);
    CHECK(text[0] == '#');
    CHECK(count_lines(text, "#") == 4);
    CHECK(count_lines(text, VKMD_ENERGY_CSV_COLUMNS "\n") == 1);
    CHECK(strstr(text, "water:216") && strstr(text, "dt 2 fs") && strstr(text, "kcal/mol"));
    /* Rows parse back within the printed precision. */
    int rows_read = 0;
    double worst_e = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#' || line[0] == 's')
            continue;
        double v[7];
        int k = 0;
        for (char *p = line; k < 7; ++k) {
            char *end;
            v[k] = strtod(p, &end);
            if (end == p)
                break;
            p = *end == ',' ? end + 1 : end;
        }
        CHECK_MSG(k == 7, "row '%s' has %d numbers", line, k);
        const vkmd_energy_row *w = &rows[rows_read < 3 ? rows_read : 2];
        worst_e = fmax(worst_e, fabs(v[2] - w->potential_kcal_mol));
        worst_e = fmax(worst_e, fabs(v[3] - w->kinetic_kcal_mol));
        worst_e = fmax(worst_e, fabs(v[4] - w->total_kcal_mol));
        CHECK(fabs(v[1] - w->time_ps) <= 5e-7 && fabs(v[5] - w->temperature_k) <= 5e-5);
        ++rows_read;
    }
    printf("  rows %d, max energy round-off %.2g kcal/mol\n", rows_read, worst_e);
    CHECK(rows_read == 4);
    CHECK(worst_e <= 5e-7);
    free(text);

    CHECK(vkmd_energy_csv_create(DIR "/no/such/dir/e.csv", &d, &c) == VKMD_ERROR_IO && c == NULL);
    d.system = NULL;
    CHECK(vkmd_energy_csv_create(DIR "/x.csv", &d, &c) == VKMD_ERROR_INVALID_ARGUMENT);
}

static char *read_stream(FILE *f)
{
    long n = ftell(f);
    char *s = calloc((size_t)n + 1, 1);
    rewind(f);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n)
        s[0] = '\0';
    return s;
}

static void test_progress(void)
{
    printf("progress:\n");
    /* Lines: one per update. 1 ns left at 100 ns/day is 864 s. */
    FILE *f = tmpfile();
    CHECK(f != NULL);
    if (!f)
        return;
    vkmd_progress p;
    vkmd_progress_desc d = {
        .first_step = 0, .last_step = 1000000, .dt_fs = 2.0, .out = f, .mode = VKMD_PROGRESS_LINES};
    vkmd_progress_init(&p, &d, 10.0);
    vkmd_progress_update(&p, 500000, 100.0, 300.04, 11.0);
    vkmd_progress_update(&p, 750000, 0, 301.0, 12.0);
    vkmd_progress_update(&p, 1000000, 100.0, 299.0, 13.0);
    vkmd_progress_finish(&p);
    char *s = read_stream(f);
    printf("%s", s);
    CHECK(count_lines(s, "step ") == 3 && !strchr(s, '\r'));
    CHECK(strstr(s, "step 500000/1000000 (50.0%)") && strstr(s, "1000.000 ps"));
    CHECK(strstr(s, "100.0 ns/day") && strstr(s, "T 300.0 K") && strstr(s, "ETA 0:14:24"));
    /* No speed given: ETA from the wall time (750000 steps in 2 s, 250000 left). */
    CHECK(strstr(s, "-- ns/day") && strstr(s, "ETA 0:00:01"));
    free(s);
    fclose(f);

    /* Bar: 100 updates 0.01 s apart redraw about 5 times a second (plus the
     * first and the last); finish ends the line. */
    f = tmpfile();
    if (!f)
        return;
    d.out = f;
    d.mode = VKMD_PROGRESS_BAR;
    d.last_step = 100;
    vkmd_progress_init(&p, &d, 0.0);
    for (int i = 1; i <= 100; ++i)
        vkmd_progress_update(&p, i, 50.0, 300.0, 0.01 * i);
    vkmd_progress_finish(&p);
    s = read_stream(f);
    int redraws = 0;
    for (const char *c = s; *c; ++c)
        redraws += *c == '\r';
    printf("  bar: %d redraws for 100 updates over 1 s; last: %s", redraws, strrchr(s, '\r') + 1);
    CHECK(redraws >= 5 && redraws <= 7);
    CHECK(strstr(strrchr(s, '\r'), "100.0%  step 100/100") != NULL);
    CHECK(s[strlen(s) - 1] == '\n' && strchr(s, '\n') == s + strlen(s) - 1);
    free(s);
    fclose(f);

    /* A throttled last update is drawn by finish. */
    f = tmpfile();
    if (!f)
        return;
    d.out = f;
    d.last_step = 1000;
    vkmd_progress_init(&p, &d, 0.0);
    vkmd_progress_update(&p, 10, 50.0, 300.0, 0.5);
    vkmd_progress_update(&p, 20, 50.0, 300.0, 0.55);
    vkmd_progress_finish(&p);
    s = read_stream(f);
    CHECK(strstr(strrchr(s, '\r'), "step 20/1000") != NULL && s[strlen(s) - 1] == '\n');
    free(s);
    fclose(f);

    check_close("ns/day: 500 steps of 2 fs in 1 s", vkmd_ns_per_day(500, 2.0, 1.0), 86.4, 1e-12, 0);
    CHECK(vkmd_ns_per_day(500, 2.0, 0) == 0);
}

int main(void)
{
    mkdir(DIR, 0755);
    test_drift();
    test_csv();
    test_progress();
    return test_finish("test_run_output");
}

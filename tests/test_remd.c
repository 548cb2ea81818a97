/* Replica exchange (engine/run/remd.c) without MPI or a device, on a toy with
 * a known answer: R = 4 replicas of a D = 16 dimensional harmonic oscillator
 * U = sum k x^2 / 2 on the ladder 300:600:4 K. Between attempts every replica
 * draws a fresh configuration from the Boltzmann distribution at the
 * temperature it holds (U / kT ~ Gamma(D / 2)), so attempts are independent
 * trials and:
 *   - each pair's acceptance ratio equals the analytic
 *     E[min(1, exp((b_i - b_j)(U_i - U_j)))] over the two Gamma
 *     distributions (closed-form inner integral, Simpson outer), within
 *     TOL_REMD_SIGMAS binomial standard errors;
 *   - detailed balance: the configurations found at temperature index i just
 *     after the attempts (swapped or not) are still canonical at T_i, so
 *     their mean energy is D k T_i / 2 within TOL_REMD_SIGMAS standard errors
 *     (a wrong acceptance rule, e.g. the sign of the exponent flipped, moves
 *     cold configurations to hot and breaks this by tens of sigma);
 *   - every replica spends 1/R of the attempts at each temperature index
 *     (within TOL_REMD_OCCUPANCY);
 *   - the velocity factor turns a kinetic temperature T_old into T_new;
 *   - the state saved after N attempts and loaded continues bitwise the
 *     same as 2N attempts without a stop;
 *   - ladders parse ("T1,T2,...", "TMIN:TMAX:COUNT") and bad ones are
 *     refused with a message. */
#include "testlib.h"
#include "tolerance.h"

#include "core/units.h"
#include "run/remd.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define R        4
#define DIM      16
#define ATTEMPTS 100000

static double gauss(uint64_t *st)
{
    const double u1 = 1.0 - test_uniform(st), u2 = test_uniform(st);
    return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

/* U of a fresh configuration at temperature t: sum k x^2 / 2 with
 * x ~ N(0, kT / k), k = 1 kcal/mol/A^2. */
static double draw_energy(uint64_t *st, double t)
{
    const double kt = VKMD_BOLTZMANN_KCAL * t;
    double u = 0;
    for (int d = 0; d < DIM; ++d) {
        const double x = gauss(st) * sqrt(kt);
        u += 0.5 * x * x;
    }
    return u;
}

/* Regularised upper incomplete gamma Q(m, x) for integer m. */
static double gamma_q(int m, double x)
{
    double term = 1, sum = 1;
    for (int j = 1; j < m; ++j) {
        term *= x / j;
        sum += term;
    }
    return exp(-x) * sum;
}

static double gamma_pdf(int m, double theta, double u)
{
    return exp((m - 1) * log(u / theta) - u / theta - lgamma(m)) / theta;
}

/* E[min(1, exp(c (U_a - U_b)))], U_a ~ Gamma(m, theta_a), U_b ~ Gamma(m,
 * theta_b), c = b_lo - b_hi > 0: for U_b <= U_a the factor is 1; above it,
 * the Gamma density times exp(-c u) is a Gamma of scale theta' = 1 / (1 /
 * theta_b + c) up to (theta' / theta_b)^m. */
static double analytic_acceptance(double t_lo, double t_hi)
{
    const int m = DIM / 2;
    const double ta = VKMD_BOLTZMANN_KCAL * t_lo, tb = VKMD_BOLTZMANN_KCAL * t_hi;
    const double c = 1.0 / ta - 1.0 / tb;
    const double tp = 1.0 / (1.0 / tb + c);
    const int n = 20000;
    const double hi = 60.0 * ta, h = hi / n;
    double sum = 0;
    for (int i = 1; i < n; ++i) { /* the integrand is 0 at u = 0 (m > 1) */
        const double u = i * h;
        const double inner =
            (1.0 - gamma_q(m, u / tb)) + exp(c * u) * pow(tp / tb, m) * gamma_q(m, u / tp);
        sum += (i % 2 ? 4.0 : 2.0) * gamma_pdf(m, ta, u) * inner;
    }
    return sum * h / 3.0;
}

static void run_toy(vkmd_remd *x, uint64_t *st, int64_t attempts, double *sum_u, double *sum_u2,
                    int64_t occupancy[R][R])
{
    for (int64_t k = 0; k < attempts; ++k) {
        double u[R];
        for (int r = 0; r < R; ++r)
            u[r] = draw_energy(st, vkmd_remd_temperature_of(x, r));
        CHECK_OK(vkmd_remd_exchange(x, u, NULL, NULL));
        for (int r = 0; r < R; ++r) {
            const int i = x->temp_index[r];
            if (sum_u) {
                sum_u[i] += u[r];
                sum_u2[i] += u[r] * u[r];
            }
            if (occupancy)
                ++occupancy[r][i];
        }
    }
}

static void test_toy(void)
{
    double ladder[R];
    CHECK_OK(vkmd_remd_ladder_geometric(300, 600, R, ladder));
    vkmd_remd x;
    CHECK_OK(vkmd_remd_init(&x, ladder, R, 2024));
    uint64_t st = 0x9e3779b97f4a7c15ull;
    double sum_u[R] = {0}, sum_u2[R] = {0};
    int64_t occ[R][R] = {{0}};
    run_toy(&x, &st, ATTEMPTS, sum_u, sum_u2, occ);
    for (int i = 0; i + 1 < R; ++i) {
        const double p = analytic_acceptance(ladder[i], ladder[i + 1]);
        const double n = (double)x.pair_tries[i];
        const double got = (double)x.pair_accepted[i] / n;
        const double se = sqrt(p * (1 - p) / n);
        printf("pair %d (%.1f K <-> %.1f K): acceptance %.4f over %.0f tries, analytic %.4f, "
               "%.2f standard errors\n",
               i, ladder[i], ladder[i + 1], got, n, p, (got - p) / se);
        CHECK(fabs(got - p) <= TOL_REMD_SIGMAS * se);
        CHECK(p > 0.05 && p < 0.95); /* a ladder that tests something */
    }
    for (int i = 0; i < R; ++i) {
        const double kt = VKMD_BOLTZMANN_KCAL * ladder[i];
        const double mean = sum_u[i] / ATTEMPTS, want = 0.5 * DIM * kt;
        const double se = kt * sqrt(0.5 * DIM) / sqrt((double)ATTEMPTS);
        printf("T index %d (%.1f K): <U> after exchange %.5f kcal/mol, canonical %.5f, %.2f "
               "standard errors\n",
               i, ladder[i], mean, want, (mean - want) / se);
        CHECK(fabs(mean - want) <= TOL_REMD_SIGMAS * se);
    }
    for (int r = 0; r < R; ++r) {
        printf("replica %d occupancy:", r);
        for (int i = 0; i < R; ++i) {
            const double f = (double)occ[r][i] / ATTEMPTS;
            printf(" %.4f", f);
            CHECK(fabs(f - 1.0 / R) <= TOL_REMD_OCCUPANCY);
        }
        printf(" (expected %.4f each)\n", 1.0 / R);
    }
}

static void test_restart(void)
{
    double ladder[R];
    CHECK_OK(vkmd_remd_ladder_geometric(300, 450, R, ladder));
    vkmd_remd a, b;
    CHECK_OK(vkmd_remd_init(&a, ladder, R, 0xfedcba9876543210ull));
    uint64_t st_a = 7, st_b;
    run_toy(&a, &st_a, 500, NULL, NULL, NULL);
    char path[4096];
    snprintf(path, sizeof path, "%s/test_remd.state", VKMD_TEST_GEN_DIR);
    CHECK_OK(vkmd_remd_save(&a, 1000, path));
    int64_t step = -1;
    CHECK_OK(vkmd_remd_load(path, &b, &step));
    CHECK(step == 1000);
    CHECK(!memcmp(&a, &b, sizeof a));
    st_b = st_a;
    run_toy(&a, &st_a, 500, NULL, NULL, NULL);
    run_toy(&b, &st_b, 500, NULL, NULL, NULL);
    const int same = !memcmp(&a, &b, sizeof a);
    printf("500 attempts + save/load + 500 vs 1000 in one go: %s (attempt %lld)\n",
           same ? "identical" : "DIFFERENT", (long long)a.attempt);
    CHECK(same);
    /* A damaged state is refused with path:line. */
    FILE *f = fopen(path, "a");
    if (f) {
        fputs("nonsense\n", f);
        fclose(f);
    }
    CHECK(vkmd_remd_load(path, &b, NULL) == VKMD_ERROR_PARSE);
    printf("damaged state: %s\n", vkmd_last_error());
    CHECK(strstr(vkmd_last_error(), "test_remd.state:") != NULL);
}

static void test_ladders_and_scale(void)
{
    double t[VKMD_REMD_MAX_REPLICAS];
    int32_t n = 0;
    CHECK_OK(vkmd_remd_ladder_parse("300:450:8", t, &n));
    CHECK(n == 8 && t[0] == 300 && t[7] == 450);
    for (int i = 1; i + 1 < n; ++i) /* geometric: constant ratio */
        CHECK(fabs(t[i] / t[i - 1] - t[i + 1] / t[i]) < 1e-12);
    CHECK_OK(vkmd_remd_ladder_parse("300,310.5,330", t, &n));
    CHECK(n == 3 && t[1] == 310.5);
    static const char *const bad[] = {"300,290",   "300", "300:200:4",
                                      "300:450:1", "abc", "300,,310"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        const vkmd_result res = vkmd_remd_ladder_parse(bad[i], t, &n);
        printf("ladder '%s': %s\n", bad[i], res == VKMD_OK ? "accepted" : vkmd_last_error());
        CHECK(res == VKMD_ERROR_INVALID_ARGUMENT);
    }
    /* Velocities at a kinetic temperature T_old, scaled, are at T_new. */
    const double s = vkmd_remd_velocity_scale(300, 345.2);
    CHECK(fabs(300 * s * s - 345.2) < 1e-9);
    /* Probabilities: colder replica at higher energy always swaps. */
    CHECK(vkmd_remd_probability(300, 330, -10, -20) == 1.0);
    CHECK(vkmd_remd_probability(300, 330, -20, -10) < 1.0);
    /* The uniform stream depends on seed, attempt and pair. */
    const double u0 = vkmd_remd_uniform(1, 0, 0);
    CHECK(u0 > 0 && u0 < 1);
    CHECK(u0 != vkmd_remd_uniform(2, 0, 0) && u0 != vkmd_remd_uniform(1, 1, 0) &&
          u0 != vkmd_remd_uniform(1, 0, 1) && u0 != vkmd_remd_uniform(1ull << 32, 0, 0));
    /* A non-finite potential changes nothing. */
    vkmd_remd x;
    const double lad[2] = {300, 330};
    CHECK_OK(vkmd_remd_init(&x, lad, 2, 0));
    const double u[2] = {0, NAN};
    CHECK(vkmd_remd_exchange(&x, u, NULL, NULL) == VKMD_ERROR_NUMERIC);
    CHECK(x.attempt == 0);
}

int main(void)
{
    test_toy();
    test_restart();
    test_ladders_and_scale();
    return test_finish("test_remd");
}

/* Temperature replica exchange: ladder, pair schedule, Metropolis acceptance,
 * the exchange random stream and its saved state (run/remd.h). */
#include "run/remd.h"

#include "core/philox.h"
#include "core/units.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

vkmd_result vkmd_remd_init(vkmd_remd *remd, const double *temperatures_k, int32_t count,
                           uint64_t seed)
{
    if (count < 2 || count > VKMD_REMD_MAX_REPLICAS)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "replica exchange: %d temperatures (expected 2 .. %d)", count,
                         VKMD_REMD_MAX_REPLICAS);
    for (int32_t i = 0; i < count; ++i) {
        if (!(temperatures_k[i] > 0) || !isfinite(temperatures_k[i]))
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "replica exchange: temperature %d is %g K (expected > 0)", i + 1,
                             temperatures_k[i]);
        if (i > 0 && !(temperatures_k[i] > temperatures_k[i - 1]))
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "replica exchange: temperature %d (%g K) is not above temperature "
                             "%d (%g K): the ladder must ascend",
                             i + 1, temperatures_k[i], i, temperatures_k[i - 1]);
    }
    memset(remd, 0, sizeof *remd);
    remd->replica_count = count;
    remd->seed = seed;
    for (int32_t i = 0; i < count; ++i) {
        remd->temperature_k[i] = temperatures_k[i];
        remd->temp_index[i] = i;
    }
    return VKMD_OK;
}

vkmd_result vkmd_remd_ladder_geometric(double t_min_k, double t_max_k, int32_t count,
                                       double *out_temperatures_k)
{
    if (count < 2 || count > VKMD_REMD_MAX_REPLICAS)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "replica exchange: a ladder of %d temperatures (expected 2 .. %d)", count,
                         VKMD_REMD_MAX_REPLICAS);
    if (!(t_min_k > 0) || !(t_max_k > t_min_k) || !isfinite(t_max_k))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "replica exchange: range %g:%g K (expected 0 < min < max)", t_min_k,
                         t_max_k);
    for (int32_t i = 0; i < count; ++i)
        out_temperatures_k[i] = t_min_k * pow(t_max_k / t_min_k, (double)i / (count - 1));
    out_temperatures_k[count - 1] = t_max_k;
    return VKMD_OK;
}

static int parse_double(const char *s, char **end, double *out)
{
    errno = 0;
    *out = strtod(s, end);
    return *end != s && errno == 0;
}

vkmd_result vkmd_remd_ladder_parse(const char *text, double *out_temperatures_k, int32_t *out_count)
{
    if (!text || !*text)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "replica exchange: empty ladder");
    if (strchr(text, ':')) {
        double lo, hi;
        char *e1, *e2, *e3;
        if (!parse_double(text, &e1, &lo) || *e1 != ':' || !parse_double(e1 + 1, &e2, &hi) ||
            *e2 != ':')
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "replica exchange: range '%s' (expected TMIN:TMAX:COUNT, K)", text);
        errno = 0;
        const long n = strtol(e2 + 1, &e3, 10);
        if (e3 == e2 + 1 || *e3 || errno || n < 2 || n > VKMD_REMD_MAX_REPLICAS)
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "replica exchange: range '%s': COUNT must be 2 .. %d", text,
                             VKMD_REMD_MAX_REPLICAS);
        VKMD_TRY_RETURN(vkmd_remd_ladder_geometric(lo, hi, (int32_t)n, out_temperatures_k));
        *out_count = (int32_t)n;
        return VKMD_OK;
    }
    int32_t n = 0;
    const char *p = text;
    for (;;) {
        char *end;
        double t;
        if (n >= VKMD_REMD_MAX_REPLICAS)
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "replica exchange: ladder '%s' has more than %d temperatures", text,
                             VKMD_REMD_MAX_REPLICAS);
        if (!parse_double(p, &end, &t) || (*end && *end != ','))
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "replica exchange: ladder '%s': temperature %d is not a number "
                             "(expected T1,T2,... in K)",
                             text, n + 1);
        out_temperatures_k[n++] = t;
        if (!*end)
            break;
        p = end + 1;
    }
    vkmd_remd check;
    VKMD_TRY_RETURN(vkmd_remd_init(&check, out_temperatures_k, n, 0));
    *out_count = n;
    return VKMD_OK;
}

double vkmd_remd_uniform(uint64_t seed, int64_t attempt, int32_t pair)
{
    const uint64_t k = (uint64_t)attempt;
    const uint32_t counter[4] = {(uint32_t)pair, (uint32_t)k, (uint32_t)(k >> 32),
                                 VKMD_REMD_STREAM};
    const uint32_t key[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
    uint32_t out[4];
    vkmd_philox4x32_10(counter, key, out);
    return ((double)out[0] + 0.5) * 0x1p-32;
}

double vkmd_remd_probability(double t_lo_k, double t_hi_k, double u_lo, double u_hi)
{
    const double b_lo = 1.0 / (VKMD_BOLTZMANN_KCAL * t_lo_k);
    const double b_hi = 1.0 / (VKMD_BOLTZMANN_KCAL * t_hi_k);
    const double x = (b_lo - b_hi) * (u_lo - u_hi);
    return x >= 0 ? 1.0 : exp(x);
}

vkmd_result vkmd_remd_exchange(vkmd_remd *remd, const double *potential_by_replica,
                               vkmd_remd_pair *out_pairs, int32_t *out_pair_count)
{
    const int32_t n = remd->replica_count;
    int32_t at[VKMD_REMD_MAX_REPLICAS]; /* temperature index -> replica */
    for (int32_t r = 0; r < n; ++r) {
        if (!isfinite(potential_by_replica[r]))
            return vkmd_fail(VKMD_ERROR_NUMERIC,
                             "replica exchange: replica %d's potential energy is %g", r,
                             potential_by_replica[r]);
        at[remd->temp_index[r]] = r;
    }
    int32_t count = 0;
    for (int32_t i = (int32_t)(remd->attempt % 2); i + 1 < n; i += 2) {
        const int32_t a = at[i], b = at[i + 1];
        const double p = vkmd_remd_probability(remd->temperature_k[i], remd->temperature_k[i + 1],
                                               potential_by_replica[a], potential_by_replica[b]);
        const int ok = vkmd_remd_uniform(remd->seed, remd->attempt, i) < p;
        ++remd->pair_tries[i];
        if (ok) {
            ++remd->pair_accepted[i];
            remd->temp_index[a] = i + 1;
            remd->temp_index[b] = i;
        }
        if (out_pairs)
            out_pairs[count] = (vkmd_remd_pair){
                .pair = i, .replica_lo = a, .replica_hi = b, .probability = p, .accepted = ok};
        ++count;
    }
    ++remd->attempt;
    if (out_pair_count)
        *out_pair_count = count;
    return VKMD_OK;
}

double vkmd_remd_velocity_scale(double t_old_k, double t_new_k)
{
    return sqrt(t_new_k / t_old_k);
}

double vkmd_remd_temperature_of(const vkmd_remd *remd, int32_t replica)
{
    return remd->temperature_k[remd->temp_index[replica]];
}

/* ---- the saved state ---------------------------------------------------- */

#define REMD_MAGIC "vkmd-remd-state 1"

vkmd_result vkmd_remd_save(const vkmd_remd *remd, int64_t step, const char *path)
{
    char tmp[4200];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp)
        return vkmd_fail(VKMD_ERROR_IO, "%s: path too long", path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return vkmd_fail(VKMD_ERROR_IO, "%s: cannot create: %s", tmp, strerror(errno));
    const int32_t n = remd->replica_count;
    fprintf(f, "%s\nstep %lld\nreplicas %d\nseed %llu\nattempt %lld\n", REMD_MAGIC, (long long)step,
            n, (unsigned long long)remd->seed, (long long)remd->attempt);
    for (int32_t i = 0; i < n; ++i)
        fprintf(f, "temperature_k %d %.17g\n", i, remd->temperature_k[i]);
    for (int32_t r = 0; r < n; ++r)
        fprintf(f, "temp_index %d %d\n", r, remd->temp_index[r]);
    for (int32_t i = 0; i + 1 < n; ++i)
        fprintf(f, "pair %d %lld %lld\n", i, (long long)remd->pair_tries[i],
                (long long)remd->pair_accepted[i]);
    const int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        remove(tmp);
        return vkmd_fail(VKMD_ERROR_IO, "%s: cannot write: %s", tmp, strerror(errno));
    }
    if (rename(tmp, path) != 0)
        return vkmd_fail(VKMD_ERROR_IO, "%s: cannot rename %s over it: %s", path, tmp,
                         strerror(errno));
    return VKMD_OK;
}

vkmd_result vkmd_remd_load(const char *path, vkmd_remd *remd, int64_t *out_step)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return vkmd_fail(VKMD_ERROR_IO, "%s: cannot open: %s", path, strerror(errno));
    vkmd_result res = VKMD_OK;
    vkmd_remd s;
    memset(&s, 0, sizeof s);
    long long step = -1, attempt = -1;
    unsigned long long seed = 0;
    int n = 0, line_no = 0, seen_t = 0, seen_i = 0;
    char line[256];
    while (fgets(line, sizeof line, f)) {
        ++line_no;
        int i, j;
        long long a, b;
        double t;
        if (line_no == 1) {
            if (strncmp(line, REMD_MAGIC, strlen(REMD_MAGIC)) != 0) {
                res = vkmd_fail(VKMD_ERROR_PARSE, "%s:1: expected '%s' (a replica exchange state)",
                                path, REMD_MAGIC);
                goto cleanup;
            }
        } else if (sscanf(line, "step %lld", &step) == 1 || sscanf(line, "seed %llu", &seed) == 1 ||
                   sscanf(line, "attempt %lld", &attempt) == 1) {
        } else if (sscanf(line, "replicas %d", &n) == 1) {
            if (n < 2 || n > VKMD_REMD_MAX_REPLICAS) {
                res = vkmd_fail(VKMD_ERROR_PARSE, "%s:%d: %d replicas (expected 2 .. %d)", path,
                                line_no, n, VKMD_REMD_MAX_REPLICAS);
                goto cleanup;
            }
        } else if (sscanf(line, "temperature_k %d %lf", &i, &t) == 2 && i >= 0 && i < n) {
            s.temperature_k[i] = t;
            ++seen_t;
        } else if (sscanf(line, "temp_index %d %d", &i, &j) == 2 && i >= 0 && i < n && j >= 0 &&
                   j < n) {
            s.temp_index[i] = j;
            ++seen_i;
        } else if (sscanf(line, "pair %d %lld %lld", &i, &a, &b) == 3 && i >= 0 && i + 1 < n) {
            s.pair_tries[i] = a;
            s.pair_accepted[i] = b;
        } else {
            res = vkmd_fail(VKMD_ERROR_PARSE,
                            "%s:%d: unexpected line (expected step, replicas, seed, attempt, "
                            "temperature_k, temp_index or pair after 'replicas')",
                            path, line_no);
            goto cleanup;
        }
    }
    if (n == 0 || step < 0 || attempt < 0 || seen_t != n || seen_i != n) {
        res = vkmd_fail(VKMD_ERROR_PARSE,
                        "%s:%d: incomplete replica exchange state (expected step, attempt and "
                        "%d temperatures and indices)",
                        path, line_no, n);
        goto cleanup;
    }
    {
        int used[VKMD_REMD_MAX_REPLICAS] = {0};
        for (int r = 0; r < n; ++r)
            if (used[s.temp_index[r]]++) {
                res = vkmd_fail(VKMD_ERROR_PARSE,
                                "%s: two replicas hold temperature index %d (expected a "
                                "permutation)",
                                path, s.temp_index[r]);
                goto cleanup;
            }
    }
    s.replica_count = n;
    s.seed = seed;
    s.attempt = attempt;
    *remd = s;
    if (out_step)
        *out_step = step;
cleanup:
    fclose(f);
    return res;
}

vkmd_result vkmd_remd_load_matching(const char *path, int64_t step, vkmd_remd *inout)
{
    vkmd_remd st;
    int64_t saved = -1;
    VKMD_TRY_RETURN(vkmd_remd_load(path, &st, &saved));
    if (saved != step)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "%s is at step %lld but the checkpoints at step %lld: the exchange state "
                         "and the checkpoints must be of the same step",
                         path, (long long)saved, (long long)step);
    if (st.replica_count != inout->replica_count || st.seed != inout->seed)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "%s: %d replicas, seed %llu; this run asks for %d, seed %llu", path,
                         st.replica_count, (unsigned long long)st.seed, inout->replica_count,
                         (unsigned long long)inout->seed);
    for (int i = 0; i < st.replica_count; ++i)
        if (st.temperature_k[i] != inout->temperature_k[i])
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "%s: temperature %d is %.17g K; this run asks for %.17g K", path, i,
                             st.temperature_k[i], inout->temperature_k[i]);
    *inout = st;
    return VKMD_OK;
}

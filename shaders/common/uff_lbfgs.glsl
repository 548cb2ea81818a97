// RDKit's BFGS constants, gradient scale and backtracking step, shared by
// the two device shapes of the quasi-Newton minimiser: uff_lbfgs.comp (one
// workgroup per replica, one evaluation per dispatch) and
// uff_relax_replica.comp (one invocation per replica, the whole relaxation
// in one dispatch). The algorithm is engine/ref/ref_uff_lbfgs.h.
#ifndef VKMD_UFF_LBFGS_GLSL
#define VKMD_UFF_LBFGS_GLSL

const float ARMIJO = 1e-4;  // RDKit's FUNCTOL
const float MOVETOL = 1e-7; // RDKit's MOVETOL
const float CURV = 3e-8;    // RDKit's EPS (curvature guard)
const float TOLX = 1.2e-7;  // RDKit's TOLX
const float NOISE = 1e-5;   // relative energy change treated as flat (float energies)
const uint ST_RUNNING = 0u, ST_GRADIENT = 1u, ST_STEP = 2u, ST_ENERGY = 3u;

// RDKit's gradient factor from the signed largest 0.1 g_i: c multiplies g,
// the returned s divides the energy in the gradient test.
float rdkit_scale(float gmax01, out float c)
{
    float s = 0.1;
    c = 0.1;
    if (gmax01 > 10.0) {
        for (int k = 0; k < 200 && gmax01 * s > 10.0; ++k)
            s *= 0.5;
        c = 0.1 * s;
    }
    return s;
}

// RDKit's next lambda after a rejected trial at lambda (E - E0 = de; the
// previous trial lambda2, de2; lambda2 == 0 on the first backtrack):
// quadratic the first time, cubic after, kept within [0.1, 0.5] lambda.
float rdkit_backtrack(float lambda, float lambda2, float de, float de2, float slope)
{
    float tmp;
    if (lambda2 == 0.0) {
        tmp = -slope / (2.0 * (de - slope));
    } else {
        const float r1 = de - lambda * slope, r2 = de2 - lambda2 * slope;
        const float a = (r1 / (lambda * lambda) - r2 / (lambda2 * lambda2)) / (lambda - lambda2);
        const float b =
            (-lambda2 * r1 / (lambda * lambda) + lambda * r2 / (lambda2 * lambda2)) /
            (lambda - lambda2);
        if (a == 0.0) {
            tmp = -slope / (2.0 * b);
        } else {
            const float disc = b * b - 3.0 * a * slope;
            if (disc < 0.0)
                tmp = 0.5 * lambda;
            else if (b <= 0.0)
                tmp = (-b + sqrt(disc)) / (3.0 * a);
            else
                tmp = -slope / (b + sqrt(disc));
        }
        if (tmp > 0.5 * lambda)
            tmp = 0.5 * lambda;
    }
    if (!(tmp >= 0.1 * lambda)) // also a NaN from a non-finite energy
        tmp = 0.1 * lambda;
    return tmp;
}

#endif

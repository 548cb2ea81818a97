// Math helpers whose precision the Vulkan spec does not guarantee well enough.
//
// Surprise: Vulkan allows 4096 ulp for atan(y, x), and lavapipe's is far less
// accurate than libm: with the built-in, improper energies (phi near 0, where
// the energy depends on phi relative to itself) came out 1.2e-5 low against
// the double reference, while the same float arithmetic on the host with
// atan2f agreed to 6e-8. vkmd_atan2 is Cephes' atanf (peak relative error
// ~2e-7 on [0, 1]) with the usual octant reduction, so every driver gives the
// same few-ulp answer.
#ifndef VKMD_MATH_GLSL
#define VKMD_MATH_GLSL

const float VKMD_PI = 3.14159265358979323846;
const float VKMD_PI_2 = 1.57079632679489661923;
const float VKMD_PI_4 = 0.78539816339744830962;

// atan(y, x) in [-pi, pi], as libm's atan2 for finite arguments; 0 at (0, 0).
float vkmd_atan2(float y, float x)
{
    float ax = abs(x), ay = abs(y);
    float mx = max(ax, ay), mn = min(ax, ay);
    if (mx == 0.0)
        return 0.0;
    float a = mn / mx; // [0, 1]
    float base = 0.0;
    if (a > 0.41421356237309503) { // tan(pi/8): reduce to |a| <= tan(pi/8)
        a = (a - 1.0) / (a + 1.0);
        base = VKMD_PI_4;
    }
    float z = a * a;
    float r = base + ((((8.05374449538e-2 * z - 1.38776856032e-1) * z + 1.99777106478e-1) * z -
                       3.33329491539e-1) * z * a + a);
    if (ay > ax)
        r = VKMD_PI_2 - r;
    if (x < 0.0)
        r = VKMD_PI - r;
    return y < 0.0 ? -r : r;
}

#endif

// SETTLE for one rigid 3-site water (constraints.comp has the method and its
// precision notes): settle_positions and settle_velocities on the water
// (o, h1, h2). The includer declares the buffers pos, vel (and through the
// VKMD_POS_* macros load_pos, store_pos, load_ref) and defines SETTLE_D_HH
// (H-H distance, A), SETTLE_HEIGHT (O to the H-H line, A) and SETTLE_INV_DT
// (1/fs; 0 leaves the velocities alone in the position part).
#ifndef VKMD_SETTLE_GLSL
#define VKMD_SETTLE_GLSL

void settle_positions(uvec4 w)
{
    const vkmd_pos origin = load_ref(w.x);
    // Reference geometry (the bond directions) relative to the reference O.
    const vec3 b0 = pos_sub(load_ref(w.y), origin);
    const vec3 c0 = pos_sub(load_ref(w.z), origin);
    // Unconstrained positions relative to the reference O.
    const vkmd_pos xa = load_pos(w.x), xb = load_pos(w.y), xc = load_pos(w.z);
    const vec3 pa = pos_sub(xa, origin);
    const vec3 pb = pos_sub(xb, origin);
    const vec3 pc_ = pos_sub(xc, origin);
    const float ma = 1.0 / vel[w.x].w, mb = 1.0 / vel[w.y].w, mc = 1.0 / vel[w.z].w;
    const float inv_m = 1.0 / (ma + mb + mc);
    const vec3 com = (ma * pa + mb * pb + mc * pc_) * inv_m;
    const vec3 a1 = pa - com, b1 = pb - com, c1 = pc_ - com;

    // Frame: z normal to the reference plane, x normal to z and the new O.
    const vec3 ez = normalize(cross(b0, c0));
    const vec3 ex = normalize(cross(a1, ez));
    const vec3 ey = cross(ez, ex);

    const vec2 b0d = vec2(dot(b0, ex), dot(b0, ey));
    const vec2 c0d = vec2(dot(c0, ex), dot(c0, ey));
    const float za1d = dot(a1, ez);
    const vec3 b1d = vec3(dot(b1, ex), dot(b1, ey), dot(b1, ez));
    const vec3 c1d = vec3(dot(c1, ex), dot(c1, ey), dot(c1, ez));

    // Canonical triangle: O at (0, ra), H at (-+rc, -rb), centre of mass at 0.
    const float rc = 0.5 * SETTLE_D_HH;
    const float ra = SETTLE_HEIGHT * (mb + mc) * inv_m;
    const float rb = SETTLE_HEIGHT - ra;

    // Step 2: tilt out of plane (phi about x, psi about y').
    const float sinphi = za1d / ra;
    const float cosphi = sqrt(max(1.0 - sinphi * sinphi, 0.0));
    const float sinpsi = (b1d.z - c1d.z) / (2.0 * rc * cosphi);
    const float cospsi = sqrt(max(1.0 - sinpsi * sinpsi, 0.0));
    const float ya2d = ra * cosphi;
    float xb2d = -rc * cospsi;
    const float yb2d = -rb * cosphi - rc * sinpsi * sinphi;
    const float yc2d = -rb * cosphi + rc * sinpsi * sinphi;
    // Put the H-H distance back to d_hh exactly (rounding of the above).
    const float dy = yb2d - yc2d, dz = b1d.z - c1d.z;
    xb2d = -0.5 * sqrt(max(SETTLE_D_HH * SETTLE_D_HH - dy * dy - dz * dz, 0.0));

    // Step 3: rotation about z that makes the displacements point along the
    // reference bonds: alpha sin(theta) + beta cos(theta) = gamma.
    const float alpha = xb2d * (b0d.x - c0d.x) + b0d.y * yb2d + c0d.y * yc2d;
    const float beta = xb2d * (c0d.y - b0d.y) + b0d.x * yb2d + c0d.x * yc2d;
    const float gamma = b0d.x * b1d.y - b1d.x * b0d.y + c0d.x * c1d.y - c1d.x * c0d.y;
    const float al2be2 = alpha * alpha + beta * beta;
    const float sinthe =
        (alpha * gamma - beta * sqrt(max(al2be2 - gamma * gamma, 0.0))) / al2be2;
    const float costhe = sqrt(max(1.0 - sinthe * sinthe, 0.0));

    // Step 4: the solution in the frame, then back (relative to the reference O).
    const vec3 a3d = vec3(-ya2d * sinthe, ya2d * costhe, za1d);
    const vec3 b3d = vec3(xb2d * costhe - yb2d * sinthe, xb2d * sinthe + yb2d * costhe, b1d.z);
    const vec3 c3d = vec3(-xb2d * costhe - yc2d * sinthe, -xb2d * sinthe + yc2d * costhe, c1d.z);
    const vec3 da = (ex * a3d.x + ey * a3d.y + ez * a3d.z) - a1;
    const vec3 db = (ex * b3d.x + ey * b3d.y + ez * b3d.z) - b1;
    const vec3 dc = (ex * c3d.x + ey * c3d.y + ez * c3d.z) - c1;

    // fp32: rebuilt from the reference O, one rounding per coordinate; split
    // modes: the displacement applied to the exact position.
    if (POSITIONS == VKMD_POSITIONS_FP32) {
        pos[w.x].xyz = origin.c + (pa + da);
        pos[w.y].xyz = origin.c + (pb + db);
        pos[w.z].xyz = origin.c + (pc_ + dc);
    } else {
        store_pos(w.x, pos_add(xa, da));
        store_pos(w.y, pos_add(xb, db));
        store_pos(w.z, pos_add(xc, dc));
    }
    if (SETTLE_INV_DT > 0.0) {
        vel[w.x].xyz += da * SETTLE_INV_DT;
        vel[w.y].xyz += db * SETTLE_INV_DT;
        vel[w.z].xyz += dc * SETTLE_INV_DT;
    }
}

void settle_velocities(uvec4 w)
{
    const vkmd_pos xo = load_pos(w.x), x1 = load_pos(w.y), x2 = load_pos(w.z);
    const vec3 e0 = normalize(pos_sub(x1, xo)); // O -> H1
    const vec3 e1 = normalize(pos_sub(x2, xo)); // O -> H2
    const vec3 e2 = normalize(pos_sub(x2, x1)); // H1 -> H2
    vec4 vo = vel[w.x], v1 = vel[w.y], v2 = vel[w.z];
    const float wo = vo.w, w1 = v1.w, w2 = v2.w;
    // Impulse t_k along e_k moves the second atom of bond k by +t_k w e_k and
    // the first by -t_k w e_k; the relative velocity along bond k then changes
    // by sum_l A_kl t_l.
    const float c01 = dot(e0, e1), c02 = dot(e0, e2), c12 = dot(e1, e2);
    const float a00 = wo + w1, a11 = wo + w2, a22 = w1 + w2;
    const float a01 = wo * c01, a02 = -w1 * c02, a12 = w2 * c12;
    const vec3 u = -vec3(dot(e0, v1.xyz - vo.xyz), dot(e1, v2.xyz - vo.xyz),
                         dot(e2, v2.xyz - v1.xyz));
    // Cramer's rule for the symmetric system A t = u.
    const float m00 = a11 * a22 - a12 * a12;
    const float m01 = a02 * a12 - a01 * a22;
    const float m02 = a01 * a12 - a02 * a11;
    const float m11 = a00 * a22 - a02 * a02;
    const float m12 = a01 * a02 - a00 * a12;
    const float m22 = a00 * a11 - a01 * a01;
    const float inv_det = 1.0 / (a00 * m00 + a01 * m01 + a02 * m02);
    const vec3 t = vec3(m00 * u.x + m01 * u.y + m02 * u.z, m01 * u.x + m11 * u.y + m12 * u.z,
                        m02 * u.x + m12 * u.y + m22 * u.z) * inv_det;
    vel[w.x].xyz = vo.xyz - wo * (t.x * e0 + t.y * e1);
    vel[w.y].xyz = v1.xyz + w1 * (t.x * e0 - t.z * e2);
    vel[w.z].xyz = v2.xyz + w2 * (t.y * e1 + t.z * e2);
}

#endif

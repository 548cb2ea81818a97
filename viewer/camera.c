/* Orbit camera; cglm is told Vulkan's 0..1 depth range before inclusion. */
#define CGLM_FORCE_DEPTH_ZERO_TO_ONE
#include "camera.h"

#include <cglm/cglm.h>
#include <math.h>
#include <string.h>

void vkmd_camera_fit(vkmd_camera *cam, const float lo[3], const float hi[3])
{
    float radius = 0;
    for (int k = 0; k < 3; ++k) {
        cam->target[k] = 0.5f * (lo[k] + hi[k]);
        const float h = 0.5f * (hi[k] - lo[k]);
        radius += h * h;
    }
    radius = sqrtf(radius);
    if (radius < 2.0f)
        radius = 2.0f;
    cam->fov_y = glm_rad(40.0f);
    cam->distance = radius / sinf(0.5f * cam->fov_y) * 1.02f;
    cam->yaw = glm_rad(30.0f);
    cam->pitch = glm_rad(20.0f);
    memcpy(cam->home_target, cam->target, sizeof cam->target);
    cam->home_distance = cam->distance;
}

void vkmd_camera_reset(vkmd_camera *cam)
{
    memcpy(cam->target, cam->home_target, sizeof cam->target);
    cam->distance = cam->home_distance;
    cam->yaw = glm_rad(30.0f);
    cam->pitch = glm_rad(20.0f);
}

void vkmd_camera_orbit(vkmd_camera *cam, float dx, float dy, float height)
{
    const float k = 3.0f / (height > 1 ? height : 1);
    cam->yaw -= dx * k;
    cam->pitch += dy * k;
    const float lim = glm_rad(89.0f);
    cam->pitch = cam->pitch > lim ? lim : cam->pitch < -lim ? -lim : cam->pitch;
}

/* The camera's position and its right/up vectors. */
static void basis(const vkmd_camera *cam, vec3 eye, vec3 right, vec3 up)
{
    const vec3 dir = {cosf(cam->pitch) * sinf(cam->yaw), sinf(cam->pitch),
                      cosf(cam->pitch) * cosf(cam->yaw)};
    for (int k = 0; k < 3; ++k)
        eye[k] = cam->target[k] + cam->distance * dir[k];
    vec3 world_up = {0, 1, 0}, fwd;
    glm_vec3_negate_to((float *)dir, fwd);
    glm_vec3_crossn(fwd, world_up, right);
    glm_vec3_crossn(right, fwd, up);
}

void vkmd_camera_pan(vkmd_camera *cam, float dx, float dy, float height)
{
    vec3 eye, right, up;
    basis(cam, eye, right, up);
    /* One pixel moves the target by the size of a pixel at its distance. */
    const float px = 2.0f * cam->distance * tanf(0.5f * cam->fov_y) / (height > 1 ? height : 1);
    for (int k = 0; k < 3; ++k)
        cam->target[k] += (-dx * right[k] + dy * up[k]) * px;
}

void vkmd_camera_zoom(vkmd_camera *cam, float steps)
{
    cam->distance *= powf(0.9f, steps);
    if (cam->distance < 1.0f)
        cam->distance = 1.0f;
}

void vkmd_camera_matrices(const vkmd_camera *cam, float aspect, float out_view[16],
                          float out_proj[16])
{
    vec3 eye, right, up;
    basis(cam, eye, right, up);
    mat4 view, proj;
    glm_lookat(eye, (float *)cam->target, up, view);
    const float near_z = cam->distance * 0.02f > 0.5f ? cam->distance * 0.02f : 0.5f;
    glm_perspective(cam->fov_y, aspect > 0 ? aspect : 1.0f, near_z, cam->distance * 4.0f + 100.0f,
                    proj);
    proj[1][1] = -proj[1][1]; /* Vulkan's clip-space y points down */
    memcpy(out_view, view, sizeof(float) * 16);
    memcpy(out_proj, proj, sizeof(float) * 16);
}

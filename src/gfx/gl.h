// The one place that knows which OpenGL flavour we draw with:
// WebGL2 (OpenGL ES 3.0, GLSL 300 es) in the browser, OpenGL 3.3 core natively.
// It lives in gfx (the heatmap renderer draws with it); the platform layer includes it from
// here to create the context and start ImGui's backend. gfx never includes platform.
#pragma once

#ifdef __EMSCRIPTEN__
#include <GLES3/gl3.h>
#define ATTNLAB_GLSL_PREAMBLE "#version 300 es\nprecision highp float;\nprecision highp sampler2D;\n"
#define ATTNLAB_IMGUI_GLSL_VERSION "#version 300 es"
#else
#define GL_GLEXT_PROTOTYPES 1
#include <GL/gl.h>
#include <GL/glext.h>
#define ATTNLAB_GLSL_PREAMBLE "#version 330 core\n"
#define ATTNLAB_IMGUI_GLSL_VERSION "#version 330 core"
#endif

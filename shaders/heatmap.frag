// Colours a matrix of floats with viridis (u_map 0) or the diverging map of differences (u_map 1) (perceptually uniform, readable in greyscale and by
// most colour-blind viewers). The matrix is an R32F texture, row-major: texel (col, row) holds
// m(row, col), so the picture's rows are the queries, as in the weights matrix.
// u_mode 0: the matrix; u_mode 1: the legend ramp (value = v_uv.x, left to right).
uniform sampler2D u_values;
uniform vec2 u_range;  // values mapped to the ends of the colormap
uniform int u_mode;
uniform int u_map;  // 0 viridis, 1 diverging (zero in the middle of u_range)

in vec2 v_uv;
out vec4 frag_color;

// vec3 viridis(float t) and vec3 diverging(float t) come before this file: the platform passes
// app::ColormapGlsl() (src/app/exports/colormap.h), the tables the exported SVG uses too, so
// screen, PNG and SVG agree.

void main() {
  float value;
  if (u_mode == 1) {
    value = mix(u_range.x, u_range.y, v_uv.x);
  } else {
    ivec2 size = textureSize(u_values, 0);
    ivec2 cell = clamp(ivec2(v_uv * vec2(size)), ivec2(0), size - 1);
    value = texelFetch(u_values, cell, 0).r;
  }
  float t = clamp((value - u_range.x) / max(u_range.y - u_range.x, 1e-12), 0.0, 1.0);
  frag_color = vec4(clamp(u_map == 1 ? diverging(t) : viridis(t), 0.0, 1.0), 1.0);
}

// Colours a matrix of floats with viridis (perceptually uniform, readable in greyscale and by
// most colour-blind viewers). The matrix is an R32F texture, row-major: texel (col, row) holds
// m(row, col), so the picture's rows are the queries, as in the weights matrix.
// u_mode 0: the matrix; u_mode 1: the legend ramp (value = v_uv.x, left to right).
uniform sampler2D u_values;
uniform vec2 u_range;  // values mapped to the ends of the colormap
uniform int u_mode;

in vec2 v_uv;
out vec4 frag_color;

// Polynomial fit of matplotlib's viridis by Matt Zucker (CC0), close to the table at every t.
vec3 viridis(float t) {
  const vec3 c0 = vec3(0.2777273272234177, 0.005407344544966578, 0.3340998053353061);
  const vec3 c1 = vec3(0.1050930431085774, 1.404613529898575, 1.384590162594685);
  const vec3 c2 = vec3(-0.3308618287255563, 0.214847559468213, 0.09509516302823659);
  const vec3 c3 = vec3(-4.634230498983486, -5.799100973351585, -19.33244095627987);
  const vec3 c4 = vec3(6.228269936347081, 14.17993336680509, 56.69055260068105);
  const vec3 c5 = vec3(4.776384997670288, -13.74514537774601, -65.35303263337234);
  const vec3 c6 = vec3(-5.435455855934631, 4.645852612178535, 26.3124352495832);
  return c0 + t * (c1 + t * (c2 + t * (c3 + t * (c4 + t * (c5 + t * c6)))));
}

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
  frag_color = vec4(clamp(viridis(t), 0.0, 1.0), 1.0);
}

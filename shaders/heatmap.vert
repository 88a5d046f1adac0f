// Heatmap quad. No vertex buffer: the four corners come from gl_VertexID, the rectangle from
// u_rect (in ImGui's coordinates, pixels from the top-left of the display), drawn as a strip.
// (The version line and precision are prepended by the program: "300 es" or "330 core".)
uniform mat4 u_projection;  // ImGui's orthographic projection for this frame
uniform vec4 u_rect;        // x0, y0, x1, y1 of the picture on screen

out vec2 v_uv;              // (0,0) at the top-left cell, (1,1) at the bottom-right

void main() {
  vec2 corner = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));
  v_uv = corner;
  vec2 pos = mix(u_rect.xy, u_rect.zw, corner);
  gl_Position = u_projection * vec4(pos, 0.0, 1.0);
}

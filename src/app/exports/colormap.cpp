#include "app/exports/colormap.h"

#include <cmath>
#include <cstdio>

namespace app {

std::array<std::uint8_t, 3> Viridis(float t) {
  t = std::fmin(std::fmax(t, 0.0f), 1.0f);
  std::array<std::uint8_t, 3> rgb{};
  for (int c = 0; c < 3; ++c) {
    float v = static_cast<float>(kViridis[6][c]);
    for (int k = 5; k >= 0; --k) v = static_cast<float>(kViridis[k][c]) + t * v;  // Horner, as the shader
    v = std::fmin(std::fmax(v, 0.0f), 1.0f);
    rgb[c] = static_cast<std::uint8_t>(std::lround(v * 255.0f));
  }
  return rgb;
}

std::string ViridisHex(float t) {
  const auto rgb = Viridis(t);
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
  return buf;
}

std::string ViridisGlsl() {
  std::string s = "vec3 viridis(float t) {\n";
  char buf[160];
  for (int k = 0; k < 7; ++k) {
    std::snprintf(buf, sizeof buf, "  const vec3 c%d = vec3(%.17g, %.17g, %.17g);\n", k, kViridis[k][0], kViridis[k][1],
                  kViridis[k][2]);
    s += buf;
  }
  s += "  return c0 + t * (c1 + t * (c2 + t * (c3 + t * (c4 + t * (c5 + t * c6)))));\n}\n";
  return s;
}

std::array<std::uint8_t, 3> Diverging(float t) {
  t = std::fmin(std::fmax(t, 0.0f), 1.0f);
  const float x = t * 6.0f;  // as the shader: the stop below, and the fraction past it
  const int k = static_cast<int>(std::fmin(std::floor(x), 5.0f));
  const float f = x - static_cast<float>(k);
  std::array<std::uint8_t, 3> rgb{};
  for (int c = 0; c < 3; ++c) {
    const float a = static_cast<float>(kDiverging[k][c]), b = static_cast<float>(kDiverging[k + 1][c]);
    const float v = std::fmin(std::fmax(a + (b - a) * f, 0.0f), 1.0f);
    rgb[c] = static_cast<std::uint8_t>(std::lround(v * 255.0f));
  }
  return rgb;
}

std::string DivergingHex(float t) {
  const auto rgb = Diverging(t);
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
  return buf;
}

std::string DivergingGlsl() {
  std::string s = "vec3 diverging(float t) {\n  const vec3 stops[7] = vec3[7](\n";
  char buf[160];
  for (int k = 0; k < 7; ++k) {
    std::snprintf(buf, sizeof buf, "    vec3(%.17g, %.17g, %.17g)%s\n", kDiverging[k][0], kDiverging[k][1], kDiverging[k][2],
                  k < 6 ? "," : ");");
    s += buf;
  }
  s += "  float x = clamp(t, 0.0, 1.0) * 6.0;\n  int k = int(min(floor(x), 5.0));\n"
       "  return mix(stops[k], stops[k + 1], x - float(k));\n}\n";
  return s;
}

std::string ColormapGlsl() { return ViridisGlsl() + DivergingGlsl(); }

}  // namespace app

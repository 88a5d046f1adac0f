// The colour maps of the pictures. Viridis for every picture of the weights (perceptually uniform, readable in
// greyscale and by most colour-blind viewers). One table for all three uses: the GPU shader
// (shaders/heatmap.frag gets ViridisGlsl() at start-up, platform/main.cpp), the exported SVG
// (app/figure_export.cpp) and so the exported PNG, which is the GPU's picture.
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace app {

// Polynomial fit of matplotlib's viridis by Matt Zucker (CC0), close to the table at every t:
// c0 + t (c1 + t (c2 + ... t c6)), per channel (r, g, b).
inline constexpr double kViridis[7][3] = {
    {0.2777273272234177, 0.005407344544966578, 0.3340998053353061},
    {0.1050930431085774, 1.404613529898575, 1.384590162594685},
    {-0.3308618287255563, 0.214847559468213, 0.09509516302823659},
    {-4.634230498983486, -5.799100973351585, -19.33244095627987},
    {6.228269936347081, 14.17993336680509, 56.69055260068105},
    {4.776384997670288, -13.74514537774601, -65.35303263337234},
    {-5.435455855934631, 4.645852612178535, 26.3124352495832},
};

// The colour of t in [0, 1] (clamped) as 8-bit sRGB, computed in float like the shader.
std::array<std::uint8_t, 3> Viridis(float t);
// "#440154" for Viridis(t).
std::string ViridisHex(float t);
// GLSL source of `vec3 viridis(float t)` from the same table (a fragment shader's prelude).
std::string ViridisGlsl();

// The diverging map of every picture of a difference (Δα of a what-if, issue 23): blue for
// negative, a light grey at zero (the middle, t = 0.5), red for positive (ColorBrewer's RdBu,
// reversed; readable by most colour-blind viewers). Piecewise linear between these stops, at
// t = 0, 1/6, ..., 1; the pictures map [-m, m] to [0, 1], so zero is always in the middle.
inline constexpr double kDiverging[7][3] = {
    {0.129, 0.400, 0.675},  // #2166ac
    {0.263, 0.576, 0.765},  // #4393c3
    {0.573, 0.773, 0.871},  // #92c5de
    {0.969, 0.969, 0.969},  // #f7f7f7  zero
    {0.957, 0.647, 0.510},  // #f4a582
    {0.839, 0.376, 0.302},  // #d6604d
    {0.698, 0.094, 0.169},  // #b2182b
};
std::array<std::uint8_t, 3> Diverging(float t);  // t in [0, 1] (clamped), computed in float
std::string DivergingHex(float t);
// GLSL source of `vec3 diverging(float t)` from the same table.
std::string DivergingGlsl();
// Both functions: the heatmap shader's prelude (platform/main.cpp hands it to gfx).
std::string ColormapGlsl();

}  // namespace app

// RoPE's frequencies (llama_layers.h): computed once per forward, in double.
#include "model/arch/llama_layers.h"

namespace attn {
namespace model {

std::vector<double> RopeInverseFrequencies(const ModelConfig& c) {
  const int dh = HeadDim(c);
  std::vector<double> inv(static_cast<std::size_t>(dh / 2));
  const double pi = 3.14159265358979323846;
  for (int i = 0; i < dh / 2; ++i) {
    double f = 1.0 / std::pow(c.rope_theta, static_cast<double>(2 * i) / dh);
    if (c.rope_scaling == ModelConfig::RopeScaling::kLinear) {
      f /= c.rope_factor;
    } else if (c.rope_scaling == ModelConfig::RopeScaling::kLlama3) {
      const double original = c.rope_original_context;
      const double low_wavelength = original / c.rope_low_freq, high_wavelength = original / c.rope_high_freq;
      const double wavelength = 2 * pi / f;
      if (wavelength > low_wavelength) {
        f /= c.rope_factor;  // low frequencies: stretched
      } else if (wavelength >= high_wavelength) {  // the band between: a blend
        const double s = (original / wavelength - c.rope_low_freq) / (c.rope_high_freq - c.rope_low_freq);
        f = (1 - s) * f / c.rope_factor + s * f;
      }  // high frequencies: kept
    }
    inv[static_cast<std::size_t>(i)] = f;
  }
  return inv;
}

}  // namespace model
}  // namespace attn

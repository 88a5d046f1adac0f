// What the checkpoint tests against a PyTorch reference share (test_hf_gpt2.cpp, test_hf_llama.cpp):
// a file's text, the fixture folder from the environment, the last position's log-probabilities,
// one forward of ids.
#pragma once

#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "model/arch/model.h"
#include "model/format/hf_checkpoint.h"

namespace checkpoint_reference {

inline std::string ReadText(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// $variable's folder, or a failed REQUIRE that says how to make it.
inline std::string FixtureFolder(const char* variable, const char* how) {
  const char* dir = std::getenv(variable);
  REQUIRE_MESSAGE(dir != nullptr, variable << " is not set: run this suite through ctest (its fixture writes the "
                                               "checkpoints), or: " << how << ", then " << variable << "=DIR");
  return dir;
}

// The last position's log-probabilities (double, from the float logits).
inline std::vector<double> LastLogProbs(const attn::model::SequenceActs<float>& a) {
  const Eigen::Index last = a.logits.rows() - 1;
  double m = -INFINITY;
  for (Eigen::Index v = 0; v < a.logits.cols(); ++v) m = std::fmax(m, a.logits(last, v));
  double z = 0;
  for (Eigen::Index v = 0; v < a.logits.cols(); ++v) z += std::exp(a.logits(last, v) - m);
  std::vector<double> out(static_cast<std::size_t>(a.logits.cols()));
  for (Eigen::Index v = 0; v < a.logits.cols(); ++v) out[static_cast<std::size_t>(v)] = a.logits(last, v) - m - std::log(z);
  return out;
}

inline bool Run(const attn::model::HfCheckpoint& ck, const std::vector<int>& ids, attn::model::SequenceActs<float>* acts,
                bool last_only) {
  attn::model::Sequence s;
  s.tokens = ids;
  s.targets.assign(ids.size(), -1);
  std::string error;
  const bool ok = attn::model::Forward(*acts, ck.params, ck.config, s, &error, last_only);
  CHECK_MESSAGE(ok, error);
  return ok;
}

}  // namespace checkpoint_reference

// The shipped model (web/model) as the lab holds it, loaded once per test program, and a
// bit-for-bit comparison of two float matrices. Shared by the model lab and what-if tests.
#pragma once

#include <doctest/doctest.h>

#include <cstring>
#include <string>

#include "model/format/bundle.h"
#include "model/lab/model_lab.h"

namespace testing_model {

inline bool SameBits(const attn::MatF& a, const attn::MatF& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), sizeof(float) * static_cast<std::size_t>(a.size())) == 0;
}

inline const attn::model::LabModel& Shipped() {
  static attn::model::LabModel m = [] {
    attn::model::LabModel lm;
    attn::model::Bundle b;
    std::string error;
    const std::string dir = std::string(ATTNLAB_SOURCE_DIR) + "/web/model";
    REQUIRE_MESSAGE(attn::model::LoadBundle(dir, &b, &error), error);
    lm.shipped = std::move(b);
    lm.params = lm.shipped.params;
    return lm;
  }();
  return m;
}

}  // namespace testing_model

// The seed's question on the shipped model's real heads (model/inspect/head_information.h): what the
// concatenation, W_O and the residual add to A, on the seed's sentences (short: everything
// recoverable, d_head = 32 against a handful of keys) and on a sentence longer than d_head + 1
// tokens, where A alone no longer tells the pattern.
#include <doctest/doctest.h>

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "model/format/bundle.h"
#include "model/inspect/head_information.h"
#include "quick.h"

using namespace attn;
using namespace attn::model;

namespace {

const Bundle& ShippedBundle() {
  static Bundle b;
  static bool loaded = false;
  if (!loaded) {
    std::string error;
    REQUIRE_MESSAGE(LoadBundle(std::string(ATTNLAB_SOURCE_DIR) + "/web/model", &b, &error), error);
    loaded = true;
  }
  return b;
}

SequenceActs<float> Run(const Bundle& b, const std::string& text) {
  std::vector<int> ids;
  std::string error;
  REQUIRE(b.tokenizer->Encode(text, &ids, &error));
  ids.insert(ids.begin(), Bpe::kEndOfText);
  Sequence s;
  s.tokens = ids;
  s.targets.assign(ids.size(), -1);
  SequenceActs<float> acts;
  REQUIRE_MESSAGE(Forward(acts, b.params, b.config, s, &error), error);
  return acts;
}

// The (layer, head) pairs a case checks: `all`, or the first only under the sanitizers (quick.h).
std::vector<std::pair<int, int>> Heads(std::vector<std::pair<int, int>> all) {
  if (testing_quick::Quick()) all.resize(1);
  return all;
}

}  // namespace

TEST_CASE("head information: on the seed's sentences every head's pattern is recoverable, at every step") {
  const Bundle& b = ShippedBundle();
  for (const char* text : {"я люблю суши", "I love sushi"}) {
    const SequenceActs<float> acts = Run(b, text);
    const int T = static_cast<int>(acts.emb.rows());
    std::vector<std::pair<int, int>> every;
    for (int layer = 0; layer < b.config.layers; ++layer)
      for (int head = 0; head < b.config.heads; ++head) every.emplace_back(layer, head);
    for (const auto& [layer_, head_] : Heads(every)) {
      const int layer = layer_, head = head_;  // (doctest's CAPTURE takes no structured binding)
      {
        HeadInformation hi;
        std::string error;
        REQUIRE_MESSAGE(AnalyzeHead(b.params, acts, layer, head, T - 1, -1, &hi, &error), error);
        CAPTURE(text);
        CAPTURE(layer);
        CAPTURE(head);
        CHECK(hi.keys == T);
        CHECK(hi.d_head == 32);
        CHECK(hi.from_a.info.recoverable);
        CHECK(hi.from_concat.recoverable);
        CHECK(hi.from_output.recoverable);
        CHECK(hi.from_residual.recoverable);
        CHECK(hi.w_o.rank == b.config.d_model);
        CHECK(hi.w_v.rank == b.config.d_model);
        CHECK(hi.mlp.rank == b.config.d_model);
        if (layer == 0 && head == 0) {
          MESSAGE(text << ": T = " << T << ", cond W_O " << hi.w_o.condition << ", cond [W_V] "
                       << hi.w_v.condition << ", cond MLP Jacobian " << hi.mlp.condition);
        }
      }
    }
  }
}

TEST_CASE("head information: past d_head + 1 keys, A loses the pattern; concat and W_O add nothing, the residual's two unknowns can only add") {
  const Bundle& b = ShippedBundle();
  const std::string text =
      "The quick brown fox jumps over the lazy dog, and then the dog wakes up and chases the fox "
      "all the way back to the old farm by the river.";
  const SequenceActs<float> acts = Run(b, text);
  const int T = static_cast<int>(acts.emb.rows());
  REQUIRE(T > 34);
  const int query = T - 1;
  for (const auto& [layer_, head_] : Heads({{0, 0}, {0, 2}, {3, 0}, {3, 2}})) {
    const int layer = layer_, head = head_;
    {
      HeadInformation hi;
      std::string error;
      HeadInformationOptions all;
      all.all_lps = true;
      REQUIRE_MESSAGE(AnalyzeHead(b.params, acts, layer, head, query, -1, &hi, &error, all), error);
      CAPTURE(layer);
      CAPTURE(head);
      const int lost = hi.from_a.info.same_output_dim;
      CHECK(lost == T - 1 - 32);  // n - 1 - Dh: the values span their whole 32 dimensions
      CHECK_FALSE(hi.from_a.info.recoverable);
      CHECK(hi.from_concat.head_dim == lost);
      CHECK(hi.from_output.head_dim == lost);
      CHECK(hi.from_concat.dim == b.config.heads * lost);  // every head of the layer loses as many
      CHECK(hi.from_output.dim == b.config.heads * lost);
      // The ranges: the same polytope, so the same numbers up to the LPs' rounding.
      CHECK((hi.from_concat.ranges - hi.from_a.ranges).cwiseAbs().maxCoeff() <= 1e-7);
      CHECK((hi.from_output.ranges - hi.from_a.ranges).cwiseAbs().maxCoeff() <= 1e-7);
      // Two more unknowns: the residual's set contains A's.
      CHECK(hi.from_residual.head_dim >= lost);
      CHECK(hi.from_residual.head_dim <= lost + 2);
      for (int i = 0; i < hi.keys; ++i) {
        CHECK(hi.from_residual.ranges(i, 0) <= hi.from_a.ranges(i, 0) + 1e-7);
        CHECK(hi.from_residual.ranges(i, 1) >= hi.from_a.ranges(i, 1) - 1e-7);
      }
      double widest_a = 0, widest_res = 0;
      for (int i = 0; i < hi.keys; ++i) {
        widest_a = std::max(widest_a, hi.from_a.ranges(i, 1) - hi.from_a.ranges(i, 0));
        widest_res = std::max(widest_res, hi.from_residual.ranges(i, 1) - hi.from_residual.ranges(i, 0));
      }
      MESSAGE("layer " << layer << " head " << head << ": T = " << T << ", lost " << lost
                       << ", residual " << hi.from_residual.head_dim << ", widest range A "
                       << widest_a << " residual " << widest_res << ", target " << hi.target
                       << " alpha " << hi.from_a.collision.alpha2(hi.target) << " residual "
                       << hi.from_residual.alpha2(hi.target) << " (was "
                       << acts.blocks[layer].attn.heads[head].weights(query, hi.target) << ")");
    }
  }
}

TEST_CASE("head information: bad layer, head, query or target are refused with a message") {
  const Bundle& b = ShippedBundle();
  const SequenceActs<float> acts = Run(b, "I love sushi");
  HeadInformation hi;
  std::string error;
  CHECK_FALSE(AnalyzeHead(b.params, acts, 4, 0, 0, -1, &hi, &error));
  CHECK(error == "layer: expected a layer index from 0 to 3, got 4");
  CHECK_FALSE(AnalyzeHead(b.params, acts, 0, b.config.heads, 0, -1, &hi, &error));
  CHECK_FALSE(AnalyzeHead(b.params, acts, 0, 0, 99, -1, &hi, &error));
  CHECK_FALSE(AnalyzeHead(b.params, acts, 0, 0, 1, 2, &hi, &error));
  CHECK(error == "target: out of range");
}

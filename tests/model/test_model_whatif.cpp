// Issue 23 in model mode (model/lab/model_whatif.h): knock-outs inside the trained model. Without a
// knock-out the forward pass is the model's own, bit for bit; a key knocked out of the lab's head
// gives that head exactly the A_{-i} the lab's contribution table shows; the next token's
// log-probability effects are two forward passes apart.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <string>

#include "model/format/bundle.h"
#include "model/lab/model_lab.h"
#include "shipped_lab_model.h"
#include "model/lab/model_whatif.h"

using namespace attn;
using namespace attn::model;

namespace {

using testing_model::SameBits;
using testing_model::Shipped;

}  // namespace

TEST_CASE("model knock-out: none is the model's forward pass, bit for bit") {
  const LabModel& m = Shipped();
  std::vector<int> ids;
  REQUIRE(m.tokenizer().Encode("I love sushi", &ids));
  ids.insert(ids.begin(), Bpe::kEndOfText);
  Sequence seq;
  seq.tokens = ids;
  seq.targets.assign(ids.size(), -1);
  SequenceActs<float> a, b;
  REQUIRE(Forward(a, m.params, m.config(), seq, nullptr, /*last_only=*/true));
  REQUIRE(ForwardKnockedOut(b, m.params, m.config(), seq, ModelKnockout{}));
  CHECK(SameBits(a.probs, b.probs));
  // a whole head knocked out: its A is zero, and the prediction moves
  ModelKnockout k;
  k.heads = {{0, 1}};
  REQUIRE(ForwardKnockedOut(b, m.params, m.config(), seq, k));
  CHECK(b.blocks[0].attn.heads[1].output.isZero(0));
  CHECK(SameBits(a.blocks[0].attn.heads[0].output, b.blocks[0].attn.heads[0].output));
  CHECK_FALSE(SameBits(a.probs, b.probs));
}

TEST_CASE("model knock-out: key i out of the lab's head gives the contribution table's A_-i") {
  const LabModel& m = Shipped();
  LabConfig cfg;
  cfg.projection = Projection::kModel;
  cfg.sentence = "я люблю суши";
  for (int layer = 0; layer < m.config().layers; ++layer) {
    cfg.layer = layer;
    cfg.head = layer % m.config().heads;
    LabResult lab;
    ModelLabResult extra;
    REQUIRE(ComputeModelLab(m, cfg, &lab, &extra));
    const int n = static_cast<int>(extra.ids.size());
    cfg.query = n - 1;  // the last token: the one whose next token the model predicts
    REQUIRE(ComputeModelLab(m, cfg, &lab, &extra));
    REQUIRE(lab.contribution.keys.size() == static_cast<std::size_t>(n));
    Sequence seq;
    seq.tokens = extra.ids;
    seq.targets.assign(extra.ids.size(), -1);
    NextTokenEffects effects;
    REQUIRE(KeyNextTokenEffects(m, cfg, extra, &effects));
    REQUIRE(effects.delta.size() == static_cast<std::size_t>(n));
    CHECK(effects.next_id == extra.next[0].id);
    double moved = 0;
    for (int i = 0; i < n; ++i) {
      CAPTURE(layer);
      CAPTURE(i);
      ModelKnockout k;
      k.layer = layer;
      k.head = cfg.head;
      k.keys = {i};
      SequenceActs<float> acts;
      REQUIRE(ForwardKnockedOut(acts, m.params, m.config(), seq, k));
      const VecF row = acts.blocks[static_cast<std::size_t>(layer)].attn.heads[static_cast<std::size_t>(cfg.head)]
                           .output.row(cfg.query).transpose();
      const VecF& lab_row = lab.contribution.keys[static_cast<std::size_t>(i)].output_without;
      CHECK(SameBits(MatF(row), MatF(lab_row)));
      const double lp = std::log(static_cast<double>(acts.probs(0, effects.next_id)));
      CHECK(effects.logp_without[static_cast<std::size_t>(i)] == lp);
      CHECK(effects.delta[static_cast<std::size_t>(i)] == lp - effects.logp);
      moved = std::max(moved, std::abs(effects.delta[static_cast<std::size_t>(i)]));
    }
    CHECK(moved > 0);
    // residualNorm uses the head's rows of the layer's W_O
    const int dh = m.config().d_model / m.config().heads;
    const MatF& w_o = m.params.blocks[static_cast<std::size_t>(layer)].attn.W_O;
    const MatF& weighted = lab.trace.weighted_values[static_cast<std::size_t>(cfg.query)];
    for (int i = 0; i < n; ++i) {
      double s2 = 0;
      for (Eigen::Index o = 0; o < w_o.cols(); ++o) {
        double r = 0;
        for (int c = 0; c < dh; ++c) r += double(weighted(i, c)) * double(w_o(cfg.head * dh + c, o));
        s2 += r * r;
      }
      CHECK(lab.contribution.keys[static_cast<std::size_t>(i)].residual_norm == std::sqrt(s2));
    }
  }
}

// The trained model in the lab (model/lab/model_lab.h): the LabResult of a chosen layer and head is
// the model's own forward pass, bit for bit, and the lab's panels' numbers are consistent with it.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <string>

#include "model/format/bundle.h"
#include "model/lab/model_lab.h"
#include "shipped_lab_model.h"

using namespace attn;
using namespace attn::model;

namespace {

using testing_model::SameBits;
using testing_model::Shipped;

LabConfig Model(const std::string& sentence, int layer, int head, int query) {
  LabConfig c;
  c.projection = Projection::kModel;
  c.sentence = sentence;
  c.layer = layer;
  c.head = head;
  c.query = query;
  return c;
}

}  // namespace

TEST_CASE("model lab: every layer and head is the model's forward pass, bit for bit") {
  const LabModel& m = Shipped();
  for (const char* sentence : {"я люблю суши", "I love sushi"}) {
    std::vector<int> ids;
    REQUIRE(m.tokenizer().Encode(sentence, &ids));
    ids.insert(ids.begin(), Bpe::kEndOfText);
    Sequence seq;
    seq.tokens = ids;
    seq.targets.assign(ids.size(), -1);
    SequenceActs<float> acts;
    REQUIRE(Forward(acts, m.params, m.config(), seq));
    for (int layer = 0; layer < m.config().layers; ++layer)
      for (int head = 0; head < m.config().heads; ++head) {
        CAPTURE(sentence);
        CAPTURE(layer);
        CAPTURE(head);
        LabResult lab;
        ModelLabResult extra;
        const int query = static_cast<int>(ids.size()) - 1;
        REQUIRE_MESSAGE(ComputeModelLab(m, Model(sentence, layer, head, query), &lab, &extra), lab.error.message);
        CHECK(extra.ids == ids);
        const auto& h = acts.blocks[static_cast<std::size_t>(layer)].attn.heads[static_cast<std::size_t>(head)];
        CHECK(SameBits(lab.trace.weights, h.weights));
        CHECK(SameBits(lab.trace.Q, h.Q));
        CHECK(SameBits(lab.trace.V, h.V));
        CHECK(SameBits(lab.trace.X, acts.blocks[static_cast<std::size_t>(layer)].ln1));  // LN(x) of the layer
        // The lab keeps the last position's probabilities only (Forward's last_only): that row's bits.
        CHECK(SameBits(extra.acts.probs, MatF(acts.probs.bottomRows(1))));
        // The steps are the query's row of that head; the weights sum to 1 over the visible keys.
        REQUIRE(lab.steps.rows.size() == ids.size());
        for (std::size_t i = 0; i < ids.size(); ++i) {
          CHECK(lab.steps.rows[i].weight == h.weights(query, static_cast<Eigen::Index>(i)));
          CHECK(lab.steps.rows[i].masked == (static_cast<int>(i) > query));
        }
        CHECK(std::fabs(lab.steps.weight_sum - 1.0f) < 1e-5f);
        // The information panel looks at the same row: every key visible to the last query.
        CHECK(lab.information.ranges.rows() == static_cast<Eigen::Index>(ids.size()));
        CHECK(lab.vectors.points.rows() == 2 * static_cast<Eigen::Index>(ids.size()) + 1);
        CHECK(extra.config.heads == m.config().heads);
        CHECK(extra.config.d_k == m.config().d_model / m.config().heads);
        CHECK(extra.config.causal);
        const HeadBiases bias = ChosenHeadBiases(m, layer, head);  // none: the panel writes none
        CHECK((bias.q == nullptr && bias.k == nullptr && bias.v == nullptr && bias.o == nullptr));
      }
  }
}

TEST_CASE("model lab: the tokens, their words and the next tokens") {
  const LabModel& m = Shipped();
  LabResult lab;
  ModelLabResult extra;
  REQUIRE(ComputeModelLab(m, Model("я люблю суши", 0, 0, 1), &lab, &extra));
  // <|endoftext|>, я, " люб", "лю", " су", "ши" (docs/model.md's tokens for the seed's sentence)
  REQUIRE(extra.texts.size() == 6);
  CHECK(extra.texts[0] == "<|endoftext|>");
  CHECK(extra.texts[1] == "я");
  CHECK(extra.texts[2] == " люб");
  CHECK(extra.texts[3] == "лю");
  CHECK(extra.word == std::vector<int>{-1, 0, 1, 1, 2, 2});
  CHECK(extra.word_start == std::vector<char>{0, 1, 1, 0, 1, 0});
  CHECK(lab.tokens[3].byte_begin == lab.tokens[2].byte_end);
  REQUIRE(extra.next.size() == 5);
  for (std::size_t k = 1; k < extra.next.size(); ++k) CHECK(extra.next[k - 1].p >= extra.next[k].p);
  REQUIRE(extra.acts.probs.rows() == 1);  // the last position only
  CHECK(extra.next[0].p == extra.acts.probs(0, extra.next[0].id));
}

TEST_CASE("model lab: refusals in the one wording") {
  const LabModel& m = Shipped();
  LabResult lab;
  ModelLabResult extra;
  CHECK_FALSE(ComputeModelLab(m, Model("я люблю суши", 4, 0, 1), &lab, &extra));
  CHECK(lab.error.code == ConfigError::kLayerOutOfRange);
  CHECK(lab.error.message == "layer: expected a layer index from 0 to 3, got 4");
  CHECK_FALSE(ComputeModelLab(m, Model("я люблю суши", 0, 6, 1), &lab, &extra));
  CHECK(lab.error.message == "head: expected a head index from 0 to 5, got 6");
  CHECK_FALSE(ComputeModelLab(m, Model("я люблю суши", 0, 0, 6), &lab, &extra));
  CHECK(lab.error.message == "query: expected a token index from 0 to 5, got 6");
  CHECK_FALSE(ComputeModelLab(m, Model("   ", 0, 0, 0), &lab, &extra));
  CHECK(lab.error.code == ConfigError::kSentenceEmpty);
  std::string longer;
  for (int i = 0; i < 80; ++i) longer += "сушими ";  // more BPE tokens than 127
  CHECK_FALSE(ComputeModelLab(m, Model(longer, 0, 0, 0), &lab, &extra));
  CHECK(lab.error.code == ConfigError::kModelTooManyTokens);
  CHECK(lab.error.message.rfind("sentence: expected at most 127 model tokens, got ", 0) == 0);
  // The engine alone cannot compute model mode: it says so.
  CHECK(ComputeLab(Model("я люблю суши", 0, 0, 1)).error.code == ConfigError::kModelNotLoaded);
}

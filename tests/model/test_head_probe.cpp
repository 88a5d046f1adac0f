// The probe on real heads (model/inspect/head_probe.h): a readout that sees only a real head's A, on the
// shipped model's validation text (English and Russian windows alternating), names the key the
// head gave the most weight as well as a reader who knows only the query's position does (no
// better): the figures are docs/model-mode.md's ("Information, on a real head").
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <string>

#include "model/format/bundle.h"
#include "model/corpus/corpus.h"
#include "model/corpus/evaluate.h"
#include "model/inspect/head_probe.h"
#include "model/corpus/validation.h"

using namespace attn::model;

TEST_CASE("head probe: a readout that sees only a real head's A names its favourite key" * doctest::test_suite("long")) {
  Bundle b;
  std::string error;
  REQUIRE_MESSAGE(LoadBundle(std::string(ATTNLAB_SOURCE_DIR) + "/web/model", &b, &error), error);
  Validation v;  // the run's validation text (model/corpus/validation.h): the fortunes' part of it here
  REQUIRE_MESSAGE(LoadValidation(b, std::string(ATTNLAB_SOURCE_DIR) + "/web/model", &v, &error), error);
  const TokenStream &en = v.fortunes_en, &ru = v.fortunes_ru;
  const int W = b.config.context, per_lang = 100;
  std::vector<std::vector<int>> windows;
  for (int w = 0; w < per_lang; ++w) {  // alternating, so training and test hold both languages
    for (const TokenStream* s : {&en, &ru}) {
      REQUIRE(static_cast<std::size_t>((w + 1) * W) <= s->ids.size());
      windows.emplace_back(s->ids.begin() + w * W, s->ids.begin() + (w + 1) * W);
    }
  }
  // The model's strongest previous-token head (heads.json, `attnlab model heads`), and three others.
  const auto heads = nlohmann::json::parse(b.heads_json);
  std::pair<int, int> prev{0, 0};
  double best = -1;
  for (const auto& h : heads["heads"]) {
    if (h["previous"].get<double>() > best) {
      best = h["previous"].get<double>();
      prev = {h["layer"].get<int>(), h["head"].get<int>()};
    }
  }
  REQUIRE(best > 0.4);
  const int L = b.config.layers, H = b.config.heads;
  for (const auto& [layer, head] : {prev, std::pair{0, 1}, std::pair{L / 2, H - 1}, std::pair{L - 1, 1}}) {
    HeadProbeConfig cfg;
    cfg.layer = layer;
    cfg.head = head;
    cfg.train_windows = 150;
    HeadProbeResult r;
    REQUIRE_MESSAGE(ProbeHead(b.params, b.config, windows, cfg, &r, &error), error);
    CAPTURE(cfg.layer);  // (not the structured bindings: CAPTURE's lambda cannot capture them)
    CAPTURE(cfg.head);
    CHECK(r.test_samples == 50 * (W - 1));
    CHECK(r.test_within + r.test_beyond == r.test_samples);
    CHECK(r.train_samples == 150 * (W - 1));
    CHECK(r.accuracy >= 0.0);
    CHECK(r.accuracy <= 1.0);
    // The strongest previous-token head (docs/model.md's head table) is named from A alone far
    // above chance, on both sides of d_head + 1 keys.
    if (std::pair{layer, head} == prev) {
      CHECK(r.accuracy_within > 0.6);
      CHECK(r.accuracy_beyond > 0.6);
      CHECK(r.accuracy_beyond > 10 * r.chance_beyond);
    }
    MESSAGE("head " << layer << "." << head << ": accuracy " << r.accuracy << " (train " << r.train_accuracy
                    << "); <= 33 keys: " << r.accuracy_within << " (chance " << r.chance_within << ", knowing t "
                    << r.position_within << "); > 33 keys: " << r.accuracy_beyond << " (chance " << r.chance_beyond
                    << ", knowing t " << r.position_beyond << ")");
  }
}

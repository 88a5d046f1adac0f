// The Llama family's checkpoints (issue 39) against the independent PyTorch reference:
// scripts/llama_fixture.py writes small random checkpoints (the real tokenizers' vocabularies),
// scripts/llama_reference.py runs them in float64 from the Hugging Face semantics and wrote
// tests/model/llama_reference.json. The suite "llama" needs the fixture (ctest: llama_fixtures).
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "model/arch/llama_layers.h"
#include "checkpoint_reference.h"
#include "model/arch/model.h"
#include "model/format/hf_checkpoint.h"
#include "model/format/hf_llama.h"
#include "model/format/model_folder.h"
#include "model/inspect/offsets.h"
#include "shipped_lab_model.h"

using namespace attn;
using namespace attn::model;
using Json = nlohmann::json;
using checkpoint_reference::LastLogProbs;
using checkpoint_reference::ReadText;
using checkpoint_reference::Run;

namespace {

std::string LlamaFixtureDir() {
  return checkpoint_reference::FixtureFolder("ATTNLAB_LLAMA_FIXTURES", "(cd tests/fixtures/hf_tokenizers && npm ci) && /usr/bin/python3 scripts/llama_fixture.py --out DIR");
}

const Json& LlamaReference() {
  static const Json j = Json::parse(ReadText(std::string(ATTNLAB_SOURCE_DIR) + "/tests/model/llama_reference.json"));
  return j;
}

std::string ConfigRefusal(const std::string& text) {
  ModelConfig c;
  int eos = -1;
  std::string error;
  CHECK_FALSE(ParseHfConfig(text, &c, &eos, &error));
  return error;
}

}  // namespace

TEST_CASE("llama configs: each family's fields as data, and every refusal names its key") {
  ModelConfig c;
  int eos = -1;
  std::string error;
  REQUIRE_MESSAGE(ParseHfConfig(R"({"model_type": "qwen2", "hidden_size": 896, "intermediate_size": 4864,
      "num_hidden_layers": 24, "num_attention_heads": 14, "num_key_value_heads": 2, "vocab_size": 151936,
      "max_position_embeddings": 32768, "rms_norm_eps": 1e-6, "rope_theta": 1000000.0, "tie_word_embeddings": true,
      "sliding_window": 32768, "use_sliding_window": false, "hidden_act": "silu", "eos_token_id": 151643})",
                                &c, &eos, &error), error);
  CHECK(c.rms_norm);
  CHECK(c.rotary);
  CHECK(c.swiglu);
  CHECK(c.attn_bias);       // Qwen2: q, k, v biases always
  CHECK_FALSE(c.out_bias);  // and none on o
  CHECK(c.sliding_window == 0);
  CHECK(KvHeads(c) == 2);
  CHECK(HeadDim(c) == 64);
  CHECK(c.tied);
  CHECK(eos == 151643);
  CHECK_FALSE(Trainable(c));
  CHECK(ParameterCount(c) == 494032768);  // Qwen2.5-0.5B's published count
  REQUIRE(ParseHfConfig(R"({"model_type": "llama", "hidden_size": 576, "intermediate_size": 1536, "num_hidden_layers": 30,
      "num_attention_heads": 9, "num_key_value_heads": 3, "vocab_size": 49152, "tie_word_embeddings": true})", &c, &eos, &error));
  CHECK(ParameterCount(c) == 134515008);  // SmolLM2-135M's
  REQUIRE(ParseHfConfig(R"({"model_type": "mistral", "hidden_size": 64, "intermediate_size": 160, "num_hidden_layers": 2,
      "num_attention_heads": 4, "num_key_value_heads": 2, "vocab_size": 32000, "sliding_window": 6})", &c, &eos, &error));
  CHECK(c.sliding_window == 6);
  REQUIRE(ParseHfConfig(R"({"model_type": "qwen3", "hidden_size": 64, "intermediate_size": 160, "num_hidden_layers": 2,
      "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 32, "vocab_size": 1000,
      "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                       "original_max_position_embeddings": 8192}})", &c, &eos, &error));
  CHECK(c.qk_norm);
  CHECK(HeadDim(c) == 32);
  CHECK(c.rope_scaling == ModelConfig::RopeScaling::kLlama3);

  const std::string base = R"("hidden_size": 64, "intermediate_size": 160, "num_hidden_layers": 2, "vocab_size": 1000)";
  CHECK(ConfigRefusal(R"({"model_type": "llama", "num_attention_heads": 6, "num_key_value_heads": 4, )" + base + "}") ==
        "config.json: num_attention_heads 6 is not a multiple of num_key_value_heads 4");
  CHECK(ConfigRefusal(R"({"model_type": "llama", "num_attention_heads": 4, "rope_scaling": {"rope_type": "yarn", "factor": 4}, )" + base + "}") ==
        "config.json: rope_scaling type \"yarn\" is not supported (linear, llama3)");
  CHECK(ConfigRefusal(R"({"model_type": "llama", "num_attention_heads": 4, "hidden_act": "gelu", )" + base + "}") ==
        "config.json: hidden_act \"gelu\" is not supported (silu)");
  CHECK(ConfigRefusal(R"({"model_type": "qwen2", "num_attention_heads": 4, "use_sliding_window": true, )" + base + "}") ==
        "config.json: use_sliding_window true is not supported");
  CHECK(ConfigRefusal(R"({"model_type": "llama", "num_attention_heads": 4, "mlp_bias": true, )" + base + "}") ==
        "config.json: mlp_bias true is not supported");
  CHECK(ConfigRefusal(R"({"model_type": "llama", "num_attention_heads": 4, "partial_rotary_factor": 0.5, )" + base + "}") ==
        "config.json: partial_rotary_factor 0.5 is not supported (1)");
  CHECK(ConfigRefusal(R"({"model_type": "llama", "num_attention_heads": 4, "head_dim": 15, )" + base + "}") ==
        "config.json: the head width 15 is odd: RoPE needs pairs");
  CHECK(ConfigRefusal(R"({"model_type": "llama", "num_attention_heads": 5, )" + base + "}") ==
        "config.json: num_attention_heads 5 does not divide hidden_size 64 and there is no head_dim");
  CHECK(ConfigRefusal(R"({"model_type": "llama", "num_attention_heads": 4, "hidden_size": 64, "intermediate_size": 160, "vocab_size": 1000})") ==
        "config.json: \"num_hidden_layers\" is missing");
  CHECK(ConfigRefusal(R"({"model_type": "llama", "num_attention_heads": 4, "num_hidden_layers": 1000000000, "hidden_size": 64, "intermediate_size": 160, "vocab_size": 1000})") ==
        "config.json: \"num_hidden_layers\" is 1000000000, more than the 4096 the lab opens");
  CHECK(ConfigRefusal(R"({"model_type": "bert"})") ==
        "config.json: model_type \"bert\" is not a model the lab opens (gpt2, llama, mistral, qwen2, qwen3)");
  CHECK(ConfigRefusal("{not json") == "config.json: not a JSON object");
}

TEST_CASE("llama checkpoints: the fuzz target's Llama-family seeds (tests/fuzz/corpus/hf_gpt2) are accepted and run") {
  // Each seed: config.json's text, a NUL byte, the safetensors bytes (as the GPT-2 seeds), so that
  // the fuzzer's mutations start from every family's accepted checkpoint.
  int seeds = 0;
  for (const char* name : {"llama-gqa-untied.bin", "qwen2-biases.bin", "qwen3-qknorm.bin", "mistral-window.bin"}) {
    CAPTURE(name);
    const std::string input = ReadText(std::string(ATTNLAB_SOURCE_DIR) + "/tests/fuzz/corpus/hf_gpt2/" + name);
    const std::size_t nul = input.find('\0');
    REQUIRE(nul != std::string::npos);
    ModelConfig c;
    int eos = -1;
    std::string error;
    REQUIRE_MESSAGE(ParseHfConfig(input.substr(0, nul), &c, &eos, &error), error);
    CHECK(c.rotary);
    StFile f;
    REQUIRE_MESSAGE(ReadSafetensors(input.substr(nul + 1), &f, &error), error);
    Params<float> p;
    REQUIRE_MESSAGE(HfFromTensors(c, f.tensors, &p, &error), error);
    SequenceActs<float> acts;
    Sequence s;
    s.tokens = {0, 1, 2, 3, 4};
    s.targets.assign(5, -1);
    REQUIRE_MESSAGE(Forward(acts, p, c, s, &error), error);
    if (c.sliding_window == 2) CHECK(acts.blocks[0].attn.heads[0].weights(4, 2) == 0.0f);  // outside the window
    ++seeds;
  }
  CHECK(seeds == 4);
}

TEST_CASE("rope: q.k depends on the offset alone, and the llama3 scaling keeps, blends and stretches") {
  ModelConfig c;
  c.rotary = true;
  c.d_model = 16;
  c.heads = 1;
  c.rope_theta = 10000;
  const RopeTable<double> table = MakeRopeTable<double>(c, 64);
  Mat<double> q = Mat<double>::Random(1, 16), k = Mat<double>::Random(1, 16);
  auto dot_at = [&](int tq, int tk) {
    Mat<double> qq = q, kk = k;
    RopeRotate(qq, table, tq);
    RopeRotate(kk, table, tk);
    return (qq.row(0).array() * kk.row(0).array()).sum();
  };
  CHECK(std::abs(dot_at(7, 3) - dot_at(40, 36)) < 1e-12);
  CHECK(std::abs(dot_at(7, 3) - dot_at(4, 0)) < 1e-12);
  CHECK(std::abs(dot_at(7, 3) - dot_at(7, 4)) > 1e-3);  // another offset: another score
  c.rope_scaling = ModelConfig::RopeScaling::kLlama3;
  c.rope_factor = 8;
  c.rope_low_freq = 1;
  c.rope_high_freq = 4;
  c.rope_original_context = 64;
  const std::vector<double> scaled = RopeInverseFrequencies(c);
  c.rope_scaling = ModelConfig::RopeScaling::kNone;
  const std::vector<double> plain = RopeInverseFrequencies(c);
  CHECK(scaled.front() == plain.front());                            // the highest frequency kept
  CHECK(std::abs(scaled.back() * 8 - plain.back()) < 1e-18);         // the lowest stretched 8 times
  int blended = 0;
  for (std::size_t i = 0; i < plain.size(); ++i) blended += scaled[i] < plain[i] && scaled[i] * 8 > plain[i] * (1 + 1e-12);
  CHECK(blended >= 1);
}

TEST_CASE("the RoPE scene on learned positions: moving both words moves the score (the lab's own model)") {
  const LabModel& m = testing_model::Shipped();
  OffsetScene scene;
  std::string error;
  REQUIRE_MESSAGE(MeasureOffsets(m.params, m.config(), 300, 301, 1, 2, &scene, &error), error);
  CHECK_FALSE(scene.rotary);
  CHECK(scene.starts.size() == 10);
  MESSAGE("learned positions: spread at the same offset " << scene.same_spread << ", change with the offset " << scene.change);
  CHECK(scene.same_spread > 0.05);  // far beyond rounding: positions are part of the words
  CHECK_FALSE(MeasureOffsets(m.params, m.config(), 300, 301, 99, 2, &scene, &error));
  CHECK(error == "head: expected a head index from 0 to 5");
  CHECK_FALSE(MeasureOffsets(m.params, m.config(), -1, 301, 1, 2, &scene, &error));
  CHECK(error == "token id out of the vocabulary");
}

TEST_SUITE("llama") {

TEST_CASE("the RoPE scene on rotary models: the same offset gives the same score wherever the words stand; another offset another") {
  for (const char* name : {"llama3-rope", "qwen3", "mistral", "llama-mqa"}) {
    CAPTURE(name);
    HfCheckpoint ck;
    std::string error;
    REQUIRE_MESSAGE(ReadHfFolder(LlamaFixtureDir() + "/" + name, &ck, &error), error);
    for (int head = 0; head < ck.config.heads; ++head) {
      OffsetScene scene;
      REQUIRE_MESSAGE(MeasureOffsets(ck.params, ck.config, 1000, 2000, head, 3, &scene, &error), error);
      CHECK(scene.rotary);
      CHECK(scene.starts.size() == 10);
      double largest = 0;
      for (double v : scene.same) largest = std::fmax(largest, std::abs(v));
      CHECK(scene.same_spread <= 1e-5 * std::fmax(1.0, largest));  // rounding alone
      CHECK(scene.moved_spread <= 1e-5 * std::fmax(1.0, largest));
      CHECK(scene.change > 100 * scene.same_spread);
      if (head == 0) MESSAGE(std::string(name) << ": spread " << scene.same_spread << ", change with the offset " << scene.change);
    }
  }
}


TEST_CASE("llama checkpoints: every query head's weights within 1e-4 and the next token's log-probabilities within 1e-3 of PyTorch; greedy the same") {
  const Json& ref = LlamaReference();
  const std::string dir = LlamaFixtureDir();
  int variants = 0;
  for (auto it = ref["variants"].begin(); it != ref["variants"].end(); ++it) {
    const std::string name = it.key();
    CAPTURE(name);
    HfCheckpoint ck;
    std::string error;
    REQUIRE_MESSAGE(ReadHfFolder(dir + "/" + name, &ck, &error), error);
    const Json& v = it.value();
    CHECK(ck.dtype == v["dtype"].get<std::string>());
    CHECK(ck.config.heads == v["config"]["num_attention_heads"].get<int>());
    CHECK(KvHeads(ck.config) == v["config"]["num_key_value_heads"].get<int>());
    CHECK(HeadDim(ck.config) == v["config"]["head_dim"].get<int>());
    CHECK(ck.config.tied == v["tied"].get<bool>());
    // the frequencies after rope_scaling, as the reference computed them
    const std::vector<double> inv = RopeInverseFrequencies(ck.config);
    REQUIRE(inv.size() == v["inv_freq"].size());
    for (std::size_t i = 0; i < inv.size(); ++i) CHECK(std::abs(inv[i] / v["inv_freq"][i].get<double>() - 1) < 1e-12);
    double worst_attn = 0, worst_logp = 0;
    int steps = 0;
    for (const Json& r : v["results"]) {
      const std::vector<int> ids = r["ids"].get<std::vector<int>>();
      SequenceActs<float> acts;
      REQUIRE(Run(ck, ids, &acts, false));
      for (int l = 0; l < ck.config.layers; ++l)
        for (int h = 0; h < ck.config.heads; ++h) {
          const Mat<float>& w = acts.blocks[static_cast<std::size_t>(l)].attn.heads[static_cast<std::size_t>(h)].weights;
          const Json& rows = r["attention"][l][h];
          REQUIRE(static_cast<Eigen::Index>(rows.size()) == w.rows());
          for (Eigen::Index i = 0; i < w.rows(); ++i)
            for (Eigen::Index j = 0; j < w.cols(); ++j) {
              const double want = j <= i ? rows[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)].get<double>() : 0.0;
              worst_attn = std::fmax(worst_attn, std::abs(w(i, j) - want));
            }
        }
      const std::vector<double> logp = LastLogProbs(acts);
      CHECK(std::abs(logp[static_cast<std::size_t>(r["last"]["top"][0][0].get<int>())] - r["last"]["top"][0][1].get<double>()) < 1e-3);
      for (const Json& t : r["last"]["top"])
        worst_logp = std::fmax(worst_logp, std::abs(logp[t[0].get<std::size_t>()] - t[1].get<double>()));
      for (std::size_t k = 0; k < v["fixed_ids"].size(); ++k)
        worst_logp = std::fmax(worst_logp, std::abs(logp[v["fixed_ids"][k].get<std::size_t>()] - r["last"]["fixed"][k].get<double>()));
      // Greedy: the same tokens while the reference's top two are further apart than our error.
      std::vector<int> text = ids;
      for (std::size_t step = 0; step < r["greedy"].size(); ++step) {
        if (r["greedy_margins"][step].get<double>() < 1e-3) break;
        SequenceActs<float> next;
        REQUIRE(Run(ck, text, &next, true));
        Eigen::Index best = 0;
        next.logits.row(0).maxCoeff(&best);
        CHECK(best == r["greedy"][step].get<int>());
        text.push_back(static_cast<int>(best));
        ++steps;
      }
    }
    MESSAGE(name << ": worst attention error " << worst_attn << ", worst log-probability error " << worst_logp
                 << ", greedy steps compared " << steps);
    CHECK(worst_attn < 1e-4);
    CHECK(worst_logp < 1e-3);
    CHECK(steps >= 16);
    ++variants;
  }
  CHECK(variants == 11);
}

TEST_CASE("llama checkpoints open as folders: the tokenizer gives the reference's ids (begin token included), the forward the same numbers") {
  const Json& ref = LlamaReference();
  int variants = 0;
  for (auto it = ref["variants"].begin(); it != ref["variants"].end(); ++it) {
    const std::string name = it.key();
    CAPTURE(name);
    Bundle b;
    std::string error;
    REQUIRE_MESSAGE(OpenModelFolder(LlamaFixtureDir() + "/" + name, &b, &error), error);
    const Tokenizer& tok = *b.tokenizer;
    for (std::size_t s = 0; s < ref["sentences"].size(); ++s) {
      const std::string text = ref["sentences"][s].get<std::string>();
      CAPTURE(text);
      std::vector<int> ids;
      REQUIRE_MESSAGE(tok.Encode(text, &ids, &error), error);
      if (tok.Begin() >= 0) ids.insert(ids.begin(), tok.Begin());
      // @huggingface/tokenizers' ids for the text, and the begin token when the file itself adds
      // one (its post-processor): the npm Llama 3 file adds none, the reference prepends Meta's
      // <|begin_of_text|> to the model's input itself (bos_rule "prepend")
      const Json& reference = ref["tokenizers"][it.value()["tokenizer"].get<std::string>()];
      std::vector<int> want = reference["sentences"][s]["text_ids"].get<std::vector<int>>();
      if (reference["bos_rule"] == "post_processor") want.insert(want.begin(), reference["bos"].get<int>());
      CHECK(ids == want);
      if (tok.Begin() >= 0) ids.erase(ids.begin());
      CHECK(tok.Decode(ids) == text);  // the text's own ids decode to it
    }
    ++variants;
  }
  CHECK(variants == 11);
}

TEST_CASE("llama checkpoints: q and k before and after their rotation, per query head, as the reference has them") {
  const Json& ref = LlamaReference();
  const std::string dir = LlamaFixtureDir();
  int checked = 0;
  for (const Json& rc : ref["rope_check"]) {
    const std::string name = rc["variant"].get<std::string>();
    CAPTURE(name);
    HfCheckpoint ck;
    std::string error;
    REQUIRE_MESSAGE(ReadHfFolder(dir + "/" + name, &ck, &error), error);
    const Json& r = ref["variants"][name]["results"][rc["sentence"].get<std::size_t>()];
    SequenceActs<float> acts;
    REQUIRE(Run(ck, r["ids"].get<std::vector<int>>(), &acts, false));
    const BlockActs<float>& b = acts.blocks[rc["layer"].get<std::size_t>()];
    const int group = ck.config.heads / KvHeads(ck.config);
    double worst = 0;
    for (std::size_t p = 0; p < rc["positions"].size(); ++p) {
      const Eigen::Index t = rc["positions"][p].get<Eigen::Index>();
      for (int h = 0; h < ck.config.heads; ++h) {
        const std::size_t hs = static_cast<std::size_t>(h), g = static_cast<std::size_t>(h / group);
        for (int d = 0; d < HeadDim(ck.config); ++d) {
          const std::size_t ds = static_cast<std::size_t>(d);
          worst = std::fmax(worst, std::abs(b.q_unrotated[hs](t, d) - rc["q"][p][hs][ds].get<double>()));
          worst = std::fmax(worst, std::abs(b.attn.heads[hs].Q(t, d) - rc["q_rope"][p][hs][ds].get<double>()));
          worst = std::fmax(worst, std::abs(b.k_unrotated[hs](t, d) - rc["k"][p][g][ds].get<double>()));
          worst = std::fmax(worst, std::abs(b.attn.heads[hs].K(t, d) - rc["k_rope"][p][g][ds].get<double>()));
        }
      }
    }
    MESSAGE(name << ": worst q/k error " << worst);
    CHECK(worst < 1e-4);
    ++checked;
  }
  CHECK(checked >= 2);
}

TEST_CASE("llama checkpoints: weights kept at their stored precision give the widened weights' bits; training refuses") {
  for (const char* name : {"mistral", "qwen2", "qwen3", "llama-mqa"}) {
    CAPTURE(name);
    HfCheckpoint ck;
    std::string error;
    REQUIRE_MESSAGE(ReadHfFolder(LlamaFixtureDir() + "/" + name, &ck, &error), error);
    const Params<float> wide = Widened(ck.params);
    std::vector<int> ids;
    for (int t = 0; t < 9; ++t) ids.push_back((t * 7919 + 13) % 30000);
    Sequence s;
    s.tokens = ids;
    s.targets.assign(ids.size(), -1);
    SequenceActs<float> a, b;
    REQUIRE(Forward(a, ck.params, ck.config, s, &error));
    REQUIRE(Forward(b, wide, ck.config, s, &error));
    CHECK((a.logits.array() == b.logits.array()).all());
    Params<float> g = ZeroParams<float>(ck.config);
    CHECK_FALSE(Backward(g, b, wide, ck.config, s, 1.0f, &error));
    CHECK(error == "a Llama-family model is opened, not trained, here");
  }
}

}  // TEST_SUITE

// GPT-2-family checkpoints in the Hugging Face layout: the lab's forward on the random
// checkpoints of scripts/gpt2_fixture.py against an independent PyTorch forward
// (tests/model/gpt2_reference.json, scripts/gpt2_reference.py), and the refusals.
// The checkpoints are written at test time (CTest's fixture "gpt2" runs the script into the build
// folder and passes ATTNLAB_GPT2_FIXTURES); nothing here is trained or downloaded.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <initializer_list>
#include <sstream>
#include <string>
#include <vector>

#include "checkpoint_reference.h"
#include "model/arch/model.h"
#include "model/format/hf_checkpoint.h"
#include "model/format/hf_gpt2.h"
#include "model/format/hf_gpt2_loader.h"
#include "model/format/model_folder.h"
#include "model/format/safetensors.h"
#include "model/lab/model_lab.h"
#include "model/lab/model_whatif.h"

using namespace attn;
using namespace attn::model;
using Json = nlohmann::json;
using checkpoint_reference::LastLogProbs;
using checkpoint_reference::ReadText;
using checkpoint_reference::Run;

namespace {

std::string FixtureDir() {
  return checkpoint_reference::FixtureFolder("ATTNLAB_GPT2_FIXTURES", "(cd tests/fixtures/gpt2 && npm ci) && /usr/bin/python3 scripts/gpt2_fixture.py --out DIR");
}

const Json& Reference() {
  static const Json j = Json::parse(ReadText(std::string(ATTNLAB_SOURCE_DIR) + "/tests/model/gpt2_reference.json"));
  return j;
}

}  // namespace

TEST_CASE("gpt2 checkpoints: the fuzz target's seeds (tests/fuzz/corpus/hf_gpt2) are accepted checkpoints that run") {
  // Each seed is config.json's text, a NUL byte, then the safetensors bytes: the fuzzer starts
  // from checkpoints that pass every check, so its mutations reach the deep paths.
  int seeds = 0;
  for (const char* name : {"tiny-f32.bin", "tiny-prefixed-bf16-buffers.bin", "tiny-f16-lmhead.bin", "two-layers-two-heads.bin"}) {
    CAPTURE(name);
    const std::string input = ReadText(std::string(ATTNLAB_SOURCE_DIR) + "/tests/fuzz/corpus/hf_gpt2/" + name);
    const std::size_t nul = input.find('\0');
    REQUIRE(nul != std::string::npos);
    ModelConfig c;
    int eos = -1;
    std::string error;
    REQUIRE_MESSAGE(ParseGpt2Config(input.substr(0, nul), &c, &eos, &error), error);
    StFile f;
    REQUIRE_MESSAGE(ReadSafetensors(input.substr(nul + 1), &f, &error), error);
    Params<float> p;
    REQUIRE_MESSAGE(HfFromTensors(c, f.tensors, &p, &error), error);
    SequenceActs<float> acts;
    Sequence s;
    s.tokens = {0, 1};
    s.targets = {-1, -1};
    CHECK_MESSAGE(Forward(acts, p, c, s, &error), error);
    ++seeds;
  }
  CHECK(seeds == 4);
  // A config that claims far more numbers than the files hold is refused before allocating:
  // every weight is checked present, by name and shape, before any is allocated.
  ModelConfig big;
  int eos = -1;
  std::string error;
  REQUIRE(ParseGpt2Config(R"({"model_type": "gpt2", "n_layer": 48, "n_head": 64, "n_embd": 65536, "n_positions": 1024, "vocab_size": 50257})",
                          &big, &eos, &error) == false);
  REQUIRE(ParseGpt2Config(R"({"model_type": "gpt2", "n_layer": 24, "n_head": 16, "n_embd": 4096, "n_positions": 1024, "vocab_size": 50257})",
                          &big, &eos, &error));
  Params<float> p;
  CHECK_FALSE(HfFromTensors(big, {StTensor{"wte.weight", Dtype::kF32, {1}, {0.0f}}}, &p, &error));
  CHECK(error == "tensor 'wpe.weight' is missing");
  CHECK_FALSE(HfFromTensors(big, {StTensor{"wte.weight", Dtype::kF32, {1}, {0.0f}}, StTensor{"wpe.weight", Dtype::kF32, {1}, {0.0f}}},
                              &p, &error));
  CHECK(error.find("tensor 'h.0.ln_1.weight' is missing") == 0);
}

TEST_SUITE("gpt2") {

TEST_CASE("gpt2 checkpoints: every head's weights and the next token's log-probabilities within 1e-5 of PyTorch; greedy continuations the same") {
  const Json& ref = Reference();
  const std::string dir = FixtureDir();
  int variants = 0, compared = 0;
  for (auto it = ref["variants"].begin(); it != ref["variants"].end(); ++it) {
    const std::string name = it.key();
    CAPTURE(name);
    HfCheckpoint ck;
    std::string error;
    REQUIRE_MESSAGE(ReadHfFolder(dir + "/" + name, &ck, &error), error);
    const Json& v = it.value();
    CHECK(ck.dtype == v["dtype"].get<std::string>());
    CHECK(ck.config.layers == v["config"]["n_layer"].get<int>());
    CHECK(ck.config.gelu_erf == (v["config"]["activation_function"].get<std::string>() == "gelu"));
    const Json& results = ref["results"][v["results"].get<std::string>()];
    double worst_attn = 0, worst_logp = 0;
    for (std::size_t s = 0; s < ref["sentences"].size(); ++s) {
      const std::vector<int> ids = ref["sentences"][s]["ids"].get<std::vector<int>>();
      const Json& r = results[s];
      SequenceActs<float> acts;
      REQUIRE(Run(ck, ids, &acts, false));
      // attention[l][h][i] = row i's weights on keys 0..i
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
      for (const Json& t : r["last"]["top"])
        worst_logp = std::fmax(worst_logp, std::abs(logp[t[0].get<std::size_t>()] - t[1].get<double>()));
      for (std::size_t k = 0; k < ref["fixed_ids"].size(); ++k)
        worst_logp = std::fmax(worst_logp, std::abs(logp[ref["fixed_ids"][k].get<std::size_t>()] - r["last"]["fixed"][k].get<double>()));
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
      }
      ++compared;
    }
    MESSAGE(name << ": worst attention error " << worst_attn << ", worst log-probability error " << worst_logp);
    // The issue asks for 1e-4 and 1e-3; the float forward is far closer, and the tighter bound
    // is what tells gelu from gelu_new (they differ by 1.6e-4 in these log-probabilities).
    CHECK(worst_attn < 1e-5);
    CHECK(worst_logp < 1e-5);
    ++variants;
  }
  CHECK(variants == 7);
  CHECK(compared == 28);
}

TEST_CASE("gpt2 checkpoints: bad folders are refused with the file and the problem named") {
  const std::string dir = FixtureDir() + "/f32-small3";
  HfCheckpoint ck;
  std::string error;
  CHECK_FALSE(ReadHfFolder(FixtureDir() + "/nowhere", &ck, &error));
  CHECK(error.find("config.json: no such file") != std::string::npos);
  // The configs a GPT-2 reader must refuse, by what is wrong.
  ModelConfig c;
  int eos = 0;
  const std::string good = ReadText(dir + "/config.json");
  struct Case { std::string from, to, says; };
  const Case cases[] = {
      {"\"gpt2\"", "\"bert\"", "model_type \"bert\" is not a GPT-2-family model"},
      {"\"n_head\": 2", "\"n_head\": 5", "n_head 5 does not divide n_embd 48"},
      {"\"n_layer\": 3", "\"n_layer\": 1000000000", "\"n_layer\" is 1000000000, more than the 4096 the lab opens"},
      {"\"n_embd\": 48", "\"n_embd\": 1099511627776", "\"n_embd\" is 1099511627776"},
      {"\"n_layer\": 3", "\"n_layer\": \"three\"", "\"n_layer\" must be a positive integer"},
      {"\"gelu_new\"", "\"relu\"", "activation_function \"relu\" is not supported"},
      {"\"gelu_new\"", "{\"a\": 1}", "\"activation_function\" must be a string"},  // found by fuzzing: json's value() threw
      // found by fuzzing: a line break in a quoted value is written escaped, the refusal one line
      {"\"gelu_new\"", "\"gelu\\nnew\"", "activation_function \"gelu\\nnew\" is not supported"},
  };
  REQUIRE(ParseGpt2Config(good, &c, &eos, &error));
  CHECK(c.layers == 3);
  CHECK(c.mlp == 4 * 48);
  CHECK(eos == 50256);
  for (const Case& k : cases) {
    std::string text = good;
    const std::size_t at = text.find(k.from);
    REQUIRE_MESSAGE(at != std::string::npos, k.from);
    text.replace(at, k.from.size(), k.to);
    CHECK_FALSE(ParseGpt2Config(text, &c, &eos, &error));
    CHECK_MESSAGE(error.find(k.says) != std::string::npos, error);
  }
  CHECK_FALSE(ParseGpt2Config("not json", &c, &eos, &error));
  CHECK(error == "config.json: not a JSON object");

  // The tensors: missing, extra, wrong shape, an integer dtype, a NaN.
  REQUIRE(ParseGpt2Config(good, &c, &eos, &error));
  StFile st;
  REQUIRE(ReadSafetensorsFile(dir + "/model.safetensors", &st, &error));
  Params<float> p;
  REQUIRE_MESSAGE(HfFromTensors(c, st.tensors, &p, &error), error);
  auto refusal = [&](std::vector<StTensor> tensors) {
    CHECK_FALSE(HfFromTensors(c, tensors, &p, &error));
    return error;
  };
  auto find = [&](std::vector<StTensor>& ts, const std::string& name) -> StTensor& {
    for (StTensor& t : ts)
      if (t.name == name) return t;
    FAIL("no tensor " << name);
    return ts[0];
  };
  std::vector<StTensor> ts = st.tensors;
  find(ts, "wte.weight").name = "wte.weights";  // as many numbers, one name wrong
  CHECK(refusal(ts) == "tensor 'wte.weight' is missing");
  ts = st.tensors;
  const std::string first = ts.front().name;
  ts.erase(ts.begin());  // a weight missing: refused by name, before any allocation
  CHECK(refusal(ts) == "tensor '" + first + "' is missing");
  ts = st.tensors;
  ts.push_back({"h.9.mlp.c_fc.weight", Dtype::kF32, {1}, {0.0f}});
  CHECK(refusal(ts) == "tensor 'h.9.mlp.c_fc.weight' is not part of a GPT-2 model");
  ts = st.tensors;
  find(ts, "h.1.attn.c_attn.weight").shape = {144, 48};
  CHECK(refusal(ts) == "tensor 'h.1.attn.c_attn.weight' has shape [144, 48], the config needs [48, 144]");
  ts = st.tensors;
  StTensor& wpe = find(ts, "wpe.weight");
  wpe.dtype = Dtype::kOther;
  wpe.stored = "I32";
  CHECK(refusal(ts) == "tensor 'wpe.weight' is I32; the weights must be F32, F16 or BF16");
  ts = st.tensors;
  find(ts, "ln_f.bias").values[3] = NAN;
  CHECK(refusal(ts).find("NaN") != std::string::npos);
  ts = st.tensors;
  ts.push_back(ts.front());
  CHECK(refusal(ts).find("appears twice") != std::string::npos);
}


TEST_CASE("gpt2 checkpoints open as one of the lab's models: the reference's ids, no begin token, every tool runs") {
  const Json& ref = Reference();
  const std::string dir = FixtureDir();
  int opened = 0;
  for (auto it = ref["variants"].begin(); it != ref["variants"].end(); ++it) {
    const std::string name = it.key();
    CAPTURE(name);
    LabModel m;
    std::string error;
    REQUIRE_MESSAGE(OpenModelFolder(dir + "/" + name, &m.shipped, &error), error);
    m.params = m.shipped.params;
    CHECK(m.shipped.format == "huggingface");
    CHECK(std::string(m.tokenizer().Kind()) == "gpt2-bpe");
    CHECK(m.tokenizer().Begin() == -1);
    CHECK(m.tokenizer().EndOfText() == 50256);
    const Json& results = ref["results"][it.value()["results"].get<std::string>()];
    for (std::size_t s = 0; s < ref["sentences"].size(); ++s) {
      const std::string text = ref["sentences"][s]["text"].get<std::string>();
      const std::vector<int> want = ref["sentences"][s]["ids"].get<std::vector<int>>();
      std::vector<int> ids;
      REQUIRE(m.tokenizer().Encode(text, &ids, &error));
      CHECK(ids == want);
      CHECK(m.tokenizer().Decode(ids) == text);
      // the lab's model mode on the sentence: the same tokens, nothing before them
      LabConfig cfg;
      cfg.projection = Projection::kModel;
      cfg.sentence = text;
      cfg.layer = m.config().layers - 1;
      cfg.head = m.config().heads - 1;
      cfg.query = static_cast<int>(want.size()) - 1;
      LabResult lab;
      ModelLabResult extra;
      REQUIRE_MESSAGE(ComputeModelLab(m, cfg, &lab, &extra), lab.error.message);
      CHECK(extra.ids == want);
      CHECK(extra.first == 0);
      CHECK(extra.eot == 50256);
      REQUIRE(lab.tokens.size() == want.size());
      CHECK(lab.tokens.front().byte_begin == 0);
      CHECK(lab.tokens.back().byte_end == text.size());  // pieces of characters too: by their bytes
      // the biases the Steps panel writes are the chosen head's, and its formula holds with them:
      // q = W_Q·LN(x) + b_Q, the same for k and v (the run's Q, K, V include them)
      REQUIRE(m.config().attn_bias);
      const HeadBiases bias = ChosenHeadBiases(m, cfg.layer, cfg.head);
      REQUIRE((bias.q && bias.k && bias.v && bias.o));
      Params<float> wide = Widened(m.params);
      const BlockParams<float>& block = wide.blocks[static_cast<std::size_t>(cfg.layer)];
      const std::size_t h = static_cast<std::size_t>(cfg.head);
      CHECK(*bias.q == block.bq[h]);
      CHECK(*bias.k == block.bk[h]);
      CHECK(*bias.v == block.bv[h]);
      CHECK(*bias.o == block.bo);
      CHECK(bias.q->cwiseAbs().maxCoeff() > 0);  // the fixtures' biases are not zeros
      const MatF& x = lab.trace.X;  // (T, C) LN(x) of the layer
      CHECK((x * block.attn.W_Q[h] + bias.q->transpose().replicate(x.rows(), 1) - lab.trace.Q).cwiseAbs().maxCoeff() < 1e-5f);
      CHECK((x * block.attn.W_K[h] + bias.k->transpose().replicate(x.rows(), 1) - lab.trace.K).cwiseAbs().maxCoeff() < 1e-5f);
      CHECK((x * block.attn.W_V[h] + bias.v->transpose().replicate(x.rows(), 1) - lab.trace.V).cwiseAbs().maxCoeff() < 1e-5f);
      CHECK(ChosenHeadBiases(m, cfg.layer, m.config().heads).q == nullptr);  // no such head
      // the shown head's weights are the reference's (the query's row)
      const Json& row = results[s]["attention"][cfg.layer][cfg.head][static_cast<std::size_t>(cfg.query)];
      for (std::size_t j = 0; j < row.size(); ++j)
        CHECK(std::abs(lab.trace.weights(cfg.query, static_cast<Eigen::Index>(j)) - row[j].get<double>()) < 1e-5);
      // the next token: the reference's likeliest when it leads by more than our error
      if (results[s]["greedy_margins"][0].get<double>() > 1e-3) CHECK(extra.next[0].id == results[s]["greedy"][0].get<int>());
      // a knock-out and a word edit through the what-if comparison
      LabConfig ko = cfg;
      ko.knockout_heads = HeadList("0:0");
      ModelComparison cmp;
      LabError why;
      REQUIRE_MESSAGE(CompareModelRuns(m, ko, extra, &cmp, &why), why.message);
      CHECK(cmp.d_weights.size() == static_cast<std::size_t>(m.config().layers * m.config().heads));
      LabConfig edit = cfg;
      edit.what_if_token = 0;  // the first word deleted: no begin token keeps the first place
      edit.what_if_mode = WhatIfMode::kReplace;
      edit.what_if_with = "";  // deleted
      REQUIRE_MESSAGE(CompareModelRuns(m, edit, extra, &cmp, &why), why.message);
      CHECK(cmp.to_edited[0] == -1);
    }
    ++opened;
  }
  CHECK(opened == 7);
}

TEST_CASE("gpt2 checkpoints: weights kept at their stored precision give the widened weights' bits") {
  const Json& ref = Reference();
  int variants = 0;
  for (auto it = ref["variants"].begin(); it != ref["variants"].end(); ++it) {
    const std::string name = it.key();
    CAPTURE(name);
    HfCheckpoint ck;
    std::string error;
    REQUIRE_MESSAGE(ReadHfFolder(FixtureDir() + "/" + name, &ck, &error), error);
    REQUIRE(ck.params.stored);
    CHECK(ck.params.wte.size() == 0);  // the big matrices are only stored
    const Params<float> wide = Widened(ck.params);
    REQUIRE_FALSE(wide.stored);
    // F16 and BF16: two bytes a number, not four
    const std::size_t per = it.value()["dtype"].get<std::string>() == "F32" ? 4 : 2;
    const ModelConfig& c = ck.config;
    const std::size_t big = static_cast<std::size_t>(c.vocab) * c.d_model * (c.tied ? 1 : 2) +
                            static_cast<std::size_t>(c.layers) * (4 * c.d_model * c.d_model + 2 * c.d_model * c.mlp);
    CHECK(ck.params.stored->bytes() == big * per);
    for (bool last_only : {true, false}) {
      Sequence s;
      s.tokens = ref["sentences"][1]["ids"].get<std::vector<int>>();
      s.targets.assign(s.tokens.size(), -1);
      s.targets[2] = 7;
      SequenceActs<float> a, b;
      Hooks<float> hooks;  // a hook at hook_embed takes the embedding's other path
      hooks.Add(HookPoint::kEmbed, -1, -1, [](const HookSite&, Mat<float>&, std::string*) { return true; });
      s.threads = 2;  // the output's slices over two threads: the same bits
      REQUIRE(Forward(a, ck.params, c, s, &error, last_only, last_only ? &hooks : nullptr));
      s.threads = 1;
      REQUIRE(Forward(b, wide, c, s, &error, last_only));
      CHECK(std::memcmp(a.logits.data(), b.logits.data(), sizeof(float) * static_cast<std::size_t>(a.logits.size())) == 0);
      CHECK(a.loss_sum == b.loss_sum);
      for (std::size_t l = 0; l < a.blocks.size(); ++l)
        CHECK(a.blocks[l].res2 == b.blocks[l].res2);
    }
    // training needs the widened numbers: the stored ones are refused, not guessed
    Params<float> g = ZeroParams<float>(c);
    SequenceActs<float> acts;
    Sequence s;
    s.tokens = {1, 2};
    s.targets = {2, 3};
    REQUIRE(Forward(acts, ck.params, c, s, &error));
    CHECK_FALSE(Backward(g, acts, ck.params, c, s, 1.0f, &error));
    CHECK(error == "the weights are kept at their stored precision: widen them to train");
    ++variants;
  }
  CHECK(variants == 7);
}

TEST_CASE("gpt2 checkpoints: a folder without a tokenizer, or with one larger than the model, is refused by name") {
  const std::string from = FixtureDir() + "/f32-bare-buffers";
  const std::string dir = FixtureDir() + "/../gpt2-no-tokenizer";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  for (const char* f : {"config.json", "model.safetensors"}) std::filesystem::copy_file(from + "/" + f, dir + "/" + f);
  Bundle b;
  std::string error;
  CHECK_FALSE(OpenModelFolder(dir, &b, &error));
  CHECK(error.find("no tokenizer: expected tokenizer.json, or vocab.json and merges.txt") != std::string::npos);
  CHECK_FALSE(OpenModelFolder(dir + "/nowhere", &b, &error));
  CHECK(error == dir + "/nowhere: no such folder");
  // a vocabulary of fewer ids than the tokenizer has
  std::filesystem::copy_file(from + "/vocab.json", dir + "/vocab.json");
  std::filesystem::copy_file(from + "/merges.txt", dir + "/merges.txt");
  REQUIRE_MESSAGE(OpenModelFolder(dir, &b, &error), error);
  std::shared_ptr<const Tokenizer> t;
  std::map<std::string, std::string> files = {{"vocab.json", ReadText(dir + "/vocab.json")}, {"merges.txt", ReadText(dir + "/merges.txt")}};
  CHECK_FALSE(HfTokenizerFromFiles(files, 50256, 50000, &t, &error));
  CHECK(error == "vocab.json: the tokenizer has ids up to 50256 but the model's vocabulary (config.json's vocab_size) is 50000 tokens");
  std::filesystem::remove_all(dir);
}
}  // TEST_SUITE

TEST_SUITE("gpt2") {

TEST_CASE("gpt2 checkpoints: Check says what the weights take in memory before anything is allocated (the page's refusal)") {
  const Json& ref = Reference();
  for (auto it = ref["variants"].begin(); it != ref["variants"].end(); ++it) {
    const std::string dir = FixtureDir() + "/" + it.key() + "/";
    CAPTURE(dir);
    HfCheckpoint ck;
    std::string error;
    REQUIRE_MESSAGE(ReadHfFolder(dir, &ck, &error), error);
    // the files as the page gets them: the index (if any), each file's length and header
    std::vector<std::string> files;
    const std::string index = ReadText(dir + "model.safetensors.index.json");
    REQUIRE_MESSAGE(HfWeightFiles(index.empty() ? nullptr : &index, &files, &error), error);
    Gpt2Loader loader(ck.config);
    for (const std::string& f : files) {
      const std::string bytes = ReadText(dir + f);
      std::uint64_t length = 0;
      REQUIRE(HeaderLength(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), &length, &error));
      REQUIRE_MESSAGE(loader.AddFile(f, bytes.size(), std::string_view(bytes).substr(8, length), &error), error);
    }
    REQUIRE_MESSAGE(loader.Check(&error), error);
    std::uint64_t floats = 0;
    for (const TensorRef<float>& t : Tensors(ck.params)) floats += static_cast<std::uint64_t>(t.size());
    CHECK(loader.WeightBytes() == ck.params.stored->bytes() + 4 * floats);
    REQUIRE_MESSAGE(loader.Plan(&error), error);
    std::uint64_t largest = 0;
    for (const Gpt2Piece& p : loader.pieces()) largest = std::max(largest, p.end - p.begin);
    CHECK(loader.LargestPiece() >= largest);  // (a tied lm_head's copy is never read, but may be the largest)
    CHECK_FALSE(loader.Check(&error));  // once
  }
  // the forward's intermediates: by hand for one small shape (C 4, F 16, H 2, V 10, 1 layer, 3 tokens)
  ModelConfig c;
  c.d_model = 4; c.mlp = 16; c.heads = 2; c.vocab = 10; c.layers = 1;
  const std::uint64_t block = 3 * 4 * 9 + 3 * 16 * 2 + 2 * (3 * 2 * 4 + 3 * 3 * 4);
  CHECK(ForwardBytes(c, 3) == 4 * (block + 3 * 4 * 2 + 3 * 10 * 2));
}

TEST_CASE("gpt2 checkpoints: the weight files an index names, or model.safetensors") {
  std::vector<std::string> files;
  std::string error;
  REQUIRE(HfWeightFiles(nullptr, &files, &error));
  CHECK(files == std::vector<std::string>{"model.safetensors"});
  const std::string two = R"({"weight_map": {"a": "x.safetensors", "b": "y.safetensors", "c": "x.safetensors"}})";
  REQUIRE(HfWeightFiles(&two, &files, &error));
  CHECK(files == std::vector<std::string>{"x.safetensors", "y.safetensors"});
  for (const auto& refusal : std::vector<std::pair<std::string, std::string>>{
           {"not json", "model.safetensors.index.json: no \"weight_map\" object"},
           {R"({"weight_map": {}})", "model.safetensors.index.json: the weight map is empty"},
           {R"({"weight_map": {"a": 3}})", "model.safetensors.index.json: \"a\" names no file"},
           {R"({"weight_map": {"a": "../x"}})", "model.safetensors.index.json: \"../x\" is not a file of this folder"}}) {
    // Not a structured binding: clang refuses to capture one in CAPTURE's lambda (C++17).
    const std::string& text = refusal.first;
    CAPTURE(text);
    CHECK_FALSE(HfWeightFiles(&text, &files, &error));
    CHECK(error == refusal.second);
  }
}

}  // TEST_SUITE

// `attnlab model export --to hf` (model/format/hf_gpt2_write.h): the shipped model written as a
// GPT-2 checkpoint and read back by the lab's GPT-2 reader gives every weight's bits and every
// logit's bits; a model with attention biases, an untied head, the erf GELU and another epsilon
// makes the same round trip (the biases' layout is then seen, not zeros); the refusals.
// Comparisons are of bits (memcmp), never within a tolerance; the first case shows the helper
// sees one flipped bit and a zero's sign.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "model/arch/model.h"
#include "model/format/hf_checkpoint.h"
#include "model/format/hf_gpt2.h"
#include "model/format/hf_gpt2_write.h"
#include "model/tokenizer/bpe.h"
#include "shipped_lab_model.h"

using namespace attn;
using namespace attn::model;
namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

// The lab's own tokenizer of a folder the lab wrote.
const Bpe& Own(const Bundle& b) { return *b.tokenizer->Own(); }

// A fresh empty folder under the system's temporary folder.
std::string TempFolder(const std::string& name) {
  const fs::path p = fs::temp_directory_path() / ("attnlab-export-test-" + name);
  fs::remove_all(p);
  return p.string();
}

// The first tensor of `want` (by name, Tensors' names) whose bits `got` does not hold exactly,
// or "" when every one matches. `got` may hold more tensors (GPT-2's attention biases).
// Weights kept at their stored precision are compared widened (exactly).
std::string FirstDifference(const Params<float>& want_as_read, const Params<float>& got_as_read) {
  Params<float> want = Widened(want_as_read), got = Widened(got_as_read);
  std::map<std::string, TensorRef<float>> by_name;
  for (const TensorRef<float>& t : Tensors(got)) by_name.emplace(t.name, t);
  for (const TensorRef<float>& t : Tensors(want)) {
    const auto it = by_name.find(t.name);
    if (it == by_name.end()) return t.name + " (missing)";
    if (it->second.shape != t.shape) return t.name + " (shape)";
    if (std::memcmp(t.data, it->second.data, sizeof(float) * static_cast<std::size_t>(t.size())) != 0) return t.name;
  }
  return "";
}

// Every attention bias of `p` is +0.0 (bits), and there is one per head and layer.
bool ZeroBiases(const Params<float>& p, const ModelConfig& c) {
  const float zero = 0.0f;
  auto zeros = [&](const Vec<float>& v) {
    for (Eigen::Index i = 0; i < v.size(); ++i)
      if (std::memcmp(&v(i), &zero, sizeof zero) != 0) return false;
    return true;
  };
  for (const BlockParams<float>& b : p.blocks) {
    if (b.bq.size() != static_cast<std::size_t>(c.heads) || b.bo.size() != c.d_model || !zeros(b.bo)) return false;
    for (std::size_t k = 0; k < b.bq.size(); ++k)
      if (!zeros(b.bq[k]) || !zeros(b.bk[k]) || !zeros(b.bv[k])) return false;
  }
  return true;
}

Mat<float> Logits(const Params<float>& p, const ModelConfig& c, const std::vector<int>& ids) {
  SequenceActs<float> acts;
  Sequence s;
  s.tokens = ids;
  s.targets.assign(ids.size(), -1);
  std::string error;
  REQUIRE_MESSAGE(Forward(acts, p, c, s, &error), error);
  return acts.logits;  // (T, V)
}

HfCheckpoint ExportAndRead(const ModelConfig& c, const Params<float>& p, const Bpe& bpe, const Gpt2ExportOptions& o,
                           const std::string& name) {
  NamedFiles files;
  std::string error;
  REQUIRE_MESSAGE(Gpt2FolderFiles(c, p, bpe, o, &files, &error), error);
  const std::string dir = TempFolder(name);
  REQUIRE_MESSAGE(WriteGpt2Folder(dir, files, false, &error), error);
  HfCheckpoint ck;
  REQUIRE_MESSAGE(ReadHfFolder(dir, &ck, &error), error);
  fs::remove_all(dir);
  return ck;
}

}  // namespace

TEST_CASE("hf export: the comparison sees one flipped bit and a zero's sign") {
  const Params<float>& shipped = testing_model::Shipped().shipped.params;
  Params<float> copy = shipped;
  CHECK(FirstDifference(shipped, copy).empty());
  std::uint32_t bits;
  std::memcpy(&bits, &copy.blocks[2].fc_w(5, 7), sizeof bits);
  bits ^= 1u;  // the last mantissa bit: 1 part in 2^23
  std::memcpy(&copy.blocks[2].fc_w(5, 7), &bits, sizeof bits);
  CHECK(FirstDifference(shipped, copy) == "h.2.mlp.fc.weight");
  Params<float> plus = shipped, minus = shipped;
  plus.lnf_b(0) = 0.0f;
  minus.lnf_b(0) = -0.0f;
  CHECK(plus.lnf_b(0) == minus.lnf_b(0));  // equal as numbers, which a tolerance would accept
  CHECK(FirstDifference(plus, minus) == "ln_f.bias");
  CHECK_FALSE(ZeroBiases(shipped, testing_model::Shipped().config()));  // the lab's model has none at all
}

TEST_CASE("hf export: the shipped model read back by the GPT-2 reader has every weight's bits, its config and its logits' bits") {
  const Bundle& b = testing_model::Shipped().shipped;
  CHECK(ExactDtype(b.params) == Dtype::kF16);  // the folder stores F16
  Gpt2ExportOptions o;
  o.dtype = ExactDtype(b.params);
  const HfCheckpoint ck = ExportAndRead(b.config, b.params, Own(b), o, "shipped");
  CHECK(ck.dtype == "F16");
  CHECK(ck.eos == Bpe::kEndOfText);
  const ModelConfig& want = b.config;
  const ModelConfig& got = ck.config;
  CHECK(got.vocab == want.vocab);
  CHECK(got.d_model == want.d_model);
  CHECK(got.layers == want.layers);
  CHECK(got.heads == want.heads);
  CHECK(got.context == want.context);
  CHECK(got.mlp == want.mlp);
  CHECK(std::memcmp(&got.ln_eps, &want.ln_eps, sizeof got.ln_eps) == 0);
  CHECK(got.gelu_erf == want.gelu_erf);
  CHECK(got.tied == want.tied);
  CHECK(got.attn_bias);  // GPT-2 has attention biases: ours are written as zeros
  CHECK(ZeroBiases(ck.params, got));
  CHECK(FirstDifference(b.params, ck.params) == "");
  CHECK(ck.parameters == Gpt2ParameterCount(got));

  // The logits of every position, bit for bit: adding +0.0 biases changes no value.
  const char* texts[] = {"я люблю суши", "The cat sat on the mat, and then it sat again.",
                         "Ёжик в тумане — don't panic! 🇺🇦 x\u200dy", "a"};
  for (const char* text : texts) {
    CAPTURE(text);
    std::vector<int> ids = {Bpe::kEndOfText};
    std::vector<int> more;
    std::string error;
    REQUIRE(Own(b).Encode(text, &more, &error));
    ids.insert(ids.end(), more.begin(), more.end());
    CHECK(testing_model::SameBits(Logits(b.params, want, ids), Logits(ck.params, got, ids)));
  }
}

TEST_CASE("hf export: biases, an untied head, the erf GELU and another epsilon make the same round trip") {
  Bpe bpe;
  std::string error;
  REQUIRE(bpe.Train({"the cat sat on the mat", "кот сидел на ковре", "the cat, the mat"}, 300, 1, &error));
  ModelConfig c;
  c.vocab = bpe.size();
  c.d_model = 24;
  c.heads = 3;
  c.layers = 2;
  c.context = 16;
  c.mlp = 40;
  c.ln_eps = 1e-6;
  c.gelu_erf = true;
  c.attn_bias = c.out_bias = true;
  c.tied = false;
  Params<float> p = InitParams<float>(c, 7);
  // Every bias distinct, so a bias written to another head's or part's place is seen.
  float next = 0.001f;
  for (BlockParams<float>& blk : p.blocks) {
    for (std::vector<Vec<float>>* part : {&blk.bq, &blk.bk, &blk.bv})
      for (Vec<float>& v : *part)
        for (Eigen::Index i = 0; i < v.size(); ++i) v(i) = (next += 0.001f);
    for (Eigen::Index i = 0; i < blk.bo.size(); ++i) blk.bo(i) = (next += 0.001f);
  }
  p.lm_head = p.wte * 0.5f + Mat<float>::Constant(p.wte.rows(), p.wte.cols(), 0.01f);
  CHECK(ExactDtype(p) == Dtype::kF32);
  Gpt2ExportOptions o;
  o.dtype = Dtype::kF32;
  const HfCheckpoint ck = ExportAndRead(c, p, bpe, o, "biases");
  CHECK(ck.config.gelu_erf);
  CHECK_FALSE(ck.config.tied);
  CHECK(ck.config.ln_eps == 1e-6);
  CHECK(ck.config.mlp == 40);
  CHECK(FirstDifference(p, ck.params) == "");
  CHECK(FirstDifference(ck.params, p) == "");  // and nothing more: the biases are these ones
  std::vector<int> ids;
  REQUIRE(bpe.Encode("the cat sat", &ids, &error));
  CHECK(testing_model::SameBits(Logits(p, c, ids), Logits(ck.params, ck.config, ids)));

  // BF16 rounds these weights: refused, unless allowed; then the file holds the rounding.
  o.dtype = Dtype::kBF16;
  NamedFiles files;
  CHECK_FALSE(Gpt2FolderFiles(c, p, bpe, o, &files, &error));
  CHECK_MESSAGE(error.find("model.safetensors: BF16 would round ") == 0, error);
  CHECK(RoundedValues(p, Dtype::kBF16) > 0);
  o.allow_rounding = true;
  const HfCheckpoint rounded = ExportAndRead(c, p, bpe, o, "bf16");
  CHECK(rounded.dtype == "BF16");
  CHECK(ExactDtype(rounded.params) == Dtype::kBF16);
  CHECK(RoundedValues(rounded.params, Dtype::kBF16) == 0);
  CHECK(FirstDifference(p, rounded.params) != "");
}

TEST_CASE("hf export: the files, the tokenizers and the refusals") {
  const Bundle& b = testing_model::Shipped().shipped;
  NamedFiles files;
  std::string error;
  REQUIRE_MESSAGE(Gpt2FolderFiles(b.config, b.params, Own(b), Gpt2ExportOptions(), &files, &error), error);
  std::map<std::string, std::string> by_name(files.begin(), files.end());
  for (const char* name : {"config.json", "generation_config.json", "model.safetensors", "attnlab-tokenizer.json",
                           "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"})
    CHECK_MESSAGE(by_name.count(name) == 1, name);
  CHECK(files.size() == 7);

  const Json config = Json::parse(by_name["config.json"]);
  CHECK(config["model_type"] == "gpt2");
  CHECK(config["architectures"] == Json::array({"GPT2LMHeadModel"}));
  CHECK(config["activation_function"] == "gelu_new");
  CHECK(config["n_inner"] == b.config.mlp);
  CHECK(config["n_ctx"] == b.config.context);
  CHECK(config["bos_token_id"] == 0);
  CHECK(config["eos_token_id"] == 0);
  CHECK(config["tie_word_embeddings"] == true);
  CHECK(config["torch_dtype"] == "float16");

  // The exact tokenizer is the folder's own; tokenizer.json holds the same vocabulary and merges.
  Bpe exact;
  REQUIRE(BpeFromJson(by_name["attnlab-tokenizer.json"], &exact, &error));
  CHECK(exact.tokens() == Own(b).tokens());
  CHECK(exact.merges().size() == Own(b).merges().size());
  const Json hf = Json::parse(by_name["tokenizer.json"]);
  CHECK(hf["model"]["type"] == "BPE");
  CHECK(hf["model"]["byte_fallback"] == true);
  CHECK(hf["model"]["vocab"].size() == static_cast<std::size_t>(Own(b).size()));
  for (int id : {0, 1, 11, 129, 256, 257, Own(b).size() - 1})
    CHECK(hf["model"]["vocab"][Own(b).Text(id)] == id);
  CHECK(hf["model"]["vocab"]["<0xD0>"] == Bpe::kFirstByte + 0x50);
  REQUIRE(hf["model"]["merges"].size() == Own(b).merges().size());
  const BpeMerge& m = Own(b).merges()[17];
  CHECK(hf["model"]["merges"][17] == Json::array({Own(b).Text(m.left), Own(b).Text(m.right)}));
  CHECK(hf["added_tokens"][0]["content"] == "<|endoftext|>");
  CHECK(hf["added_tokens"][0]["id"] == 0);
  CHECK(hf["pre_tokenizer"]["type"] == "Split");
  CHECK(Json::parse(by_name["tokenizer_config.json"])["model_max_length"] == b.config.context);

  // Refusals: a vocabulary that is not the model's; a folder that holds files; a file in the way.
  ModelConfig bigger = b.config;
  bigger.vocab += 1;
  CHECK_FALSE(Gpt2FolderFiles(bigger, b.params, Own(b), Gpt2ExportOptions(), &files, &error));
  CHECK(error == "attnlab-tokenizer.json: 4096 tokens for a model of 4097");
  const std::string dir = TempFolder("refusals");
  fs::create_directories(dir);
  std::ofstream(dir + "/notes.txt") << "mine";
  const NamedFiles small = {{"config.json", "{}"}};
  CHECK_FALSE(WriteGpt2Folder(dir, small, false, &error));
  CHECK(error == dir + ": the folder is not empty; nothing was written");
  CHECK(WriteGpt2Folder(dir, small, true, &error));  // replace: the export's files only
  CHECK(fs::exists(dir + "/notes.txt"));
  std::ofstream(dir + "/model.safetensors.index.json") << "{}";
  CHECK_FALSE(WriteGpt2Folder(dir, small, true, &error));
  CHECK(error.find("model.safetensors.index.json: readers would take it instead") != std::string::npos);
  CHECK_FALSE(WriteGpt2Folder(dir + "/notes.txt", small, false, &error));
  CHECK(error == dir + "/notes.txt: exists and is not a folder");
  fs::remove_all(dir);
}

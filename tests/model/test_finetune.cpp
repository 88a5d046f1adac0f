// "Train it more" (finetune.h): the loss on the text falls, a step is the same bits as the
// shipped training's pieces on the same batch (whatever their thread count), N steps then M more
// equal N + M at once, going back to the shipped weights restores every bit, and the texts that
// cannot be trained on are refused in the one wording.
#include <doctest/doctest.h>

#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "model/format/bundle.h"
#include "model/training/finetune.h"
#include "quick.h"

using namespace attn;
using namespace attn::model;

namespace {

const char* const kText =
    "the cat sat on the mat. the dog sat on the rug. the cat saw the dog. "
    "the dog saw the cat. the cat sat on the mat again, and the dog sat on the rug again.";

struct Small {
  Bpe own;
  std::shared_ptr<const Tokenizer> tokenizer;
  const Tokenizer& bpe() const { return *tokenizer; }
  ModelConfig config;
  Params<float> params;
};

Small MakeSmall() {
  Small s;
  std::string error;
  REQUIRE_MESSAGE(s.own.Train({kText, kText}, 300, 2, &error), error);
  s.tokenizer = MakeOwnTokenizer(s.own);
  s.config = {s.own.size(), 16, 2, 2, 24, 32};
  s.params = InitParams<float>(s.config, 7);
  return s;
}

bool SameBits(const Params<float>& a, const Params<float>& b) {
  Params<float> x = a, y = b;
  std::vector<TensorRef<float>> ta = Tensors(x), tb = Tensors(y);
  if (ta.size() != tb.size()) return false;
  for (std::size_t k = 0; k < ta.size(); ++k) {
    if (ta[k].size() != tb[k].size()) return false;
    if (std::memcmp(ta[k].data, tb[k].data, sizeof(float) * static_cast<std::size_t>(ta[k].size())) != 0) return false;
  }
  return true;
}

// Runs whole steps; returns the losses.
std::vector<double> Run(TuneSession& session, Params<float>& p, int steps) {
  std::vector<double> losses;
  while (static_cast<int>(losses.size()) < steps) {
    bool done = false;
    StepMetrics m;
    std::string error;
    REQUIRE_MESSAGE(session.Work(p, &done, &m, &error), error);
    if (done) losses.push_back(m.loss);
  }
  return losses;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

TEST_CASE("tune: the loss on the text falls") {
  Small s = MakeSmall();
  std::vector<int> ids;
  std::string error;
  REQUIRE_MESSAGE(TuneStream(s.bpe(), kText, "text", &ids, &error), error);
  CHECK(ids[0] == Bpe::kEndOfText);
  TuneConfig cfg;
  cfg.lr = 1e-2;
  cfg.length = 16;
  TuneSession session;
  REQUIRE_MESSAGE(session.Start(s.config, ids, cfg, &error), error);
  CHECK(session.length() == 16);
  const std::vector<double> losses = Run(session, s.params, 60);
  double first = 0, last = 0;
  for (int k = 0; k < 10; ++k) first += losses[static_cast<std::size_t>(k)];
  for (int k = 50; k < 60; ++k) last += losses[static_cast<std::size_t>(k)];
  CAPTURE(first / 10);
  CAPTURE(last / 10);
  CHECK(last < 0.5 * first);
  CHECK(session.step() == 60);
  CHECK(session.history().size() == 60);
}

TEST_CASE("tune: a step is LossAndGrad + clip + AdamW on the same batch, bit for bit, for 1 and 2 threads") {
  Small s = MakeSmall();
  std::vector<int> ids;
  REQUIRE(TuneStream(s.bpe(), kText, "text", &ids, nullptr));
  TuneConfig cfg;
  cfg.batch = 3;
  cfg.length = 12;
  cfg.seed = 9;
  for (const int threads : {1, 2}) {
    CAPTURE(threads);
    Params<float> mine = s.params, theirs = s.params;
    TuneSession session;
    REQUIRE(session.Start(s.config, ids, cfg, nullptr));
    AdamW<float> opt;
    Params<float> g;
    for (int k = 0; k < 4; ++k) {
      const std::vector<double> one = Run(session, mine, 1);
      const std::vector<Sequence> batch = SampleBatch(ids, cfg.batch, 12, cfg.seed, k);
      const double loss = LossAndGrad(g, theirs, s.config, batch, nullptr, threads);
      ClipGradNorm(g, 1.0);
      opt.Step(theirs, g, cfg.lr);
      CHECK(one[0] == loss);  // exact
      CHECK(SameBits(mine, theirs));
    }
  }
}

TEST_CASE("tune: N steps then M more are the same bits as N + M at once; the units may be sliced anyhow") {
  Small s = MakeSmall();
  std::vector<int> ids;
  REQUIRE(TuneStream(s.bpe(), kText, "text", &ids, nullptr));
  TuneConfig cfg;
  Params<float> a = s.params, b = s.params;
  TuneSession one, two;
  REQUIRE(one.Start(s.config, ids, cfg, nullptr));
  REQUIRE(two.Start(s.config, ids, cfg, nullptr));
  const std::vector<double> whole = Run(one, a, 7);
  std::vector<double> parts = Run(two, b, 3);
  // Stop in the middle of a step (two units), then go on.
  bool done = false;
  REQUIRE(two.Work(b, &done));
  REQUIRE(two.Work(b, &done));
  CHECK_FALSE(done);
  CHECK(two.unit() == 2);
  const std::vector<double> rest = Run(two, b, 4);
  parts.insert(parts.end(), rest.begin(), rest.end());
  CHECK(whole == parts);
  CHECK(SameBits(a, b));
  CHECK(ParamsChecksum(a) == ParamsChecksum(b));
}

TEST_CASE("tune: going back to the starting weights restores every bit; the checksum sees one bit") {
  Small s = MakeSmall();
  const Params<float> shipped = s.params;
  const std::string before = ParamsChecksum(shipped);
  std::vector<int> ids;
  REQUIRE(TuneStream(s.bpe(), kText, "text", &ids, nullptr));
  TuneSession session;
  REQUIRE(session.Start(s.config, ids, TuneConfig{}, nullptr));
  Run(session, s.params, 3);
  CHECK_FALSE(SameBits(s.params, shipped));
  CHECK(ParamsChecksum(s.params) != before);
  s.params = shipped;  // what the app's reset does
  session.Clear();
  CHECK(SameBits(s.params, shipped));
  CHECK(ParamsChecksum(s.params) == before);
  CHECK_FALSE(session.started());
  CHECK(session.history().empty());

  Params<float> flipped = shipped;
  std::uint32_t bits;
  std::memcpy(&bits, &flipped.lnf_b[3], 4);
  bits ^= 1u;
  std::memcpy(&flipped.lnf_b[3], &bits, 4);
  CHECK(ParamsChecksum(flipped) != before);
}

TEST_CASE("tune: texts that cannot be trained on are refused in the one wording") {
  Small s = MakeSmall();
  std::vector<int> ids;
  std::string error;
  CHECK_FALSE(TuneStream(s.bpe(), "", "tune.text", &ids, &error));
  CHECK(error == "tune.text: expected a text of at least 8 tokens, got an empty text");
  CHECK_FALSE(TuneStream(s.bpe(), " \n\t ", "tune.text", &ids, &error));
  CHECK(error == "tune.text: expected a text of at least 8 tokens, got only spaces");
  CHECK_FALSE(TuneStream(s.bpe(), "the cat", "text", &ids, &error));
  CHECK(error.rfind("text: expected a text of at least 8 tokens, got ", 0) == 0);
  CHECK_FALSE(TuneStream(s.bpe(), "the cat \xff\xfe sat on the mat and the dog", "text", &ids, &error));
  CHECK(error == "text: expected UTF-8 text, got invalid bytes");
  CHECK_FALSE(TuneStream(s.bpe(), std::string(kMaxTuneTextBytes + 1, 'a'), "text", &ids, &error));
  CHECK(error == "text: expected a text of at most 65536 bytes, got 65537 bytes");

  REQUIRE(TuneStream(s.bpe(), kText, "text", &ids, nullptr));
  TuneSession session;
  TuneConfig bad;
  bad.batch = 0;
  CHECK_FALSE(session.Start(s.config, ids, bad, &error));
  CHECK(error == "batch: expected an integer from 1 to 16, got 0");
  bad = TuneConfig{};
  bad.lr = 0;
  CHECK_FALSE(session.Start(s.config, ids, bad, &error));
  CHECK(error == "lr: expected a number > 0 and <= 0.1, got 0");
  // A short text trains on shorter sequences rather than being refused.
  REQUIRE(TuneStream(s.bpe(), "the cat sat on the mat. the dog", "text", &ids, &error));
  REQUIRE(session.Start(s.config, ids, TuneConfig{}, &error));
  CHECK(session.length() == static_cast<int>(ids.size()) - 1);
  Params<float> p = s.params;
  Run(session, p, 2);
}

TEST_CASE("tune: the shipped model on the built-in texts, each language's loss falls") {
  Bundle b;
  std::string error;
  REQUIRE_MESSAGE(LoadBundle(std::string(ATTNLAB_SOURCE_DIR) + "/web/model", &b, &error), error);
  // under the sanitizers (quick.h) one language runs the same code
  const std::vector<const char*> langs = testing_quick::Quick() ? std::vector<const char*>{"ru"} : std::vector<const char*>{"en", "ru"};
  for (const char* lang : langs) {
    CAPTURE(lang);
    const std::string text = ReadFile(std::string(ATTNLAB_SOURCE_DIR) + "/web/tune/" + lang + ".txt");
    std::vector<int> ids;
    REQUIRE_MESSAGE(TuneStream(*b.tokenizer, text, "text", &ids, &error), error);
    // The loss on a fixed set of the text's windows, before and after 12 steps.
    const std::vector<Sequence> probe = SampleBatch(ids, 8, 32, 12345, 0);
    const double before = Loss(b.params, b.config, probe, nullptr, 2);
    Params<float> p = b.params;
    TuneSession session;
    REQUIRE(session.Start(b.config, ids, TuneConfig{}, &error));
    Run(session, p, 12);
    const double after = Loss(p, b.config, probe, nullptr, 2);
    CAPTURE(before);
    CAPTURE(after);
    CHECK(after < before - 0.1);
  }
}

namespace {

// GPT-2 small's shape (Hugging Face's "gpt2" config.json): 124 439 808 parameters.
ModelConfig Gpt2Small() {
  ModelConfig c;
  c.vocab = 50257;
  c.d_model = 768;
  c.layers = 12;
  c.heads = 12;
  c.context = 1024;
  c.mlp = 3072;
  c.attn_bias = c.out_bias = true;
  return c;
}

}  // namespace

TEST_CASE("tune: the parameters are counted from the config alone, as many as Tensors holds") {
  for (bool tied : {true, false})
    for (bool bias : {false, true}) {
      CAPTURE(tied);
      CAPTURE(bias);
      ModelConfig c{300, 16, 2, 2, 24, 40};
      c.tied = tied;
      c.attn_bias = c.out_bias = bias;
      Params<float> p = ZeroParams<float>(c);
      std::int64_t held = 0;
      for (const TensorRef<float>& t : Tensors(p)) held += t.size();
      CHECK(ParameterCount(c) == held);
    }
  CHECK(ParameterCount(Gpt2Small()) == 124439808);  // as transformers counts GPT-2 small
}

TEST_CASE("tune: a model over the memory limit is refused with its numbers before anything is allocated; one under it is not") {
  const TuneMemory big = TuneMemoryOf(Gpt2Small());
  CHECK(big.parameters == 124439808);
  CHECK(big.bytes == 124439808LL * kTuneBytesPerParameter);
  CHECK_FALSE(big.fits());
  const std::string refusal =
      "a model of 124.4 M parameters needs 3323 MiB to train (28 bytes a parameter: the weights in float, two "
      "gradients, AdamW's moments), more than the limit of 1024 MiB";
  CHECK(TuneMemoryRefusal(big) == refusal);
  // The session refuses it first of all, whatever the stream and settings: nothing is allocated
  // (no weights exist here at all) and the session stays unstarted.
  TuneSession session;
  std::string error;
  CHECK_FALSE(session.Start(Gpt2Small(), std::vector<int>(100, 1), TuneConfig{}, &error));
  CHECK(error == refusal);
  CHECK_FALSE(session.started());

  // The edge: the largest vocabulary a 6 x 512 model may have fits, one token more does not.
  ModelConfig edge = Gpt2Small();
  edge.layers = 6;
  edge.heads = 8;
  edge.d_model = 512;
  edge.mlp = 2048;
  edge.vocab = 0;
  const std::int64_t rest = ParameterCount(edge), per_token = edge.d_model;
  edge.vocab = static_cast<int>((kMaxTuneBytes / kTuneBytesPerParameter - rest) / per_token);
  CHECK(TuneMemoryOf(edge).fits());
  CHECK(TuneMemoryRefusal(TuneMemoryOf(edge)).empty());
  ++edge.vocab;
  CHECK_FALSE(TuneMemoryOf(edge).fits());

  // Under the limit: a small model starts and trains.
  Small s = MakeSmall();
  CHECK(TuneMemoryOf(s.config).fits());
  std::vector<int> ids;
  REQUIRE(TuneStream(s.bpe(), kText, "text", &ids, nullptr));
  REQUIRE_MESSAGE(session.Start(s.config, ids, TuneConfig{}, &error), error);
  Params<float> p = s.params;
  CHECK(Run(session, p, 1).size() == 1);
}

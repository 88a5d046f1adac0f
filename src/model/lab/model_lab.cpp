// The trained model in the lab (model_lab.h).
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "model/lab/model_lab.h"

#include "model/inspect/head_probe.h"
#include "model/lab/model_whatif.h"

#include "engine/lab/validate.h"
#include "engine/linalg/linalg.h"
#include "engine/text/tokenizer.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <numeric>

namespace attn {
namespace model {

namespace {

bool Fail(LabResult* lab, LabError e) {
  lab->error = std::move(e);
  return false;
}

// heads.json: {"heads": [{"layer", "head", "previous", "first", "self", "entropy", "induction"}...]}
bool HeadsFromJson(const std::string& text, const ModelConfig& c, std::vector<HeadScores>* out,
                   std::string* error) {
  const auto j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object() || !j.contains("heads") || !j["heads"].is_array())
    return linalg::Fail(error, "heads.json: expected an object with a \"heads\" array");
  std::vector<HeadScores> heads;
  for (const auto& h : j["heads"]) {
    HeadScores s;
    if (!h.is_object()) return linalg::Fail(error, "heads.json: expected an object per head");
    for (const char* key : {"layer", "head", "previous", "first", "self", "entropy", "induction"})
      if (!h.contains(key) || !h[key].is_number())
        return linalg::Fail(error, std::string("heads.json: a head has no number \"") + key + "\"");
    s.layer = h["layer"].get<int>();
    s.head = h["head"].get<int>();
    s.previous = h["previous"].get<double>();
    s.first = h["first"].get<double>();
    s.self = h["self"].get<double>();
    s.entropy = h["entropy"].get<double>();
    s.induction = h["induction"].get<double>();
    heads.push_back(s);
  }
  if (static_cast<int>(heads.size()) != c.layers * c.heads)
    return linalg::Fail(error, "heads.json: expected " + std::to_string(c.layers * c.heads) + " heads, got " +
                                   std::to_string(heads.size()));
  for (std::size_t k = 0; k < heads.size(); ++k)
    if (heads[k].layer != static_cast<int>(k) / c.heads || heads[k].head != static_cast<int>(k) % c.heads)
      return linalg::Fail(error, "heads.json: expected the heads layer by layer, head by head");
  *out = std::move(heads);
  return true;
}

}  // namespace

bool ModelCodeInBuild() { return true; }

std::vector<NextToken> TopNextTokens(const LabModel& m, const MatF& probs, Eigen::Index row) {
  // likeliest first, a stable sort over ids (ties: the smaller id), as attnlab model run
  const int vocab = static_cast<int>(probs.cols());
  std::vector<int> order(static_cast<std::size_t>(vocab));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return probs(row, a) > probs(row, b); });
  std::vector<NextToken> out;
  for (int k = 0; k < 5 && k < vocab; ++k) {
    NextToken next;
    next.id = order[static_cast<std::size_t>(k)];
    next.text = m.tokenizer().Label(next.id);
    next.p = probs(row, next.id);
    out.push_back(next);
  }
  return out;
}

std::string TextProbeJson(const TextProbe& t, const ModelConfig& c, int layer, int head) {
  const HeadProbeResult& r = t.result;
  using J = nlohmann::json;
  J out = J::object();
  out["layer"] = layer;
  out["head"] = head;
  out["tokens"] = t.tokens;
  out["split"] = t.split;
  out["window"] = t.window;
  out["stride"] = t.stride;
  out["trainWindows"] = t.train_windows;
  out["testWindows"] = t.test_windows;
  out["steps"] = kTextProbeSteps;
  out["withinKeys"] = HeadDim(c) + 1;
  out["accuracy"] = r.accuracy;
  out["trainAccuracy"] = r.train_accuracy;
  out["trainQueries"] = r.train_samples;
  out["testQueries"] = r.test_samples;
  out["within"] = {{"queries", r.test_within}, {"accuracy", r.accuracy_within}, {"chance", r.chance_within}, {"position", r.position_within}};
  out["beyond"] = {{"queries", r.test_beyond}, {"accuracy", r.accuracy_beyond}, {"chance", r.chance_beyond}, {"position", r.position_beyond}};
  return out.dump();
}

bool LoadLabModel(const std::vector<std::pair<std::string, std::string>>& files,
                  const std::map<std::string, std::string>& digests, LabModel* out, std::string* error) {
  Bundle b;
  return LoadBundleFilesWithDigests(files, digests, &b, error) && LabModelFromBundle(std::move(b), out, error);
}

bool LabModelFromBundle(Bundle b, LabModel* out, std::string* error) {
  LabModel m;
  m.shipped = std::move(b);
  if (!m.shipped.heads_json.empty() && !HeadsFromJson(m.shipped.heads_json, m.shipped.config, &m.heads, error))
    return false;
  m.params = m.shipped.params;  // stored weights: the small numbers copied, the big ones shared
  *out = std::move(m);
  return true;
}

LabError EncodeModelText(const LabModel& m, const std::string& text, const char* field, std::vector<int>* ids) {
  ids->clear();
  const ModelConfig& c = m.config();
  // the text (the engine's rules for a sentence), then its BPE tokens against the context
  LabConfig text_only;
  text_only.sentence = text;
  text_only.projection = Projection::kModel;
  LabError e = ValidateConfig(text_only);
  if (!e.ok()) {
    if (e.field == "sentence" && e.message.compare(0, 8, "sentence") == 0) e.message = field + e.message.substr(8);
    e.field = field;
    return e;
  }
  std::string why;
  const Tokenizer& tokenizer = m.tokenizer();
  if (!tokenizer.Encode(text, ids, &why))
    return Refuse(ConfigError::kSentenceInvalidUtf8, field, std::string(field) + ": expected valid UTF-8, got " + why, 0);
  // the lab's model reads a text after <|endoftext|>, as in training; GPT-2 the text alone
  const int begin = tokenizer.Begin();
  const int fit = begin >= 0 ? c.context - 1 : c.context;
  if (static_cast<int>(ids->size()) > fit)
    return Refuse(ConfigError::kModelTooManyTokens, field,
                  std::string(field) + ": expected at most " + std::to_string(fit) + " model tokens, got " +
                      std::to_string(ids->size()),
                  static_cast<double>(ids->size()));
  if (begin >= 0) ids->insert(ids->begin(), begin);
  return LabError{};
}

bool ComputeModelLab(const LabModel& m, const LabConfig& cfg, LabResult* lab, ModelLabResult* extra) {
  *lab = LabResult{};
  *extra = ModelLabResult{};
  const ModelConfig& c = m.config();
  // 1. the settings (the engine's rules), then the sentence's ids (with the tokenizer's begin token)
  LabConfig checked = cfg;
  checked.projection = Projection::kModel;
  if (const LabError e = ValidateConfig(checked); !e.ok()) return Fail(lab, e);
  std::vector<int> ids;
  if (LabError e = EncodeModelText(m, cfg.sentence, "sentence", &ids); !e.ok()) return Fail(lab, e);
  std::string why;
  const Tokenizer& tokenizer = m.tokenizer();
  const int begin = tokenizer.Begin();
  const int n = static_cast<int>(ids.size());
  // 2. the indices against the model and the tokens
  const LabError chosen = CheckLayerHead(c.layers, c.heads, cfg.layer, cfg.head);
  if (!chosen.ok()) return Fail(lab, chosen);
  if (LabError e = CheckQueryTarget(cfg.query, cfg.target, n); !e.ok()) return Fail(lab, e);

  // the knock-outs' indices (the edits' other checks are the engine's); the result is the plain
  // run, which the what-if room compares with the edited one (model_whatif.h)
  if (const LabError e = CheckModelEdits(cfg, c, n); !e.ok()) return Fail(lab, e);

  // 3. the model's forward pass, as `attnlab model run`
  Sequence seq;
  seq.tokens = ids;
  seq.targets.assign(ids.size(), -1);
  seq.threads = m.threads;
  if (!Forward(extra->acts, m.params, c, seq, &why, /*last_only=*/true))
    return Fail(lab, Refuse(ConfigError::kNumericOverflow, "scores", "scores: " + why, 0));

  // 4. the tokens: texts, byte ranges in the sentence, the words they belong to
  const TokenizeResult words = Tokenize(cfg.sentence);  // the engine's words (chips' groups)
  extra->ids = ids;
  extra->first = begin >= 0 ? 1 : 0;
  extra->eot = tokenizer.EndOfText();
  std::size_t at = 0;
  int previous_word = -1;
  for (int t = 0; t < n; ++t) {
    const int id = ids[static_cast<std::size_t>(t)];
    const bool added = begin >= 0 && t == 0;  // the begin token: in no byte of the sentence
    const std::string piece = tokenizer.Label(id);
    const std::string bytes = added ? std::string() : tokenizer.Bytes(id);
    const std::size_t length = bytes.size();
    Token tok;
    tok.text = piece;
    tok.byte_begin = at;
    tok.byte_end = at + length;
    tok.is_word = false;
    int word = -1;
    if (!added) {
      const std::size_t first = bytes.find_first_not_of(' ');  // the piece's first non-space byte
      if (first != std::string::npos) {
        const std::size_t byte = at + first;
        for (std::size_t w = 0; w < words.tokens.size(); ++w)
          if (byte >= words.tokens[w].byte_begin && byte < words.tokens[w].byte_end) {
            word = static_cast<int>(w);
            tok.is_word = words.tokens[w].is_word;
          }
      }
    }
    at += length;
    extra->texts.push_back(piece);
    extra->word.push_back(word);
    extra->word_start.push_back(word >= 0 && word != previous_word ? 1 : 0);
    if (word >= 0) previous_word = word;
    lab->tokens.push_back(std::move(tok));
  }

  // 5. the next tokens after the sentence
  extra->next = TopNextTokens(m, extra->acts.probs, extra->acts.probs.rows() - 1);

  // 6. the chosen head through the lab's usual second half, with the model's fixed settings
  LabConfig shown = cfg;
  const MultiHeadConfig attn_cfg = BlockAttentionConfig();
  shown.heads = c.heads;
  shown.d_model = c.d_model;
  shown.d_k = shown.d_v = HeadDim(c);
  shown.normalizer = attn_cfg.head.normalizer;
  shown.causal = attn_cfg.causal;
  shown.scaled = attn_cfg.head.scaled;
  shown.temperature = 1.0;
  shown.positional = true;  // learned positions (wpe)
  // read from the run's cache by hook point: what the chosen layer's heads read (its LN1) and
  // the heads themselves
  lab->mha = extra->acts.blocks[static_cast<std::size_t>(cfg.layer)].attn;
  BlockParams<float> widened;  // stored weights: the chosen layer widened
  lab->projections = BlockOf(m.params, cfg.layer, &widened).attn;
  FinishLab(shown, *Activation(extra->acts, HookPoint::kLn1, cfg.layer), lab);
  extra->config = shown;
  return true;
}

}  // namespace model
}  // namespace attn

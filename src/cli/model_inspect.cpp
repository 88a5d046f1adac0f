// attnlab model eval|run|heads: the shipped folder loaded (every file checked) and looked at.
#include "api/fields_json.h"
#include "api/model_json.h"
#include "cli/common.h"
#include "cli/model_commands.h"
#include "model/arch/sampling.h"
#include "engine/base/rng.h"
#include "model/format/model_folder.h"
#include "model/corpus/corpus.h"
#include "model/corpus/evaluate.h"
#include "model/inspect/head_probe.h"
#include "cli/raw_input.h"
#include "model/inspect/heads.h"
#include "model/corpus/validation.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <numeric>

namespace attn::cli {

namespace {

using model::Lang;

bool Load(const std::string& command, const std::string& dir, model::Bundle* b, int* code) {
  std::string error;
  if (model::OpenModelFolder(dir, b, &error)) return true;
  *code = RefuseCommand(command, error);
  return false;
}

using model::Validation;

// The folder loaded and its validation streams: eval's and heads' common start.
bool LoadWithValidation(const std::string& command, const std::string& dir, model::Bundle* b, Validation* v,
                        int* code) {
  if (!Load(command, dir, b, code)) return false;
  std::string error;
  if (model::LoadValidation(*b, dir, v, &error)) return true;
  *code = RefuseCommand(command, error);
  return false;
}

}  // namespace

int RunModelEval(const ModelOptions& o) {
  const std::string cmd = "model eval";
  model::Bundle b;
  Validation v;
  int code = 0;
  if (!LoadWithValidation(cmd, o.dir, &b, &v, &code)) return code;
  std::string error;
  // the lab's own folder recorded its scores (eval.json); another model's are only measured
  const bool own = b.format == "attnlab";
  const auto recorded = own ? Json::parse(b.eval_json, nullptr, false) : Json();
  Json out = {{"recorded", recorded}};
  bool same = true;
  std::vector<std::pair<const char*, const model::TokenStream*>> rows = {{"en", &v.en}, {"ru", &v.ru}};
  if (v.with_docs) rows.insert(rows.end(), {{"fortunesEn", &v.fortunes_en}, {"fortunesRu", &v.fortunes_ru}});
  for (const auto& [name, s] : rows) {
    model::Score full;
    if (!model::ScoreModel(b.params, b.config, *s, o.threads, &full, &error, o.targets))
      return InternalError(cmd, error);
    out[name] = {{"bitsPerChar", full.BitsPerChar()}, {"nats", full.nats}, {"targets", full.targets}, {"chars", full.chars}};
    if (!own || o.targets > 0) continue;
    const bool equal = recorded.contains(name) && recorded[name]["model"].value("nats", -1.0) == full.nats;
    out[name]["sameAsRecorded"] = equal;
    same = same && equal;
  }
  std::cout << out.dump(2) << "\n";
  return Finish(cmd, same ? 0 : kExitInternal);
}

int RunModelRun(const ModelOptions& o) {
  const std::string cmd = "model run";
  model::Bundle b;
  int code = 0;
  if (!Load(cmd, o.dir, &b, &code)) return code;
  std::string error;
  if (o.format != "json" && o.format != "text") return RefuseCommand(cmd, "--format: expected json or text, got " + o.format);
  const model::Tokenizer& tok = *b.tokenizer;
  std::vector<int> ids;
  if (!tok.Encode(o.text, &ids, &error)) return RefuseCommand(cmd, "--text: " + error);
  // the lab's model reads a text after <|endoftext|>, as in training; GPT-2 the text alone
  const int room = tok.Begin() >= 0 ? b.config.context - 1 : b.config.context;
  if (static_cast<int>(ids.size()) > room)
    return RefuseCommand(cmd, "--text: " + std::to_string(ids.size()) + " tokens, at most " + std::to_string(room) +
                                  " fit in the context");
  if (tok.Begin() >= 0) ids.insert(ids.begin(), tok.Begin());
  model::Sequence seq;
  seq.tokens = ids;
  seq.targets.assign(ids.size(), -1);
  seq.threads = o.threads;  // the large products by columns: the same bits on any number
  model::SequenceActs<float> acts;
  if (!model::Forward(acts, b.params, b.config, seq, &error, /*last_only=*/true)) return InternalError(cmd, error);
  Json tokens = Json::array();
  for (int id : ids) tokens.push_back({{"id", id}, {"text", tok.Label(id)}});
  const Json layers = attn::api::AttentionWeightsJson(acts.blocks);  // [layer][head][t][0..t]
  const Eigen::Index last = acts.probs.rows() - 1;
  std::vector<int> order(static_cast<std::size_t>(b.config.vocab));
  std::iota(order.begin(), order.end(), 0);
  auto prob = [&](int id) { return static_cast<double>(acts.probs(last, id)); };
  std::stable_sort(order.begin(), order.end(), [&](int a, int c) { return prob(a) > prob(c); });
  Json next = Json::array();
  for (int k = 0; k < 5; ++k) {
    const int id = order[static_cast<std::size_t>(k)];
    next.push_back({{"id", id}, {"text", tok.Label(id)}, {"p", prob(id)}});
  }
  Json out = {{"text", o.text}, {"tokens", tokens}, {"weights", layers}, {"next", next}};
  // Generation: o.generate tokens sampled with the key/value cache (model/arch/sampling.h): top-k
  // 1 (the default) is greedy; the text ends at <|endoftext|> or when the context is full.
  if (o.generate > 0) {
    model::SamplingConfig sampling;
    sampling.temperature = o.temperature;
    sampling.top_k = o.top_k;
    sampling.top_p = o.top_p;
    sampling.seed = static_cast<std::uint64_t>(o.seed);
    model::Generation g;
    if (!model::Generate(b.params, b.config, ids, o.generate, tok.EndOfText(), sampling, /*cached=*/true, &g, &error, o.threads))
      return RefuseCommand(cmd, "--" + error);
    out["generated"] = tok.Decode(g.tokens);
    Json gen = Json::array();
    for (int id : g.tokens) gen.push_back({{"id", id}, {"text", tok.Label(id)}});
    out["generatedTokens"] = gen;
  }
  if (o.format == "text") {
    // For a terminal: the tokens, each head's rows (query = row, 2 decimals), the next tokens.
    auto label = [&](int id) { return id == tok.EndOfText() ? std::string("<eot>") : Json(tok.Label(id)).dump(); };
    std::string text = "tokens:";
    for (int id : ids) text += " " + label(id);
    text += "\n";
    for (std::size_t l = 0; l < acts.blocks.size(); ++l) {
      for (std::size_t h = 0; h < acts.blocks[l].attn.heads.size(); ++h) {
        text += "layer " + std::to_string(l) + " head " + std::to_string(h) + "\n";
        const Mat<float>& A = acts.blocks[l].attn.heads[h].weights;
        for (Eigen::Index t = 0; t < A.rows(); ++t) {
          char cell[16];
          std::string row = "  " + label(ids[static_cast<std::size_t>(t)]);
          row.resize(std::max<std::size_t>(row.size(), 12), ' ');
          for (Eigen::Index u = 0; u <= t; ++u) {
            std::snprintf(cell, sizeof cell, " %.2f", static_cast<double>(A(t, u)));
            row += cell;
          }
          text += row + "\n";
        }
      }
    }
    text += "next:";
    for (const auto& n : next) {
      char p[32];
      std::snprintf(p, sizeof p, " (%.3f)", n["p"].get<double>());
      text += " " + label(n["id"].get<int>()) + p;
    }
    text += "\n";
    if (out.contains("generated")) text += "generated: " + Json(out["generated"]).dump() + "\n";
    std::cout << text;
    return Finish(cmd, 0);
  }
  std::cout << out.dump(-1, ' ', false, Json::error_handler_t::replace) << "\n";
  return Finish(cmd, 0);
}

int RunModelHeads(const ModelOptions& o) {
  const std::string cmd = "model heads";
  model::Bundle b;
  Validation v;
  int code = 0;
  if (!LoadWithValidation(cmd, o.dir, &b, &v, &code)) return code;
  std::string error;
  model::HeadReport rep;
  if (!model::AnalyzeHeads(b.params, b.config, {&v.en, &v.ru}, o.windows, o.repeats,
                           // the random sequences: the lab's model's characters and merges (no
                           // bytes or ASCII), any of GPT-2's tokens
                           b.tokenizer->Own() ? model::Bpe::kFirstChar : 0, 1, o.threads, &rep, &error))
    return InternalError(cmd, error);
  if (o.heads_format == "json") {  // heads.json: model/lab/model_lab.h reads it
    Json heads = Json::array();
    for (const model::HeadScores& s : rep.heads)
      heads.push_back({{"layer", s.layer}, {"head", s.head}, {"previous", s.previous}, {"first", s.first},
                       {"self", s.self}, {"induction", s.induction}, {"entropy", s.entropy}});
    const Json out = {{"format", "attnlab-model-heads-1"},
                      {"command", "attnlab model heads DIR --format json"},
                      {"windows", rep.windows},
                      {"repeats", rep.repeats},
                      {"repeatLength", rep.repeat_length},
                      {"lossFirstCopy", rep.loss_first_copy},
                      {"lossSecondCopy", rep.loss_second_copy},
                      {"heads", heads}};
    std::cout << out.dump(2) << "\n";
    return Finish(cmd, 0);
  }
  std::printf("%d validation windows of %d tokens (en + ru); induction: %d random sequences of %d tokens, repeated\n",
              rep.windows, std::min(b.config.context, model::kHeadsMaxWindow), rep.repeats, rep.repeat_length);
  std::printf("loss on the repeated sequences: first copy %.3f nats/token, second copy %.3f\n\n",
              rep.loss_first_copy, rep.loss_second_copy);
  std::printf("layer head  previous  first   self  induction  entropy (nats)\n");
  for (const model::HeadScores& s : rep.heads)
    std::printf("%5d %4d  %8.3f %6.3f %6.3f %10.3f %8.3f\n", s.layer, s.head, s.previous, s.first, s.self,
                s.induction, s.entropy);
  return Finish(cmd, 0);
}

// The page's "Probe this head" (app ModelProbeJson) from the same code, with the same JSON
// (model::TextProbeJson): the browser test compares the two, every double.
int RunModelProbe(const ModelOptions& o) {
  const std::string cmd = "model probe";
  std::string error;
  if (o.text.empty() == o.text_file.empty()) return RefuseCommand(cmd, "expected one of --text and --text-file");
  std::string text = o.text;
  if (!o.text_file.empty() && !ReadInput(o.text_file, &text, &error)) return RefuseCommand(cmd, "--text-file: " + error);
  model::Bundle b;
  if (!model::OpenModelFolder(o.dir, &b, &error)) return RefuseCommand(cmd, error);
  model::TextProbe probe;
  if (!model::ProbeHeadOnText(*b.tokenizer, b.params, b.config, text, o.text_file.empty() ? "--text" : "--text-file", o.layer,
                              o.head, &probe, &error))
    return RefuseCommand(cmd, error);
  const Json out = Json::parse(model::TextProbeJson(probe, b.config, o.layer, o.head));
  std::cout << out.dump(2) << "\n";
  return Finish(cmd, 0);
}

}  // namespace attn::cli

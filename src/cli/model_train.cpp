// attnlab model train CONFIG.json --out DIR [--resume]: the corpus, the tokenizer, the training
// with checkpoints, and the shipped folder (model/format/bundle.h) with its recorded validation scores.
#include "api/fields_json.h"
#include "cli/common.h"
#include "cli/model_commands.h"
#include "model/tokenizer/tokenizer.h"
#include "model/format/bundle.h"
#include "model/training/checkpoint.h"
#include "model/corpus/corpus.h"
#include "model/corpus/evaluate.h"
#include "model/format/model_file.h"
#include "model/format/safetensors.h"
#include "model/training/train.h"

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace attn::cli {

namespace {

using model::Lang;
const char* const kCmd = "model train";

bool ReadFile(const std::string& path, std::string* out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  std::stringstream ss;
  ss << f.rdbuf();
  *out = ss.str();
  return true;
}
bool WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(f);
}

std::uint64_t Fnv1a(const std::string& s) {
  std::uint64_t h = 1469598103934665603ull;
  for (const unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

std::string Number(double x) {
  std::string s;
  AppendJsonNumber(&s, x);
  return s;
}

// The score of one language as JSON: {"bitsPerChar", "nats", "targets", "chars"}.
Json ScoreJson(const model::Score& s) {
  return Json{{"bitsPerChar", s.BitsPerChar()}, {"nats", s.nats}, {"targets", s.targets}, {"chars", s.chars}};
}

std::string Clock(double seconds) {
  const long s = std::lround(std::max(0.0, seconds));
  char buf[32];
  std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  return buf;
}

}  // namespace

bool ParseModelConfig(const Json& j, model::RunConfig* out, std::string* error) {
  if (!j.is_object()) {
    *error = "expected a JSON object such as {\"steps\": 6000}, got " + api::DescribeJson(j);
    return false;
  }
  model::RunConfig rc;
  for (const auto& [key, v] : j.items()) {
    const Field<model::RunConfig>* f = FindField(model::RunFields(), key);
    if (!f) {
      *error = detail::Quoted(key) + ": unknown field (expected one of " + api::FieldNames(model::RunFields()) + ")";
      return false;
    }
    if (api::ApplyJsonField(*f, rc, v, detail::Quoted(key), error) != api::FieldStatus::kOk) return false;
  }
  if (rc.d_model % rc.heads != 0) {
    *error = "\"heads\": must divide dModel (" + std::to_string(rc.d_model) + ")";
    return false;
  }
  *out = rc;
  return true;
}

int RunModelTrain(const ModelOptions& o) {
  // --- the configuration, every field by its row ----------------------------------------
  Json j;
  std::string error;
  if (!ReadJson(o.config, &j, &error)) return RefuseCommand(kCmd, error);
  model::RunConfig rc;
  if (!ParseModelConfig(j, &rc, &error)) return RefuseCommand(kCmd, error);
  Json run_json = Json::object();
  api::FieldsToJson(model::RunFields(), rc, run_json);
  const std::string dir = o.dir;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return RefuseCommand(kCmd, "--out: cannot create " + dir + ": " + ec.message());

  // --- the text --------------------------------------------------------------------------
  const auto t0 = std::chrono::steady_clock::now();
  auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  std::vector<model::SourceFile> files;
  if (!model::ReadFortuneFolder(rc.en_folder, Lang::kEn, &files, &error) ||
      !model::ReadFortuneFolder(rc.ru_folder, Lang::kRu, &files, &error))
    return RefuseCommand(kCmd, error + " (scripts/setup.sh installs Debian's fortunes and fortunes-ru)");
  for (const auto& [folder, lang] : {std::pair{rc.en_docs, Lang::kEn}, std::pair{rc.ru_docs, Lang::kRu}}) {
    if (!folder.empty() && !model::ReadDocumentFolder(folder, lang, &files, &error))
      return RefuseCommand(kCmd, error + " (scripts/corpus.sh makes the documents from Debian's manuals)");
  }
  const model::Corpus corpus = model::BuildCorpus(std::move(files));
  std::cerr << model::DescribeCorpus(corpus) << "\n";
  const std::vector<model::CorpusEntry> train_entries = model::WeightedTrain(corpus, rc.fortune_copies);

  // --- the tokenizer (kept when resuming) ------------------------------------------------
  model::Bpe bpe;
  const std::string tok_path = dir + "/tokenizer.json";
  std::string tok_json;
  if (o.resume && ReadFile(tok_path, &tok_json)) {
    if (!model::BpeFromJson(tok_json, &bpe, &error)) return RefuseCommand(kCmd, tok_path + ": " + error);
  } else {
    std::vector<std::string> texts;
    for (const model::CorpusEntry& e : train_entries) texts.push_back(e.text);
    std::cerr << "training the tokenizer (" << rc.vocab << " tokens at most)...\n";
    if (!bpe.Train(texts, rc.vocab, 2, &error)) return RefuseCommand(kCmd, "tokenizer: " + error);
    tok_json = model::BpeToJson(bpe);
    if (!WriteFile(tok_path, tok_json)) return InternalError(kCmd, "cannot write " + tok_path);
    std::cerr << "tokenizer: " << bpe.size() << " tokens, " << Clock(seconds()) << "\n";
  }
  model::TokenStream train, val_en, val_ru, fortunes_en, fortunes_ru;
  const std::shared_ptr<const model::Tokenizer> tokenizer = model::MakeOwnTokenizer(bpe);
  const model::Tokenizer& tok = *tokenizer;
  if (!model::EncodeEntries(tok, train_entries, Lang::kEn, true, &train, &error) ||
      !model::EncodeEntries(tok, corpus.validation, Lang::kEn, false, &val_en, &error) ||
      !model::EncodeEntries(tok, corpus.validation, Lang::kRu, false, &val_ru, &error) ||
      !model::EncodeEntries(tok, corpus.validation, Lang::kEn, false, &fortunes_en, &error, model::Source::kFortunes) ||
      !model::EncodeEntries(tok, corpus.validation, Lang::kRu, false, &fortunes_ru, &error, model::Source::kFortunes))
    return InternalError(kCmd, error);
  const bool with_docs = !rc.en_docs.empty() || !rc.ru_docs.empty();
  std::cerr << "tokens: train " << train.ids.size() << " (" << train.chars << " chars), validation en "
            << val_en.ids.size() << ", ru " << val_ru.ids.size() << "\n";
  model::NgramBaseline ngram;
  ngram.Fit(train.ids, bpe.size());

  // --- training -----------------------------------------------------------------------------
  const model::TrainConfig tc = model::ToTrainConfig(rc, bpe.size());
  model::Trainer<float> trainer;
  if (!trainer.Reset(tc, train.ids, &error)) return RefuseCommand(kCmd, error);
  const std::uint64_t hash = Fnv1a(run_json.dump() + tok_json);
  const std::string ckpt = dir + "/checkpoint.bin";
  if (o.resume && std::filesystem::exists(ckpt)) {
    if (!model::ReadCheckpoint(ckpt, hash, &trainer, tc.adamw, &error)) return RefuseCommand(kCmd, "--resume: " + error);
    std::cerr << "resumed at step " << trainer.step() << "\n";
  }
  const bool tty = isatty(2);
  const double tokens_per_step = static_cast<double>(tc.batch) * tc.length;
  const int first = trainer.step();
  const double t_train = seconds();
  auto quick_eval = [&](int step) {
    Json line = {{"step", step}, {"validation", Json::object()}};
    for (const auto& [name, s] : {std::pair<const char*, const model::TokenStream*>{"en", &val_en}, {"ru", &val_ru}}) {
      model::Score sc;
      if (!model::ScoreModel(trainer.params(), tc.model, *s, rc.threads, &sc, &error, rc.eval_targets)) return false;
      line["validation"][name] = ScoreJson(sc);
    }
    std::cout << line.dump() << "\n" << std::flush;
    return true;
  };
  for (int step = first; step < rc.steps; ++step) {
    model::StepMetrics m;
    if (!trainer.Step(&m, &error)) {
      std::cout << Json{{"step", step}, {"diverged", error}}.dump() << "\n";
      return Finish(kCmd, kExitDiverged);
    }
    const double elapsed = seconds() - t_train;
    const double done = step + 1 - first;
    const double tps = done * tokens_per_step / std::max(elapsed, 1e-9);
    const double eta = (rc.steps - step - 1) * tokens_per_step / std::max(tps, 1e-9);
    if ((step + 1) % rc.log_every == 0 || step + 1 == rc.steps) {
      std::cout << "{\"step\": " << step << ", \"loss\": " << Number(m.loss) << ", \"lr\": " << Number(m.lr)
                << ", \"gradNorm\": " << Number(m.grad_norm) << ", \"tokensPerSecond\": " << std::lround(tps)
                << ", \"seconds\": " << std::lround(seconds()) << "}\n" << std::flush;
    }
    if (tty || (step + 1) % (rc.log_every * 10) == 0) {
      const int width = 30;
      const int filled = static_cast<int>(width * (step + 1.0) / rc.steps);
      std::fprintf(stderr, "%s[%s%s] %d/%d  loss %.3f  %.0f tok/s  ETA %s%s", tty ? "\r" : "",
                   std::string(static_cast<std::size_t>(filled), '#').c_str(),
                   std::string(static_cast<std::size_t>(width - filled), '.').c_str(), step + 1, rc.steps,
                   m.loss, tps, Clock(eta).c_str(), tty ? "" : "\n");
    }
    if (rc.checkpoint_every > 0 && (step + 1) % rc.checkpoint_every == 0 && step + 1 < rc.steps) {
      if (!model::WriteCheckpoint(ckpt, hash, trainer, &error)) return InternalError(kCmd, error);
    }
    if (rc.eval_every > 0 && (step + 1) % rc.eval_every == 0 && step + 1 < rc.steps) {
      if (!quick_eval(step)) return InternalError(kCmd, error);
    }
  }
  if (tty) std::fprintf(stderr, "\n");
  const double train_seconds = seconds() - t_train;

  // --- the folder: F16 weights, config, the recorded scores of the F16 model, the manifest ----
  model::Params<float> p = trainer.params();
  const model::StFile st = model::ParamsToFile(p, tc.model, model::Dtype::kF16);
  std::string st_bytes;
  if (!model::WriteSafetensors(st, &st_bytes, &error)) return InternalError(kCmd, error);
  model::StFile back;
  model::Params<float> shipped;
  if (!model::ReadSafetensors(st_bytes, &back, &error) || !model::ParamsFromFile(back, tc.model, &shipped, &error))
    return InternalError(kCmd, error);
  // Per language: the whole validation text, and (when documents were added) its fortunes alone,
  // the text the earlier models were scored on.
  Json eval = {{"format", "attnlab-model-eval-1"}, {"checkTargets", kModelCheckTargets}};
  const std::pair<const char*, const model::TokenStream*> rows[] = {
      {"en", &val_en}, {"ru", &val_ru}, {"fortunesEn", &fortunes_en}, {"fortunesRu", &fortunes_ru}};
  for (const auto& [name, s] : rows) {
    if (!with_docs && name[0] == 'f') continue;
    model::Score full, check;
    if (!model::ScoreModel(shipped, tc.model, *s, rc.threads, &full, &error) ||
        !model::ScoreModel(shipped, tc.model, *s, rc.threads, &check, &error, kModelCheckTargets))
      return InternalError(kCmd, error);
    const model::Score uni = ngram.Unigram(*s), bi = ngram.Bigram(*s);
    eval[name] = {{"model", ScoreJson(full)}, {"unigram", ScoreJson(uni)}, {"bigram", ScoreJson(bi)},
                  {"vsBigram", 1.0 - full.BitsPerChar() / bi.BitsPerChar()},
                  {"checkNats", Number(check.nats)}, {"entries", s->entries}};
  }
  Json config = {{"format", "attnlab-model-1"},
                 {"model", {{"vocab", tc.model.vocab}, {"dModel", tc.model.d_model}, {"layers", tc.model.layers},
                            {"heads", tc.model.heads}, {"context", tc.model.context}, {"mlp", tc.model.mlp}}},
                 {"run", run_json},
                 {"corpus", model::DescribeCorpus(corpus)},
                 {"trainTokens", train.ids.size()},
                 {"command", "attnlab model train CONFIG.json --out DIR (scripts/train_model.sh)"}};
  const std::string config_text = config.dump(2) + "\n", eval_text = eval.dump(2) + "\n";
  const std::vector<std::pair<std::string, std::string>> out = {
      {"config.json", config_text}, {"tokenizer.json", tok_json}, {"model.safetensors", st_bytes}, {"eval.json", eval_text}};
  for (const auto& [name, bytes] : out) {
    if (!WriteFile(dir + "/" + name, bytes)) return InternalError(kCmd, "cannot write " + dir + "/" + name);
  }
  if (!WriteFile(dir + "/MANIFEST.sha256", model::ManifestText(out))) return InternalError(kCmd, "cannot write the manifest");
  std::filesystem::remove(ckpt, ec);
  // Times go to the metrics, not into the folder: its four files are the same bits on every rerun.
  std::cout << Json{{"done", true}, {"fromStep", first}, {"trainSeconds", std::lround(train_seconds)},
                    {"tokensPerSecond", std::lround((rc.steps - first) * tokens_per_step / std::max(train_seconds, 1e-9))},
                    {"eval", eval}}.dump() << "\n";
  std::cerr << "wrote " << dir << " in " << Clock(seconds()) << "; en " << eval["en"]["model"]["bitsPerChar"].get<double>()
            << " bits/char (bigram " << eval["en"]["bigram"]["bitsPerChar"].get<double>() << "), ru "
            << eval["ru"]["model"]["bitsPerChar"].get<double>() << " (bigram "
            << eval["ru"]["bigram"]["bitsPerChar"].get<double>() << ")\n";
  return Finish(kCmd, 0);
}

}  // namespace attn::cli

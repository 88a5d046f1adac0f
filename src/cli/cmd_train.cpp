// attnlab train TASK.json [--format jsonl|csv] [--every K]: trains the one-layer model of
// engine/training/train.h and prints the metrics of every K-th step, then the example's final attention.
// A run that diverges prints its records up to there and a "diverged" record: exit code 3.
#include "cli/common.h"
#include "cli/train_input.h"
#include "engine/training/train.h"

#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>

namespace attn::cli {

namespace {

// attnlab train: the final evaluation, on fresh examples from a fixed stream of the run's seed.
constexpr int kTrainEvalExamples = 512;
constexpr std::uint64_t kTrainEvalSeed = 1;

// A JSON string (UTF-8 kept, control characters escaped; invalid bytes replaced).
std::string JsonString(const std::string& s) {
  return Json(s).dump(-1, ' ', false, Json::error_handler_t::replace);
}

// A CSV field: quoted (RFC 4180) when it holds a comma, a quote or a line break.
std::string CsvField(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string q = "\"";
  for (const char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

const char* const kCsvHeader =
    "step,loss,accuracy,attentionOnSource,gradNormWQ,gradNormWK,gradNormWV,gradNormWO,gradNormTotal";

// One step's record: a JSON object on one line, or a CSV row in kCsvHeader's order.
std::string MetricsRecord(const StepMetrics& m, bool csv) {
  std::string out;
  const double gn[] = {m.grad_norm_q, m.grad_norm_k, m.grad_norm_v, m.grad_norm_o, m.grad_norm};
  if (csv) {
    out = std::to_string(m.step);
    for (const double x : {m.loss, m.accuracy, m.attention_on_source}) {
      out += ",";
      AppendShortest(&out, x);
    }
    for (const double x : gn) {
      out += ",";
      AppendShortest(&out, x);
    }
    return out + "\n";
  }
  out = "{\"step\": " + std::to_string(m.step) + ", \"loss\": ";
  AppendJsonNumber(&out, m.loss);
  out += ", \"accuracy\": ";
  AppendJsonNumber(&out, m.accuracy);
  out += ", \"attentionOnSource\": ";
  AppendJsonNumber(&out, m.attention_on_source);
  const char* names[] = {"WQ", "WK", "WV", "WO", "total"};
  out += ", \"gradNorm\": {";
  for (int i = 0; i < 5; ++i) {
    out += std::string(i ? ", \"" : "\"") + names[i] + "\": ";
    AppendJsonNumber(&out, gn[i]);
  }
  return out + "}}\n";
}

// After the last step: the evaluation and the example's attention weights per head, (N, N) each.
std::string FinalRecord(const Trainer& trainer, bool csv) {
  const BatchResult eval = Evaluate(trainer, kTrainEvalExamples, kTrainEvalSeed);
  const ExampleView view = ViewExample(trainer);
  std::string out;
  if (csv) {
    out = "\n# final evaluation (" + std::to_string(kTrainEvalExamples) + " fresh examples)\n";
    out += "evalAccuracy,evalLoss\n";
    AppendShortest(&out, eval.accuracy);
    out += ",";
    AppendShortest(&out, eval.loss);
    out += "\n";
    for (std::size_t h = 0; h < view.forward.attn.heads.size(); ++h) {
      const MatD& w = view.forward.attn.heads[h].weights;  // (N, N) rows = queries
      out += "# final weights head " + std::to_string(h) + "\nquery";
      for (const std::string& t : view.tokens) out += "," + CsvField(t);
      out += "\n";
      for (Eigen::Index i = 0; i < w.rows(); ++i) {
        out += CsvField(view.tokens[static_cast<std::size_t>(i)]);
        for (Eigen::Index j = 0; j < w.cols(); ++j) {
          out += ",";
          AppendShortest(&out, w(i, j) + 0.0);
        }
        out += "\n";
      }
    }
    return out;
  }
  out = "{\"final\": {\"step\": " + std::to_string(trainer.step()) + ", \"tokens\": [";
  for (std::size_t i = 0; i < view.tokens.size(); ++i) out += (i ? ", " : "") + JsonString(view.tokens[i]);
  out += "], \"heads\": [";
  for (std::size_t h = 0; h < view.forward.attn.heads.size(); ++h) {
    const MatD& w = view.forward.attn.heads[h].weights;  // (N, N) rows = queries
    out += h ? ", [" : "[";
    for (Eigen::Index i = 0; i < w.rows(); ++i) {
      out += i ? ", [" : "[";
      for (Eigen::Index j = 0; j < w.cols(); ++j) {
        if (j) out += ", ";
        AppendJsonNumber(&out, w(i, j) + 0.0);
      }
      out += "]";
    }
    out += "]";
  }
  out += "], \"evalAccuracy\": ";
  AppendJsonNumber(&out, eval.accuracy);
  out += ", \"evalLoss\": ";
  AppendJsonNumber(&out, eval.loss);
  return out + "}}\n";
}

int RunTrain(const std::string& path, const std::string& format, int every) {
  std::string error;
  Json j;
  if (!ReadJson(path, &j, &error)) return RefuseCommand("train", error);
  TrainInput in;
  if (!ParseTrainInput(j, &in, &error)) return RefuseCommand("train", error);
  Trainer trainer;
  TrainError refused;
  if (!trainer.Reset(in.config, &refused))  // checked above
    return RefuseCommand("train", FieldMessage(refused.field, refused.message));

  const bool csv = format == "csv";
  if (csv) std::cout << kCsvHeader << "\n";
  int printed = 0;  // the last step whose record is out
  for (int k = 1; k <= in.steps; ++k) {
    if (!trainer.Step()) {
      // The records up to the last good step (that one always), then why it stopped.
      const int last = trainer.step();
      if (last > printed && !trainer.history().empty())
        std::cout << MetricsRecord(trainer.history().back(), csv);
      const std::string message = OneLine(trainer.message());
      if (csv)
        std::cout << "\n# diverged at step " << last + 1 << ": " << message << "\n";
      else
        std::cout << "{\"diverged\": {\"step\": " << last + 1 << ", \"message\": " << JsonString(message)
                  << "}}\n";
      return Finish("train", kExitDiverged);
    }
    if (k % every == 0 || k == in.steps) {
      std::cout << MetricsRecord(trainer.history().back(), csv);
      std::cout.flush();  // a long run shows its progress
      printed = k;
    }
  }
  std::cout << FinalRecord(trainer, csv);
  return Finish("train", 0);
}

const char* const kTrainHelpOutput = R"(Output (stdout), --format jsonl (default): one JSON object per line
  {"step": k, "loss": .., "accuracy": .., "attentionOnSource": .., "gradNorm": {"WQ": .., "WK": ..,
   "WV": .., "WO": .., "total": ..}}    for every K-th step (--every K, default 1) and the last;
  the batch's loss and accuracy before the step's update, attention on the right key (best
  head), the Frobenius norms of the gradients (W_Q, W_K, W_V over all heads, W_O, every parameter)
  then {"final": {"step": .., "tokens": [..], "heads": [h of N×N, rows = queries],
  "evalAccuracy": .., "evalLoss": ..}} (the evaluation: 512 fresh examples).
--format csv: the header step,loss,accuracy,attentionOnSource,gradNormWQ,gradNormWK,gradNormWV,
  gradNormWO,gradNormTotal and one row per record, then a blank line, "# final evaluation ...",
  evalAccuracy,evalLoss and their row, and per head "# final weights head h", a row
  query,<tokens> and one row per query token.
Divergence (a non-finite number): the records up to the last good step (that one always), then
  {"diverged": {"step": k, "message": ".."}} (csv: a blank line and "# diverged at step k: ..."),
  exit code 3.
Example:
  echo '{"task": "verb_object", "steps": 200}' | attnlab train --every 50
Numbers are computed in double and printed so that they read back exactly; a seed repeats a run
bit for bit. Bad input: one line on stderr naming the field, exit code 2, nothing on stdout.)";


}  // namespace

Command RegisterTrain(CLI::App& app) {
  struct Options {
    std::string path, format = "jsonl";
    int every = 1;
  };
  auto o = std::make_shared<Options>();
  CLI::App* train = app.add_subcommand(
      "train", "Train the one-layer attention model on a task; print its metrics step by step and "
               "the example's final attention");
  train->add_option("TASK", o->path, "JSON training config (below); '-' or none reads stdin");
  train->add_option("--format", o->format, "jsonl (default) or csv")
      ->check(CLI::IsMember({"jsonl", "csv"}));
  // --every shares the steps row's range.
  train->add_option("--every", o->every, "print every K-th step (and always the last); default 1")
      ->check(RuleCheck(FindField(TrainInputFields(), "steps")->rule));
  // The input's fields come from the settings tables (the same rows the page's state uses).
  train->footer("Input: a JSON object (TASK names the file; '-' or none reads stdin); every field is optional\n" +
                FieldsHelp(TrainFields()) + FieldsHelp(TrainInputFields()) + kTrainHelpOutput);
  return {train, [o] { return RunTrain(o->path, o->format, o->every); }};
}

}  // namespace attn::cli

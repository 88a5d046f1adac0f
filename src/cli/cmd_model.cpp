// attnlab model train|eval|run|heads: the small bilingual transformer of issue 12 (MODEL.md).
//   attnlab model train CONFIG.json --out DIR [--resume]   trains it and writes the folder
//   attnlab model eval DIR                                   validation bits/char vs baselines
//   attnlab model run DIR --text "я люблю суши"              tokens, every head's weights, top-5
//   attnlab model heads DIR                                  what each head does, measured
//   attnlab model tune DIR --text-file web/tune/en.txt --steps 20   the page's "Train it more"
//   attnlab model probe DIR --layer 0 --head 0 --text-file web/tune/en.txt   the page's "Probe
//                                                            this head" (model/inspect/head_probe.h)
//   attnlab model export DIR --to hf OUT                     a GPT-2 checkpoint (model_export.cpp)
//   attnlab model encode DIR --text "..." | --validation     the BPE's ids (model_export.cpp)
// Training prints a JSON line of metrics every logEvery steps on stdout and a progress line
// (tokens/s, ETA) on stderr.
#include "cli/common.h"
#include "cli/model_commands.h"
#include "model/training/finetune.h"

#include <CLI/CLI.hpp>

#include <memory>

namespace attn::cli {

namespace {

// One head of the model on a text: the folder, --layer, --head and --text (probe, contributions).
void AddHeadOptions(CLI::App* command, ModelOptions* o) {
  command->add_option("dir", o->dir, "the model's folder")->required();
  command->add_option("--layer", o->layer, "the layer (0 = first)");
  command->add_option("--head", o->head, "the head (0 = first)");
  command->add_option("--text", o->text, "the text (UTF-8)");
}

}  // namespace

Command RegisterModel(CLI::App& app) {
  auto o = std::make_shared<ModelOptions>();
  CLI::App* model = app.add_subcommand(
      "model", "The small bilingual transformer trained by the engine, and any checkpoint the lab opens: train, eval, run, heads, tune, probe, contributions, offsets, lens, attribute, patch, info, export, encode");
  model->require_subcommand(1);

  CLI::App* train = model->add_subcommand("train", "Trains the model on Debian's fortunes and writes its folder");
  train->add_option("config", o->config, "the configuration (JSON; {} = the shipped one)")->required();
  train->add_option("--out", o->dir, "the folder to write (created when missing)")->required();
  train->add_flag("--resume", o->resume, "continue from the folder's checkpoint.bin");
  train->footer("Fields of the configuration (every one optional):\n" + FieldsHelp(model::RunFields()));

  CLI::App* eval = model->add_subcommand("eval", "Validation bits per character, English and Russian, vs baselines");
  eval->add_option("dir", o->dir, "the model's folder")->required();
  eval->add_option("--threads", o->threads, "threads")->check(CLI::Range(1, 64));
  eval->add_option("--targets", o->targets,
                   "score only the first N targets of each language (0: all; a large model's quick look; the "
                   "recorded scores are then not compared)")
      ->check(CLI::Range(0, 100000000));

  CLI::App* run = model->add_subcommand("run", "A text through the model: tokens, every head's weights, the next tokens");
  run->add_option("dir", o->dir, "the model's folder")->required();
  run->add_option("--text", o->text, "the text (UTF-8)")->required();
  run->add_option("--generate", o->generate, "then sample this many tokens (0: none)")->check(CLI::Range(0, 1000));
  run->add_option("--top-k", o->top_k, "sample among the k likeliest (1, the default: greedy; 0: every token)")->check(CLI::Range(0, 10000000));
  run->add_option("--temperature", o->temperature, "divide the logits by this before sampling (0: greedy; default 1)")
      ->check(CLI::Range(0.0, 100.0));
  run->add_option("--top-p", o->top_p, "sample among the likeliest tokens whose probabilities reach this sum (default 1: all)")
      ->check(CLI::Range(1e-9, 1.0));
  run->add_option("--seed", o->seed, "seed of the sampling")->check(CLI::Range(0.0, 4294967295.0));
  run->add_option("--format", o->format, "json (default) or text (for a terminal)")->check(CLI::IsMember({"json", "text"}));
  run->add_option("--threads", o->threads, "threads for the large products (default 2; the same numbers on any)")
      ->check(CLI::Range(1, 64));

  CLI::App* heads = model->add_subcommand("heads", "Per layer and head: previous-token, first-token, self, induction scores, entropy");
  heads->add_option("dir", o->dir, "the model's folder")->required();
  heads->add_option("--threads", o->threads, "threads")->check(CLI::Range(1, 64));
  heads->add_option("--windows", o->windows, "validation windows of the context's length per language (default 64)")
      ->check(CLI::Range(1, 4096));
  heads->add_option("--repeats", o->repeats, "repeated random sequences for the induction score (default 64)")
      ->check(CLI::Range(1, 4096));
  heads->add_option("--format", o->heads_format,
                    "text (default, for a terminal) or json (the folder's heads.json, which the lab's head gallery reads)")
      ->check(CLI::IsMember({"json", "text"}));

  CLI::App* tune = model->add_subcommand(
      "tune", "Trains the shipped weights more on one text, as the page's \"Train it more\": every step's loss and the weights' checksum");
  tune->add_option("dir", o->dir, "the model's folder")->required();
  tune->add_option("--text", o->text, "the text (UTF-8)");
  tune->add_option("--text-file", o->text_file, "the text from a file (web/tune/en.txt, web/tune/ru.txt: the page's built-in texts)");
  tune->add_option("--steps", o->steps, "optimizer steps")->check(CLI::Range(1, model::kMaxTuneSteps));
  tune->add_option("--config", o->tune, "the run's settings as JSON, e.g. {\"lr\": 0.002}");
  tune->footer("Fields of --config (every one optional; the page's tune.* rows):\n" + FieldsHelp(model::TuneFields()));

  CLI::App* probe = model->add_subcommand(
      "probe", "Can a readout that sees only a head's output name the key it weighs most? On a text, as the page's \"Probe this head\"");
  AddHeadOptions(probe, o.get());
  probe->add_option("--text-file", o->text_file, "the text from a file (web/tune/en.txt, web/tune/ru.txt: the page's built-in texts)");

  CLI::App* contributions = model->add_subcommand(
      "contributions", "Weight against contribution in a head: ||a_i v_i||, ||a_i v_i W_O||, ||A - A_-i|| and the next token's log-probability without key i");
  AddHeadOptions(contributions, o.get());
  contributions->add_option("--query", o->query, "the query token (0 = <|endoftext|>); -1 = the last token");

  CLI::App* offsets = model->add_subcommand(
      "offsets", "The RoPE scene: a head's layer-0 score of the query's word on the word it leans on, the two moved together to ten places (rotary positions: one number; learned positions: many)");
  AddHeadOptions(offsets, o.get());
  offsets->add_option("--query", o->query, "the query token; -1 = the last token");

  CLI::App* info = model->add_subcommand(
      "info", "What a model folder holds (the lab's own, or a GPT-2 checkpoint in the Hugging Face layout) and the memory a run needs");
  info->add_option("dir", o->dir, "the model's folder")->required();

  const Command exporter = AddModelExport(model), encode = AddModelEncode(model);
  const std::vector<Command> output = AddModelOutput(model);  // lens, attribute, patch

  return {model, [o, train, eval, run, heads, tune, probe, contributions, offsets, info, exporter, encode, output] {
            if (*train) return RunModelTrain(*o);
            if (*eval) return RunModelEval(*o);
            if (*run) return RunModelRun(*o);
            if (*heads) return RunModelHeads(*o);
            if (*tune) return RunModelTune(*o);
            if (*probe) return RunModelProbe(*o);
            if (*contributions) return RunModelContributions(*o);
            if (*offsets) return RunModelOffsets(*o);
            if (*info) return RunModelInfo(*o);
            if (*exporter.app) return exporter.run();
            if (*encode.app) return encode.run();
            for (const Command& c : output)
              if (*c.app) return c.run();
            return RefuseCommand("model", "expected train, eval, run, heads, tune, probe, contributions, offsets, lens, attribute, patch, info, export or encode");
          }};
}

}  // namespace attn::cli

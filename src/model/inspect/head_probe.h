// The probe on real heads (issue 13): can a readout that sees only a real head's A name the key
// the head gave the most weight? engine/information/probe.h asks it of synthetic heads; here the patterns
// and the values are the shipped model's own, on text it was not trained on.
//
// Design. Windows of the model's validation text (W tokens each, W = the context), one
// Forward each. Every query position t >= 1 of a window is a sample: the features are the head's
// output A_h[t] (Dh = 32 numbers, standardized), the label the key it gave the most weight,
// s* = argmax_s alpha_h[t, s] (lowest on ties), as how far back it is, t - s* (W classes: 0 =
// itself, 1 = the previous token, ...; heads are relative: a first try with absolute positions
// as the classes left the linear readout far below even the position-only baseline). The readout is engine/information/probe.h's TrainReadout: one multinomial logistic
// regression, full-batch Adam, 100 steps. It does not know t or the values: what it names, A
// told it. Reported separately for the queries that see at most Dh + 1 keys (every pattern
// recoverable from A for a reader who knows the values) and more (not recoverable), each with
// chance (the mean of 1 / (t + 1)) and the baseline of a reader who knows only t (the most common
// training label at that t: a previous-token head is named by position alone). Cost: one Forward
// per window and the readout's 100 steps over (W - 1) samples per training window (the figures
// and times: docs/model-mode.md).
#pragma once

#include "model/tokenizer/tokenizer.h"
#include "model/arch/model.h"

#include <string>
#include <string_view>
#include <vector>

namespace attn {
namespace model {

struct HeadProbeConfig {
  int layer = 0, head = 0;
  int train_windows = 150;  // the first windows train the readout, the rest test it
  int steps = 100;
};

struct HeadProbeResult {
  double accuracy = 0, train_accuracy = 0;  // every test / training query
  // Queries that see at most Dh + 1 keys ("within") and more ("beyond").
  double accuracy_within = 0, accuracy_beyond = 0;
  double chance_within = 0, chance_beyond = 0;
  double position_within = 0, position_beyond = 0;  // the baseline that knows only t
  int train_samples = 0, test_samples = 0, test_within = 0, test_beyond = 0;
};

// windows: token ids (each 2 .. context long, ids < vocab); false with a message on bad input.
bool ProbeHead(const Params<float>& p, const ModelConfig& c,
               const std::vector<std::vector<int>>& windows, const HeadProbeConfig& cfg,
               HeadProbeResult* out, std::string* error = nullptr);

// The probe on a short text (the page's "Probe this head", `attnlab model probe`): the built-in
// texts (web/tune/en.txt, ru.txt: some hundreds of tokens, not in the model's corpus) are far too
// short for ProbeHead's 200 disjoint windows, so the windows overlap. The text's stream
// (TuneStream's: <|endoftext|> then its tokens, N of them) is split once at
// floor(N * kTextProbeTrainShare): training windows start at 0, stride, 2 stride, ... and end at
// or before the split; test windows start at the split, split + stride, ... and end at or before
// N. No window crosses the split, so no test token was ever seen by the readout, even though
// windows on the same side share tokens (at different positions t, so as different samples).
// 70 / 30: the readout needs the training samples more than the test needs precision (the test
// side still holds some hundreds of queries on each side of d_head + 1: docs/model-mode.md).
// Windows are W = context tokens long, at most kTextProbeMaxWindow and at most the test side of
// the split, at least kTextProbeMinWindow (queries beyond d_head + 1 = 33 keys need t >= 33).
// Stride 32 (each token in at most two windows) and 100 readout steps. With the context-64
// model, stride 16 doubled the windows and the time and moved the figures by up to 0.05; 50
// steps left the readout short of converged (0.05 lower).
constexpr int kTextProbeStride = 32;
// The window: the model's context, at most this many tokens (a Llama-family context runs to
// 131 072; the classes, how far back, are the window's positions).
constexpr int kTextProbeMaxWindow = 1024;
// ... and at least this many (a shorter text is refused): twice beyond d_head + 1 = 33.
constexpr int kTextProbeMinWindow = 64;
constexpr double kTextProbeTrainShare = 0.7;
constexpr int kTextProbeSteps = 100;

struct TextProbe {
  int tokens = 0;  // the stream's length, with <|endoftext|>
  int split = 0;   // the first test token
  int train_windows = 0, test_windows = 0, window = 0, stride = 0;
  HeadProbeResult result;
};

// Cuts `text` into windows as above and runs ProbeHead on (layer, head). False with a refusal in
// the one wording, naming `field`, for a text TuneStream refuses or one too short for a window on
// each side of the split; "layer: ..." / "head: ..." out of range.
bool ProbeHeadOnText(const Tokenizer& tokenizer, const Params<float>& p, const ModelConfig& c, std::string_view text,
                     std::string_view field, int layer, int head, TextProbe* out, std::string* error = nullptr);

// The probe's JSON, one object: `attnlab model probe` prints it, the page API adds ok, lang,
// current and ms (app ModelProbeJson). {layer, head, tokens, split, window, stride,
// trainWindows, testWindows, steps, withinKeys, accuracy, trainAccuracy, trainQueries,
// testQueries, within: {queries, accuracy, chance, position}, beyond: {...}}. Defined with the
// model's JSON code (model_lab.cpp), so the default page's build has none of it (absent.cpp: "null").
std::string TextProbeJson(const TextProbe& probe, const ModelConfig& c, int layer, int head);

}  // namespace model
}  // namespace attn

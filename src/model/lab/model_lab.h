// The trained model in the lab (issue 13): a learner's sentence through the shipped model, and
// one of its heads shown by every panel the lab already has.
//
// ComputeModelLab runs the model's own Forward (model.h) on the sentence's tokens (after
// <|endoftext|> for the lab's model, which was trained so; alone for GPT-2: Tokenizer::Begin), exactly as `attnlab model run` does (same ids, same code, same bits), then fills the
// engine's usual LabResult for (cfg.layer, cfg.head) through attn::FinishLab: the head reads
// LN(x) of its layer (BlockActs::ln1), its W_Q, W_K, W_V are the layer's, the normalizer is
// causal scaled softmax. The settings the model fixes (dModel, dK, dV, heads, seed, positional,
// normalizer, causal, scaled, temperature) are ignored: the effective configuration is
// ModelLabResult::config. Temperature is fixed at 1: the panels show the model's own weights,
// the ones the next-token list comes from.
// Shapes: T = tokens, with <|endoftext|> first for the lab's model (<= context), C = d_model,
// Dh = C / H.
// Eigen + std only, like the engine: no app or UI code.
#pragma once

#include "model/format/bundle.h"
#include "engine/lab/lab.h"
#include "model/inspect/heads.h"
#include "model/arch/model.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace attn {
namespace model {

// The model the lab holds once its files are loaded.
struct LabModel {
  Bundle shipped;         // as loaded from the files; never changed
  Params<float> params;   // the current weights: training in the page changes them, reset
                          // copies shipped.params back
  std::vector<HeadScores> heads;  // what each head does (layer-major, L * H), from heads.json
                                  // (`attnlab model heads`); empty when the folder has none
  int threads = 1;  // the forward's (Sequence::threads): the desktop 2; the page has none
  std::string name;  // where it came from (a URL prefix, a folder's or the files' name); "" for
                     // the lab's own
  const ModelConfig& config() const { return shipped.config; }
  const Tokenizer& tokenizer() const { return *shipped.tokenizer; }
};

// A LabModel from the folder's files (name -> bytes, MANIFEST.sha256 included) and the SHA-256
// digests the caller computed (name -> hex; natively every file's, in the page WebCrypto's or
// none). params starts as the shipped ones.
bool LoadLabModel(const std::vector<std::pair<std::string, std::string>>& files,
                  const std::map<std::string, std::string>& digests, LabModel* out,
                  std::string* error = nullptr);

// A LabModel from a model already loaded (model_folder.h's OpenModelFolder: the lab's own folder
// or a GPT-2 checkpoint): its heads.json read when it has one, params starting as the shipped ones.
bool LabModelFromBundle(Bundle b, LabModel* out, std::string* error = nullptr);

struct NextToken {
  int id = 0;
  std::string text;  // Tokenizer::Label: "<|endoftext|>", a piece of a character as <0xE2>
  float p = 0;       // the model's probability after the last token
};

struct ModelLabResult {
  std::vector<int> ids;            // (T) with the tokenizer's Begin() first when it has one
                                   // (the lab's model: <|endoftext|>; GPT-2: none), as attnlab
                                   // model run
  int first = 1;                   // the sentence's first token: 1 after a begin token, else 0
  int eot = 0;                     // the tokenizer's <|endoftext|> (-1: none): drawn apart
  std::vector<std::string> texts;  // (T) each token's text ("<|endoftext|>" first)
  std::vector<int> word;           // (T) the sentence's word (engine/text/tokenizer.h) the piece
                                   // belongs to, -1 for <|endoftext|> (and spaces only)
  std::vector<char> word_start;    // (T) 1 = the piece starts a word (a chip group)
  SequenceActs<float> acts;        // every layer's intermediates
  std::vector<NextToken> next;     // top 5 after the last token, likeliest first (ties: id)
  LabConfig config;                // the configuration the panels show: the model's fixed
                                   // settings written in (heads H, dModel C, dK = dV = Dh,
                                   // softmax, causal, scaled, temperature 1, positional off)
};

// Tokenizes cfg.sentence with the model's BPE, runs Forward with m.params, and fills `lab` for
// (cfg.layer, cfg.head) and `extra`. Refusals (lab->error, the one wording; false returned):
// the sentence's text (empty, bad UTF-8, too long: the engine's rules), more than context - 1
// BPE tokens (kModelTooManyTokens), layer not in 0..L-1, head not in 0..H-1, query or target
// not a token index. Never throws for bad input.
bool ComputeModelLab(const LabModel& m, const LabConfig& cfg, LabResult* lab, ModelLabResult* extra);

// A text's ids as the lab reads it: the engine's rules for a sentence (not empty, valid UTF-8,
// not too long), the tokenizer's ids with its begin token first when it has one, at most the
// context. A refusal names `field` ("sentence"; "corrupted" for activation patching's second
// prompt).
LabError EncodeModelText(const LabModel& m, const std::string& text, const char* field, std::vector<int>* ids);

// The 5 likeliest next tokens from row `row` of the probabilities (V columns), likeliest first.
std::vector<NextToken> TopNextTokens(const LabModel& m, const MatF& probs, Eigen::Index row);

// Whether this program holds the model's code: true wherever model_lab.cpp is linked (the
// desktop program, attnlab, the tests, the page's index-model.wasm); false in the default
// page's build (absent.cpp), which switches to index-model.wasm when model mode is chosen.
bool ModelCodeInBuild();

// The head labels' threshold (KindOf in heads.h): a head is called induction, previous-token,
// sink or self when that score is at least kHeadLabelAt.
constexpr double kHeadLabelAt = 0.2;

// The chosen layer's numbers in a forward pass, or null when `layer` is not one of its layers:
// whoever reads a layer of a result asks here, never indexes blocks[layer] unchecked.
inline const BlockActs<float>* ChosenBlock(const SequenceActs<float>& acts, int layer) {
  if (layer < 0 || layer >= static_cast<int>(acts.blocks.size())) return nullptr;
  return &acts.blocks[static_cast<std::size_t>(layer)];
}

// A head's attention biases (GPT-2's: ModelConfig::attn_bias), read from the model's current
// weights, which the run's q, k, v and attention output include; the Steps panel writes them
// into its formulas. All null when the model has none (the lab's own) or the layer or head is
// not there. (Pointers, not copies in ModelLabResult: the default page's build, which never
// draws them, does not carry four more vectors in every copy of the result.)
struct HeadBiases {
  const VecF* q = nullptr;  // (Dh) b_Q of the head
  const VecF* k = nullptr;  // (Dh) b_K
  const VecF* v = nullptr;  // (Dh) b_V
  const VecF* o = nullptr;  // (C) b_O of the layer, added after W_O (all heads); null when none
};
inline HeadBiases ChosenHeadBiases(const LabModel& m, int layer, int head) {
  if (layer < 0 || layer >= static_cast<int>(m.params.blocks.size())) return {};
  const BlockParams<float>& b = m.params.blocks[static_cast<std::size_t>(layer)];  // stored weights keep these too
  if (head < 0 || head >= static_cast<int>(b.bq.size())) return {};
  const std::size_t h = static_cast<std::size_t>(head);
  return {&b.bq[h], &b.bk[h], &b.bv[h], b.bo.size() != 0 ? &b.bo : nullptr};  // Qwen2: no b_O
}

}  // namespace model
}  // namespace attn

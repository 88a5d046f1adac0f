// "What if": the edits of a run (whatif.h): names, checks, the tokens, and the hooks on the
// forward that knock out heads and move a value.
// No FMA contraction (linalg.h's rules): the same bits natively and in wasm.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include "engine/whatif/whatif.h"

#include "engine/base/names.h"
#include "engine/base/rng.h"
#include "engine/lab/validate.h"
#include "engine/linalg/linalg.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

namespace attn {

using linalg::AllFinite;
using linalg::Fail;
// ---- names ------------------------------------------------------------------------------------

constexpr Named<WhatIfMode> kWhatIfModeNames[] = {{WhatIfMode::kReplace, "replace"}, {WhatIfMode::kInsert, "insert"}};
constexpr Named<ShuffleMode> kShuffleModeNames[] = {
    {ShuffleMode::kOff, "off"}, {ShuffleMode::kReverse, "reverse"}, {ShuffleMode::kSeeded, "seeded"}};

const char* WhatIfModeName(WhatIfMode m) { return NameIn(kWhatIfModeNames, m); }
bool ParseWhatIfMode(const std::string& name, WhatIfMode* out) { return ParseIn(kWhatIfModeNames, name, out); }
const char* ShuffleModeName(ShuffleMode m) { return NameIn(kShuffleModeNames, m); }
bool ParseShuffleMode(const std::string& name, ShuffleMode* out) { return ParseIn(kShuffleModeNames, name, out); }

// ---- which edits ------------------------------------------------------------------------------

bool HasEdits(const LabConfig& cfg) {
  return cfg.what_if_token >= 0 || cfg.shuffle != ShuffleMode::kOff || !cfg.knockout_keys.empty() ||
         !cfg.knockout_heads.empty() || cfg.value_token >= 0;
}

LabConfig WithoutEdits(const LabConfig& cfg) {
  LabConfig plain = cfg;
  const LabConfig none;
  plain.what_if_token = none.what_if_token;
  plain.what_if_with = none.what_if_with;
  plain.what_if_mode = none.what_if_mode;
  plain.shuffle = none.shuffle;
  plain.shuffle_seed = none.shuffle_seed;
  plain.knockout_keys = none.knockout_keys;
  plain.knockout_heads = none.knockout_heads;
  plain.value_token = none.value_token;
  plain.value_a = none.value_a;
  plain.value_b = none.value_b;
  return plain;
}

// ---- refusals ---------------------------------------------------------------------------------

namespace {

LabError RefuseEdit(const char* field, std::string message, double value) {
  return Refuse(ConfigError::kEditInvalid, field, std::move(message), value);
}

// A text as a refusal shows it: quoted, at most 40 characters (cut on a byte of UTF-8 start).
std::string Quoted(const std::string& s) {
  std::string t = s;
  if (t.size() > 40) {
    std::size_t cut = 40;
    while (cut > 0 && (static_cast<unsigned char>(t[cut]) & 0xC0) == 0x80) --cut;
    t = t.substr(0, cut) + "...";
  }
  std::string out = "\"";
  for (char ch : t) out += ch == '\n' || ch == '\r' || ch == '\t' ? ' ' : ch;
  return out + "\"";
}

}  // namespace

// ---- checks -----------------------------------------------------------------------------------

namespace {

// The word edit's checks (whatIfToken, whatIfWith) against the typed sentence's n tokens; the
// query is a typed token in the lab (deleting it is refused), a model token in model mode (not
// compared).
LabError CheckWordEdit(const LabConfig& cfg, int n_tokens, bool query_is_typed) {
  if (cfg.what_if_token < 0) return LabError();
  const std::string last = std::to_string(n_tokens - 1);
  if (cfg.what_if_token >= n_tokens)
    return RefuseEdit("whatIfToken", "whatIfToken: expected -1 (none) or a token index from 0 to " + last + ", got " + std::to_string(cfg.what_if_token), cfg.what_if_token);
  const bool deleting = cfg.what_if_mode == WhatIfMode::kReplace && cfg.what_if_with.empty();
  if (cfg.what_if_mode == WhatIfMode::kInsert && cfg.what_if_with.empty())
    return RefuseEdit("whatIfWith", "whatIfWith: expected the word to insert, got \"\"", 0);
  if (!cfg.what_if_with.empty()) {
    const TokenizeResult t = Tokenize(cfg.what_if_with);
    if (t.error == TokenizeError::kInvalidUtf8)
      return RefuseEdit("whatIfWith", "whatIfWith: expected valid UTF-8, got a bad byte at offset " + std::to_string(t.detail), static_cast<double>(t.detail));
    if (!t.ok() || t.tokens.size() != 1)
      return RefuseEdit("whatIfWith", "whatIfWith: expected one word (one token), got " + Quoted(cfg.what_if_with) +
                                      (t.ok() ? " (" + std::to_string(t.tokens.size()) + " tokens)" : ""),
                    t.ok() ? static_cast<double>(t.tokens.size()) : 0);
  }
  if (deleting && n_tokens == 1)
    return RefuseEdit("whatIfToken", "whatIfToken: expected a token of a sentence of at least 2 tokens to delete, got the only token 0", 0);
  if (deleting && query_is_typed && cfg.what_if_token == cfg.query)
    return RefuseEdit("whatIfToken", "whatIfToken: expected a token other than the query (" + std::to_string(cfg.query) + ") to delete, got " + std::to_string(cfg.what_if_token), cfg.what_if_token);
  if (cfg.what_if_mode == WhatIfMode::kInsert && n_tokens + 1 > static_cast<int>(kMaxTokens))
    return RefuseEdit("whatIfToken", "whatIfToken: expected a sentence of at most " + std::to_string(kMaxTokens) + " tokens after the insertion, got " + std::to_string(n_tokens + 1), n_tokens + 1);
  return LabError();
}

}  // namespace

LabError CheckEdits(const LabConfig& cfg, int n_tokens) {
  if (cfg.projection == Projection::kModel) {
    // Model mode (model/lab/model_whatif.h): a word edit of the sentence as typed, or knock-outs of
    // the model's keys and heads (their indices are the model's: model::CheckModelEdits), one
    // kind at a time; the shuffle and value edits stay in the identity and random modes.
    const LabConfig none;
    if (cfg.shuffle != none.shuffle)
      return RefuseEdit("shuffle", std::string("shuffle: expected \"off\" in model mode (shuffling runs in the identity and random modes), got \"") + ShuffleModeName(cfg.shuffle) + "\"", 0);
    if (cfg.value_token != none.value_token)
      return RefuseEdit("valueToken", "valueToken: expected -1 in model mode (value edits run in the identity and random modes), got " + std::to_string(cfg.value_token), cfg.value_token);
    if (cfg.what_if_token >= 0 && (!cfg.knockout_keys.empty() || !cfg.knockout_heads.empty()))
      return RefuseEdit("whatIfToken", "whatIfToken: expected -1 with knock-outs in model mode (one kind of edit at a time), got " + std::to_string(cfg.what_if_token), cfg.what_if_token);
    return CheckWordEdit(cfg, n_tokens, /*query_is_typed=*/false);
  }
  const std::string last = std::to_string(n_tokens - 1);
  // 1. what-if
  if (LabError e = CheckWordEdit(cfg, n_tokens, /*query_is_typed=*/true); !e.ok()) return e;
  // 2. shuffle: any mode works for any sentence
  // 3. knock-out
  if (!cfg.knockout_keys.Fits(n_tokens))
    return RefuseEdit("knockoutKeys", "knockoutKeys: expected token indices from 0 to " + last + ", separated by commas, got " + Quoted(cfg.knockout_keys.text), 0);
  if (!cfg.knockout_heads.Fits(1, cfg.heads))
    return RefuseEdit("knockoutHeads", "knockoutHeads: expected layer:head pairs with layer 0 and head from 0 to " + std::to_string(cfg.heads - 1) + ", separated by commas, got " + Quoted(cfg.knockout_heads.text), 0);
  // 4. values (a, b: the table's rows, NaN included)
  if (cfg.value_token >= n_tokens)
    return RefuseEdit("valueToken", "valueToken: expected -1 (none) or a token index from 0 to " + last + ", got " + std::to_string(cfg.value_token), cfg.value_token);
  if (cfg.value_token >= 0 && cfg.what_if_token == cfg.value_token && cfg.what_if_mode == WhatIfMode::kReplace &&
      cfg.what_if_with.empty())
    return RefuseEdit("valueToken", "valueToken: expected a token the what-if keeps, got the deleted token " + std::to_string(cfg.value_token), cfg.value_token);
  return LabError();
}

std::string EditedSentence(const LabConfig& cfg, const std::vector<Token>& typed) {
  const std::string& s = cfg.sentence;
  if (cfg.what_if_token < 0 || cfg.what_if_token >= static_cast<int>(typed.size())) return s;
  const Token& tok = typed[static_cast<std::size_t>(cfg.what_if_token)];
  if (cfg.what_if_mode == WhatIfMode::kInsert)  // the word and a space before the token
    return s.substr(0, tok.byte_begin) + cfg.what_if_with + " " + s.substr(tok.byte_begin);
  if (!cfg.what_if_with.empty())  // replace: the token's bytes
    return s.substr(0, tok.byte_begin) + cfg.what_if_with + s.substr(tok.byte_end);
  // delete: the token's bytes and the spaces after it (before it, at the end of the sentence)
  std::size_t b = tok.byte_begin, e = tok.byte_end;
  while (e < s.size() && s[e] == ' ') ++e;
  if (e == s.size())
    while (b > 0 && s[b - 1] == ' ') --b;
  return s.substr(0, b) + s.substr(e);
}

// ---- steps 1-2: the tokens ----------------------------------------------------------------------

std::vector<int> ShufflePermutation(int n, ShuffleMode mode, std::uint64_t seed) {
  std::vector<int> perm(static_cast<std::size_t>(n > 0 ? n : 0));
  std::iota(perm.begin(), perm.end(), 0);
  if (mode == ShuffleMode::kReverse) {
    std::reverse(perm.begin(), perm.end());
  } else if (mode == ShuffleMode::kSeeded) {
    // Fisher-Yates from the back; j = Next() mod (k + 1): the modulo's bias (< 2^-57) is
    // irrelevant here, and the same integers come out on every platform.
    rng::SplitMix64 stream(rng::Mix64(seed ^ 0x5348554646ull));  // "SHUFF"
    for (int k = n - 1; k > 0; --k) {
      const int j = static_cast<int>(stream.Next() % static_cast<std::uint64_t>(k + 1));
      std::swap(perm[static_cast<std::size_t>(k)], perm[static_cast<std::size_t>(j)]);
    }
  }
  return perm;
}

std::vector<Token> EditTokens(const LabConfig& cfg, const std::vector<Token>& typed, RunEdits* edits) {
  const int n = static_cast<int>(typed.size());
  std::vector<Token> tokens;
  std::vector<int> from;  // the typed index of each token, -1 = inserted
  for (int i = 0; i < n; ++i) {
    const Token& tok = typed[static_cast<std::size_t>(i)];
    if (i == cfg.what_if_token) {
      Token word;
      if (!cfg.what_if_with.empty()) {
        const TokenizeResult t = Tokenize(cfg.what_if_with);
        word = t.ok() && !t.tokens.empty() ? t.tokens[0] : Token{cfg.what_if_with, 0, 0, true};
        word.byte_begin = tok.byte_begin;  // where the typed sentence had it
        word.byte_end = cfg.what_if_mode == WhatIfMode::kInsert ? tok.byte_begin : tok.byte_end;
      }
      if (cfg.what_if_mode == WhatIfMode::kInsert) {
        edits->inserted = static_cast<int>(tokens.size());
        tokens.push_back(word);
        from.push_back(-1);
      } else if (cfg.what_if_with.empty()) {
        edits->deleted = i;
        continue;
      } else {
        edits->replaced = static_cast<int>(tokens.size());
        tokens.push_back(word);
        from.push_back(i);  // a replaced token stays aligned with its slot
        continue;
      }
    }
    tokens.push_back(tok);
    from.push_back(i);
  }
  // 2. shuffle the edited tokens
  const int m = static_cast<int>(tokens.size());
  if (cfg.shuffle != ShuffleMode::kOff) {
    const std::vector<int> perm = ShufflePermutation(m, cfg.shuffle, cfg.shuffle_seed);
    std::vector<Token> shuffled;
    std::vector<int> from2;
    for (int k = 0; k < m; ++k) {
      shuffled.push_back(tokens[static_cast<std::size_t>(perm[static_cast<std::size_t>(k)])]);
      from2.push_back(from[static_cast<std::size_t>(perm[static_cast<std::size_t>(k)])]);
    }
    for (int k = 0; k < m; ++k) {
      if (edits->inserted >= 0 && perm[static_cast<std::size_t>(k)] == edits->inserted) {
        edits->inserted = k;
        break;
      }
    }
    for (int k = 0; k < m; ++k) {
      if (edits->replaced >= 0 && perm[static_cast<std::size_t>(k)] == edits->replaced) {
        edits->replaced = k;
        break;
      }
    }
    tokens = std::move(shuffled);
    from = std::move(from2);
    edits->shuffled = true;
  }
  edits->from_typed = from;
  edits->to_run.assign(static_cast<std::size_t>(n), -1);
  for (int k = 0; k < m; ++k)
    if (from[static_cast<std::size_t>(k)] >= 0) edits->to_run[static_cast<std::size_t>(from[static_cast<std::size_t>(k)])] = k;
  return tokens;
}

// ---- step 3: knock-out ------------------------------------------------------------------------

Mask KnockoutMask(int n, const std::vector<int>& keys) {
  Mask mask = FullMask(n, n);  // (N', N')
  for (int k : keys)
    if (k >= 0 && k < n)
      for (Eigen::Index i = 0; i < mask.rows(); ++i) mask(i, k) = false;
  return mask;
}

// ---- steps 3 (heads) and 4: hooks on the forward ---------------------------------------------

bool AddEditHooks(const LabConfig& cfg, const MatF& x, const MultiHeadWeights<float>& w,
                  const MultiHeadConfig& mcfg, RunEdits* edits, Hooks<float>* hooks, std::string* error) {
  const int heads = static_cast<int>(w.W_Q.size());
  // a knocked-out head says nothing (z = 0); its weights stay as computed
  for (int h : edits->knocked_heads)
    if (h >= 0 && h < heads) hooks->Add(HookPoint::kZ, 0, h, ZeroHook<float>());
  if (edits->value_token < 0 || cfg.head < 0 || cfg.head >= heads) return true;
  // The plane the learner dragged in: the vectors view of the chosen head in this run without
  // the value edit (a forward of its own: the pattern it needs comes after v).
  MultiHeadTrace<float> before;
  if (!MultiHeadForward<float>(before, x, nullptr, w, mcfg, error, hooks->empty() ? nullptr : hooks)) return false;
  const HeadTrace<float>& head = before.heads[static_cast<std::size_t>(cfg.head)];
  const int query = cfg.query;
  AttentionTrace<float> view;
  view.V = head.V;
  view.weights = head.weights;
  view.output = head.output;
  view.weighted_values.resize(static_cast<std::size_t>(head.weights.rows()));
  const Eigen::Index n = head.weights.cols(), dv = head.V.cols();
  MatF& wv = view.weighted_values[static_cast<std::size_t>(query)];  // (N, Dv)
  wv.resize(n, dv);
  for (Eigen::Index j = 0; j < n; ++j)
    for (Eigen::Index c = 0; c < dv; ++c) wv(j, c) = head.weights(query, j) * head.V(j, c);
  edits->plane = ProjectPca2D(VectorPoints(view, query));
  // the offset a p1 + b p2, in float, each coordinate rounded once per product and sum
  const MatF& p = edits->plane.components;  // (Dv, 2)
  const float a = static_cast<float>(cfg.value_a), b = static_cast<float>(cfg.value_b);
  edits->value_offset.resize(dv);
  for (Eigen::Index c = 0; c < dv; ++c) {
    const float pa = a * p(c, 0);
    const float pb = p.cols() > 1 ? b * p(c, 1) : 0.0f;
    edits->value_offset(c) = pa + pb;
  }
  // hook_v: v_i += the offset (the head's A, the final output and the rest follow)
  const int token = edits->value_token;
  const VecF offset = edits->value_offset;
  hooks->Add(HookPoint::kV, 0, cfg.head, [token, offset](const HookSite&, MatF& v, std::string* why) {
    for (Eigen::Index c = 0; c < v.cols(); ++c) v(token, c) += offset(c);
    return AllFinite(v) || Fail(why, "the edited values overflowed the number type");
  });
  return true;
}

void FinishEdits(const LabConfig& run, LabResult* result) {
  RunEdits& e = result->edits;
  if (e.value_token >= 0) {
    result->vectors = ProjectOnto(e.plane, VectorPoints(result->trace, run.query));
    result->value_hull = ConvexHull2D(result->vectors.points.topRows(static_cast<Eigen::Index>(result->tokens.size())));
  }
  if (std::find(e.knocked_heads.begin(), e.knocked_heads.end(), run.head) != e.knocked_heads.end()) {
    for (KeyContribution& k : result->contribution.keys) {
      k.removal = 0;
      k.output_without.setZero();
    }
  }
}

}  // namespace attn

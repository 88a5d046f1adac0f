// The RoPE scene (issue 39): does a head's score of one word on another depend on where the two
// stand, or only on how far apart they are? With rotary positions q_t = R(t) q and k_u = R(u) k,
// and q_t . k_u = q . R(u - t) k: the offset alone. With learned positions (GPT-2, the lab's own
// model) the position rows are added to the words before the projections, so moving both words
// changes the score. The scene measures it on the loaded model, never asserts it:
//
//   for each start p: a text of n = p + offset + 1 tokens, word B at position p, word A at
//   p + offset (the other positions hold B too: at layer 0 a score depends only on its own query
//   and key rows), through the model's own forward up to layer 0's scores for `head`
//   (hook_attn_scores: q . k / sqrt(Dh)); the entry (p + offset, p). Then the same with A one
//   position further (offset + 1).
//
// Rotary: the first row equal for every start to rounding (spread ~1e-6), the second row another
// number. Learned positions: the first row itself moves by far more than rounding.
#pragma once

#include "model/arch/model.h"

#include <string>
#include <vector>

namespace attn {
namespace model {

struct OffsetScene {
  int head = 0;
  int query_token = -1, key_token = -1;  // A (the query's word) and B (the key's word)
  int offset = 0;                        // A stands `offset` positions after B
  bool rotary = false;                   // the model's positions
  std::vector<int> starts;               // where B stands
  std::vector<double> same;              // the score at each start, A at start + offset
  std::vector<double> moved;             // the same with A at start + offset + 1
  double same_spread = 0;                // max - min of `same`
  double moved_spread = 0;               // max - min of `moved`
  double change = 0;                     // |mean(moved) - mean(same)|: what another offset does
};

// The starts the scene uses: 0, 1, 2, 3, 5, 8, 13, 21, 34, 55 while the text fits the context.
// Refused (message): a head or token id out of range, an offset below 0 or beyond the context.
bool MeasureOffsets(const Params<float>& p, const ModelConfig& c, int query_token, int key_token, int head, int offset,
                    OffsetScene* out, std::string* error = nullptr);

// The scene for what the lab shows: A = the query's token, B = the earlier token the chosen head
// (layer, head) leans on most in the run `acts` of `ids` (the query itself when it is the first;
// from `first_key` on: 1 skips the begin token a run starts with, which heads lean on as a sink
// and which never stands anywhere else),
// measured at layer 0, head `head` (where positions enter: deeper layers mix the words first).
// *key_position: B's position in the text. The page's Positions panel and `attnlab model
// offsets` both call this.
bool SceneForQuery(const Params<float>& p, const ModelConfig& c, const std::vector<int>& ids,
                   const SequenceActs<float>& acts, int layer, int head, int query, int first_key, OffsetScene* out,
                   int* key_position, std::string* error = nullptr);

}  // namespace model
}  // namespace attn

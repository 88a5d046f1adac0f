// Generation with a key/value cache (issue 40): after the prompt's forward, each new token costs
// one position's forward -- its row through every block, its query against the keys and values
// kept from the positions before it -- not a forward of the whole text again.
//
// The same numbers as the whole forward: every product is the kernels' (each output entry one
// sum in a fixed order, whatever the number of rows), the new query's scores, softmax and
// weighted sum are the engine's HeadForward over the cached keys (the masked ones, beyond the
// window, as the full forward's mask), so the logits of each step equal the last row of a forward
// of the whole text, bit for bit (the tests compare them, and greedy and sampled continuations).
// The cached path runs no hooks: an edited or patched run recomputes the text.
//
// A step's products are one row times the block's matrices at their stored precision, a panel
// of output columns widened at a time (row_product.h), not the whole block widened for one row;
// a grouped-query model's k and v are multiplied once per key/value head.
#pragma once

#include "model/arch/llama_layers.h"
#include "model/arch/model.h"
#include "model/arch/row_product.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attn {
namespace model {

struct KvCache {
  int length = 0;  // positions held
  // [layer][head] (capacity, Dh): each query head's k (after biases, q/k norm and its rotation)
  // and v, rows 0 .. length - 1 (a grouped-query head's are its key/value head's)
  std::vector<std::vector<Mat<float>>> k, v;
  RopeTable<float> rope;  // rotary models: angles up to the capacity
  RowScratch scratch;     // the steps' panel buffers (row_product.h), kept between steps
};

// The prompt's forward (last_only), its keys and values kept for up to `capacity` positions
// (prompt + the tokens to come, at most the context). acts: the prompt's run (the lab shows it).
bool Prefill(KvCache* cache, SequenceActs<float>* acts, const Params<float>& p, const ModelConfig& c,
             const std::vector<int>& tokens, int capacity, std::string* error = nullptr, int threads = 1);
// One more position holding `token`: its logits (1, V). Refused when the cache is full.
bool DecodeStep(KvCache* cache, Mat<float>* logits, const Params<float>& p, const ModelConfig& c, int token,
                std::string* error = nullptr, int threads = 1);

}  // namespace model
}  // namespace attn

// The decoder-only transformer of issue 12 (MODEL.md has the exact description).
//
// Legend: T = positions of one sequence (<= P), P = context, C = d_model, H = heads,
// Dh = C / H (d_k = d_v of every head), F = MLP width, V = vocabulary, L = layers.
//
//   x_0   = wte[tokens] + wpe[0..T)                                   (T, C)  embedding
//   for l = 0 .. L-1 (pre-LN blocks):
//     a_l = LN(x_l; ln1)                                               (T, C)
//     r_l = x_l + MultiHead(a_l; W_Q, W_K, W_V, W_O, causal softmax)   (T, C)  the engine's own
//     b_l = LN(r_l; ln2)                                               (T, C)
//     x_{l+1} = r_l + GELU(b_l fc_w + fc_b) proj_w + proj_b            (T, C)
//   h      = LN(x_L; ln_f)                                             (T, C)
//   logits = h wte^T                                                   (T, V)  tied embedding
//   loss   = mean over positions of -log softmax(logits)[target]
//
// Numbers: the template runs in float (the shipped model: fp16 weights widened to float, every
// operation in float) or double (the finite-difference tests). Float is what a browser can
// afford for a model of a few million parameters, and the engine's rules make it exact anyway: every sum in
// one fixed order, no FMA, exp/log/tanh/sqrt in double rounded once (layers.h, linalg.h).
// The attention has no biases (the engine's MultiHeadWeights); the MLP and LayerNorms do.
//
// The Llama family (issue 39: Llama, Mistral, Qwen2, Qwen3) is the same loop with other parts,
// chosen by ModelConfig as data:
//   x_0   = wte[tokens]                                   no learned positions
//   a_l   = RMSNorm(x_l; ln1)                             x / sqrt(mean(x^2) + eps) * w, no bias
//   q, k  = a_l W_Q[h] (+ b_q), a_l W_K[h] (+ b_k); Qwen3: RMSNorm of each over Dh; then both
//           rotated by their position (RoPE, llama_layers.h) before the scores
//   r_l   = x_l + MultiHead(...)                          Dh = head_dim, which need not be C / H;
//           grouped-query: query head h reads key/value head h / (H / KV) (its W_K, W_V repeated)
//   x_{l+1} = r_l + (SiLU(b_l W_gate) * (b_l W_up)) W_down   SwiGLU, no biases
//   Mistral's sliding window: query i sees key j when 0 <= i - j < window.
// These models are opened and looked into, not trained: Backward refuses them (Trainable).
#pragma once

#include "engine/attention/multihead.h"
#include "engine/base/types.h"
#include "model/arch/stored.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace attn {
namespace model {

struct ModelConfig {
  int vocab = 64;    // V
  int d_model = 32;  // C
  int layers = 2;    // L
  int heads = 2;     // H (divides C)
  int context = 32;  // P
  int mlp = 128;     // F
  // Where GPT-2-family checkpoints differ from the shipped model, as data (the defaults are
  // the shipped model's; a Hugging Face config.json sets them, model/format/hf_config.h).
  double ln_eps = 1e-5;    // LayerNorm's epsilon (layer_norm_epsilon)
  bool gelu_erf = false;   // activation "gelu" (the erf form) instead of "gelu_new" (tanh)
  bool attn_bias = false;  // q, k, v and output biases (GPT-2's c_attn.bias, attn.c_proj.bias)
  bool tied = true;        // logits from wte; false: from an lm_head of its own
  bool out_bias = false;   // the attention output's bias b_O (GPT-2: with attn_bias; Qwen2: none)
  // The Llama family (llama_layers.h). The defaults are GPT-2's.
  bool rms_norm = false;   // RMSNorm (ln_eps = rms_norm_eps) instead of LayerNorm: no mean, no bias
  bool rotary = false;     // RoPE on q and k instead of learned positions (no wpe)
  bool swiglu = false;     // MLP SiLU(x W_gate) * (x W_up), then W_down; no MLP biases
  bool qk_norm = false;    // Qwen3: RMSNorm of each head's q and k over Dh (weights (Dh) per layer)
  int kv_heads = 0;        // key/value heads KV (0: = heads); heads % KV == 0
  int head_dim = 0;        // Dh (0: d_model / heads)
  int sliding_window = 0;  // 0: none; else query i sees key j when i - j < window (Mistral)
  double rope_theta = 10000;
  // rope_scaling: none, "linear" (every frequency / factor) or "llama3" (low frequencies / factor,
  // high ones kept, a smooth blend between; original_max_position_embeddings sets the bands)
  enum class RopeScaling { kNone, kLinear, kLlama3 };
  RopeScaling rope_scaling = RopeScaling::kNone;
  double rope_factor = 1, rope_low_freq = 1, rope_high_freq = 4;
  int rope_original_context = 8192;
};
// Dh and KV with their defaults applied; whether the config is GPT-2-shaped (what training,
// "Train it more" and the exports know).
inline int HeadDim(const ModelConfig& c) { return c.head_dim > 0 ? c.head_dim : c.d_model / c.heads; }
inline int KvHeads(const ModelConfig& c) { return c.kv_heads > 0 ? c.kv_heads : c.heads; }
inline bool Trainable(const ModelConfig& c) {
  return !c.rms_norm && !c.rotary && !c.swiglu && !c.qk_norm && KvHeads(c) == c.heads &&
         HeadDim(c) * c.heads == c.d_model && c.sliding_window == 0 && c.attn_bias == c.out_bias;
}
// What training says to a model it cannot train (Backward, "Train it more", `model tune`).
inline constexpr const char* kNotTrainable = "a Llama-family model is opened, not trained, here";
// An English one-line message when the config cannot be built (empty when fine).
std::string CheckModelConfig(const ModelConfig& c);

template <typename T>
struct BlockParams {
  Vec<T> ln1_w, ln1_b;          // (C), (C); RMSNorm: ln1_b empty
  MultiHeadWeights<T> attn;     // W_Q/W_K/W_V: H of (C, Dh); W_O: (H*Dh, C). Grouped-query: the
                                // shared W_K, W_V repeated for each query head (BlockOf does it)
  // GPT-2's attention biases (c_attn.bias split per head, attn.c_proj.bias) when the config
  // has them, else empty. The engine's attention has none: the block adds them at hook_q, _k,
  // _v (before any caller's hook there, as TransformerLens's b_Q) and to the output.
  std::vector<Vec<T>> bq, bk, bv;  // H of (Dh)
  Vec<T> bo;                       // (C)
  Vec<T> q_norm, k_norm;           // (Dh) Qwen3's per-head RMSNorm weights, else empty
  Vec<T> ln2_w, ln2_b;          // (C), (C); RMSNorm: ln2_b empty
  Mat<T> fc_w;                  // (C, F) SwiGLU: W_up
  Mat<T> gate_w;                // (C, F) SwiGLU: W_gate, else empty
  Vec<T> fc_b;                  // (F) SwiGLU: empty
  Mat<T> proj_w;                // (F, C) SwiGLU: W_down
  Vec<T> proj_b;                // (C) SwiGLU: empty
};

template <typename T>
struct Params {
  Mat<T> wte;                          // (V, C) token embedding, tied with the output
  Mat<T> wpe;                          // (P, C) learned positions; rotary: empty
  std::vector<BlockParams<T>> blocks;  // L
  Vec<T> lnf_w, lnf_b;                 // (C), (C); RMSNorm: lnf_b empty
  Mat<T> lm_head;                      // (V, C) the output's own when the config is untied, else empty
  // A checkpoint read at its stored precision (stored.h): the big matrices are there, and wte,
  // lm_head and every block's attn W_Q/W_K/W_V/W_O, fc_w and proj_w above are empty (the
  // vectors, wpe and the LayerNorms are here in T). Null: every number is above. Only float.
  std::shared_ptr<const StoredWeights> stored;
};

// Block l's parameters: p.blocks[l] itself, or, when p keeps its weights stored, a copy in
// *scratch with the block's matrices widened (scratch's storage is reused when its shapes fit).
const BlockParams<float>& BlockOf(const Params<float>& p, int l, BlockParams<float>* scratch);
// Every number in float, as plain Params (training and the optimizer need them): a copy of p
// when nothing is stored.
Params<float> Widened(const Params<float>& p);

// One parameter tensor in the fixed order (optimizer, file): its name, shape (row-major, as in
// the file: [rows, cols] for a matrix, [n] for a vector), whether AdamW decays it, and where
// its numbers are (Eigen's column-major storage of `rows` x `cols`).
template <typename T>
struct TensorRef {
  std::string name;
  std::vector<std::int64_t> shape;
  bool decay;
  T* data;
  Eigen::Index rows, cols;
  Eigen::Index size() const { return rows * cols; }
};
// The order: wte, wpe, then for each layer l: h.l.ln1.weight, h.l.ln1.bias,
// h.l.attn.w_q.j, h.l.attn.w_k.j, h.l.attn.w_v.j for each head j, h.l.attn.w_o, h.l.ln2.weight,
// h.l.ln2.bias, h.l.mlp.fc.weight, h.l.mlp.fc.bias, h.l.mlp.proj.weight, h.l.mlp.proj.bias;
// then ln_f.weight, ln_f.bias. Matrices (wte, wpe, the attention's and the MLP's weights) decay.
// With attention biases, h.l.attn.b_q.j, b_k.j, b_v.j for each head and h.l.attn.b_o follow
// h.l.attn.w_o; an untied lm_head comes last.
template <typename T>
std::vector<TensorRef<T>> Tensors(Params<T>& p);

// The numbers Tensors holds for the config (wte once when tied, lm_head when untied, the
// attention biases when it has them), counted without allocating them: `model info`, and the
// memory "Train it more" would need (finetune.h).
std::int64_t ParameterCount(const ModelConfig& c);

// Zeroed parameters of the config's shapes.
template <typename T>
Params<T> ZeroParams(const ModelConfig& c);
// GPT-2's initialization: weights N(0, 0.02), the residual projections (W_O, proj_w)
// N(0, 0.02 / sqrt(2 L)), LayerNorm weights 1, biases 0. Tensor k (in Tensors' order) draws
// from rng::SplitMix64(Mix64(seed) + k) through rng::FillStandardNormal, in row-major order.
template <typename T>
Params<T> InitParams(const ModelConfig& c, std::uint64_t seed);

// One training sequence: the tokens and, for each position, the next token (or -1: no loss).
struct Sequence {
  std::vector<int> tokens;   // (T)
  std::vector<int> targets;  // (T)
  // Training only: dropout with this probability on the embeddings and on both residual
  // branches of every block (GPT-2's resid_pdrop and embd_pdrop), masks drawn from dropout_seed
  // (layers.h DropoutMask). 0: none, the forward every other caller runs.
  double dropout = 0;
  std::uint64_t dropout_seed = 0;
  // The MLP's and the output's products split by their output columns over this many threads
  // (each entry's sum is its own: the same bits whatever the number). 1 for a forward that runs
  // inside other threads (training, scoring) and in the browser, which has none.
  int threads = 1;
};

template <typename T>
struct BlockActs {
  Mat<T> x;                      // (T, C) the block's input (the residual stream)
  Mat<T> ln1;                    // (T, C)
  Vec<T> ln1_mean, ln1_rstd;     // (T)
  MultiHeadTrace<T> attn;        // every head's Q, K, V, scores, weights (T, T), output
                                 // (times drop_attn when training with dropout)
  Mat<T> drop_attn, drop_mlp;    // (T, C) dropout masks of the two branches; empty: none
  Mat<T> res1;                   // (T, C) x + attention
  Mat<T> ln2;                    // (T, C)
  Vec<T> ln2_mean, ln2_rstd;     // (T)
  Mat<T> fc;                     // (T, F) before GELU; SwiGLU: x W_gate, before SiLU (hook_pre)
  Mat<T> up;                     // (T, F) SwiGLU: x W_up (TransformerLens's hook_pre_linear)
  Mat<T> gelu;                   // (T, F) after the activation; SwiGLU: SiLU(fc) * up
  // Rotary models: each head's q and k before their rotation (after biases and Qwen3's norm),
  // kept to show what RoPE did (the heads' Q and K above are the rotated ones the scores use)
  std::vector<Mat<T>> q_unrotated, k_unrotated;  // H of (T, Dh)
  Mat<T> proj;                   // (T, C) (times drop_mlp when training with dropout)
  Mat<T> res2;                   // (T, C) res1 + proj: the next block's input
};

template <typename T>
struct SequenceActs {
  std::vector<BlockActs<T>> blocks;  // L
  Mat<T> emb;                        // (T, C) (times drop_emb when training with dropout)
  Mat<T> drop_emb;                   // (T, C) dropout mask; empty: none
  Mat<T> lnf;                        // (T, C)
  Vec<T> lnf_mean, lnf_rstd;         // (T)
  Mat<T> logits;                     // (T, V)
  Mat<T> probs;                      // (T, V)
  Vec<T> losses;                     // (T) -log p(target), 0 where there is no target
  double loss_sum = 0;               // sum of losses, in position order
};

// The causal self-attention configuration every block uses (softmax, scale 1/sqrt(Dh)); with the
// config and the length, Mistral's sliding window as its explicit mask when the text is longer.
MultiHeadConfig BlockAttentionConfig();
MultiHeadConfig BlockAttentionConfig(const ModelConfig& c, int n);

// Forward of one sequence (1 <= T <= P, ids in [0, V)); keeps every intermediate.
// Returns false with an English one-line message on bad input or a non-finite attention.
// last_only: the logits, probabilities and loss of the last position only (logits and probs are
// then (1, V), losses (1)), the same bits as that row of the full forward: what the lab and
// `attnlab model run` show (the next token), without the other T - 1 rows' (C, V) products.
// hooks (engine/attention/hooks.h) fire at every named point of the run, in order: embed,
// pos_embed, then per block resid_pre, ln1, q/k/v/attn_scores/pattern/z of each head, attn_out,
// resid_mid, ln2, mlp pre/post, mlp_out, resid_post, and ln_final. They read the activations and
// may rewrite them (a knock-out, a patch); what follows is computed from what they leave. Null
// or empty: the plain forward (hooks that change nothing give its bits). Rotary models: q and k
// reach hook_q and hook_k already rotated (TransformerLens's hook_rot_q / hook_rot_k; the
// unrotated ones are kept in BlockActs), and hook_pos_embed does not fire (there is no wpe).
// Grouped-query models fire hook_k and hook_v per query head, with its key/value head's k and v.
template <typename T>
bool Forward(SequenceActs<T>& acts, const Params<T>& p, const ModelConfig& c, const Sequence& s,
             std::string* error = nullptr, bool last_only = false, const Hooks<T>* hooks = nullptr);
// The forward from block `from` on (activation patching, model/inspect/patching.h): acts has a
// BlockActs for every block and acts.blocks[from].x holds block from's input (T, C) -- kept from
// an earlier Forward of the same tokens, say; blocks from .. L - 1, the final norm and the logits
// are computed as Forward computes them, the hooks firing from block from's resid_pre on. The
// same bits as a Forward whose blocks below `from` gave that input (the layers below a patch are
// the unpatched run's: they need not run again). acts' blocks below `from` and emb are left as
// they are. False with an English one-line message on bad input, as Forward.
template <typename T>
bool ForwardFrom(SequenceActs<T>& acts, int from, const Params<T>& p, const ModelConfig& c, const Sequence& s,
                 std::string* error = nullptr, bool last_only = false, const Hooks<T>* hooks = nullptr);
// Several such runs of one sequence, each with its own acts, first block and hooks, in lockstep:
// block l's weights are taken (stored ones widened) once for every run that reaches it, the runs
// share s.threads (each on one thread), and their last norms' rows go through the output matrix
// as one product. Each run's numbers are its own ForwardFrom's, bit for bit. False with the
// first failing run's message.
template <typename T>
struct RunFrom {
  SequenceActs<T>* acts = nullptr;  // as ForwardFrom's: blocks[from].x set
  int from = 0;
  const Hooks<T>* hooks = nullptr;  // null or empty: none
};
template <typename T>
bool ForwardFrom(const std::vector<RunFrom<T>>& runs, const Params<T>& p, const ModelConfig& c, const Sequence& s,
                 std::string* error = nullptr, bool last_only = false);
// The run's activation at a hook point, read from what Forward kept (TransformerLens's cache):
// resid_pre = blocks[l].x, ln1 = blocks[l].ln1, the heads' q, k, v, attn_scores (the scaled
// scores), pattern and z, attn_out, resid_mid = res1, ln2, mlp pre (fc) and post (gelu), mlp_out
// (proj), resid_post = res2, ln_final = lnf. Null for embed and pos_embed (not kept apart) and
// for a layer or head that is not there.
template <typename T>
const Mat<T>* Activation(const SequenceActs<T>& acts, HookPoint point, int layer, int head = -1);
// The pieces of the output, for rows of the residual stream the caller picks (the logit lens,
// attribution: model/inspect/): the final norm with each row's own statistics, (N, C) -> (N, C);
// the logits of rows that are already normed, h W_U^T (N, V), the forward's own product (the same
// bits as its logits for the same rows); the token's embedding row and its output direction (row
// id of wte, or of lm_head when untied), (C) each.
template <typename T>
void FinalNormRows(Mat<T>& out, const Mat<T>& x, const Params<T>& p, const ModelConfig& c);
template <typename T>
void UnembedRows(Mat<T>& logits, const Mat<T>& h, const Params<T>& p, const ModelConfig& c, int threads = 1);
template <typename T>
Vec<T> TokenEmbedding(const Params<T>& p, const ModelConfig& c, int id);
template <typename T>
Vec<T> OutputDirection(const Params<T>& p, const ModelConfig& c, int id);
// Backward of one sequence after its Forward: adds d(scale * loss_sum)/dparams into g. Refused
// for stored weights (p.stored): widen them first (Widened).
template <typename T>
bool Backward(Params<T>& g, const SequenceActs<T>& acts, const Params<T>& p, const ModelConfig& c,
              const Sequence& s, T scale, std::string* error = nullptr);

// The batch: forward then backward of each sequence, the loss a mean over every position that
// has a target. Each sequence's gradient is its own (on any of `threads` threads); g is their
// sum in sequence order, so the bits do not depend on the thread count. Returns the mean loss
// (NaN on error).
template <typename T>
double LossAndGrad(Params<T>& g, const Params<T>& p, const ModelConfig& c,
                   const std::vector<Sequence>& batch, std::string* error = nullptr,
                   int threads = 1);
// The mean loss only (no gradient); the sequences' losses summed in sequence order.
template <typename T>
double Loss(const Params<T>& p, const ModelConfig& c, const std::vector<Sequence>& batch,
            std::string* error = nullptr, int threads = 1);

}  // namespace model
}  // namespace attn

// AdamW, the schedule, batches and the model as a Problem of the one Trainer (train.h).
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

#include "model/training/train.h"

#include "engine/linalg/linalg.h"
#include "engine/base/rng.h"

#include <algorithm>
#include <cmath>

namespace attn {
namespace model {

template <typename T>
void AdamW<T>::Step(Params<T>& p, Params<T>& g, double lr) {
  std::vector<TensorRef<T>> pt = Tensors(p), gt = Tensors(g);
  if (m_.empty()) {
    for (const TensorRef<T>& t : pt) {
      m_.emplace_back(static_cast<std::size_t>(t.size()), 0.0);
      v_.emplace_back(static_cast<std::size_t>(t.size()), 0.0);
    }
  }
  ++t_;
  b1t_ *= h_.beta1;
  b2t_ *= h_.beta2;
  const double c1 = 1.0 - b1t_, c2 = 1.0 - b2t_;
  for (std::size_t k = 0; k < pt.size(); ++k) {
    std::vector<double>& m = m_[k];
    std::vector<double>& v = v_[k];
    const bool decay = pt[k].decay && h_.weight_decay != 0;
    for (Eigen::Index i = 0; i < pt[k].size(); ++i) {
      const std::size_t u = static_cast<std::size_t>(i);
      const double gi = static_cast<double>(gt[k].data[i]);
      double w = static_cast<double>(pt[k].data[i]);
      if (decay) w = w * (1.0 - lr * h_.weight_decay);
      m[u] = h_.beta1 * m[u] + (1.0 - h_.beta1) * gi;
      v[u] = h_.beta2 * v[u] + (1.0 - h_.beta2) * (gi * gi);
      const double mhat = m[u] / c1, vhat = v[u] / c2;
      w = w - lr * mhat / (std::sqrt(vhat) + h_.eps);
      pt[k].data[i] = static_cast<T>(w);
    }
  }
}

template <typename T>
void AdamW<T>::Restore(int steps, std::vector<std::vector<double>> m,
                       std::vector<std::vector<double>> v) {
  t_ = 0;
  b1t_ = b2t_ = 1;
  for (int k = 0; k < steps; ++k) {  // the same running products as Step's
    ++t_;
    b1t_ *= h_.beta1;
    b2t_ *= h_.beta2;
  }
  m_ = std::move(m);
  v_ = std::move(v);
}

double LearningRate(const Schedule& s, int step) {
  if (step < s.warmup) return s.lr * static_cast<double>(step + 1) / static_cast<double>(s.warmup);
  const double span = static_cast<double>(std::max(1, s.steps - s.warmup));
  const double q = std::min(1.0, static_cast<double>(step - s.warmup) / span);
  const double pi = 3.14159265358979323846;
  return s.min_lr + (s.lr - s.min_lr) * 0.5 * (1.0 + std::cos(pi * q));
}

std::vector<Sequence> SampleBatch(const std::vector<int>& stream, int batch, int length,
                                  std::uint64_t seed, int step, int repeat_percent) {
  constexpr std::uint64_t kRepeatSalt = 0x5245504541545321ull;  // "REPEATS!"
  std::vector<Sequence> out;
  const std::uint64_t range = stream.size() > static_cast<std::size_t>(length)
                                  ? stream.size() - static_cast<std::size_t>(length)
                                  : 0;
  if (range == 0 || length < 1) return out;
  const std::uint64_t key = rng::Mix64(seed) ^ rng::Mix64(static_cast<std::uint64_t>(step));
  rng::SplitMix64 draw(key), repeat_draw(key ^ kRepeatSalt);
  std::vector<int> w(static_cast<std::size_t>(length) + 1);  // the window, length + 1 tokens
  for (int b = 0; b < batch; ++b) {
    const auto start = static_cast<std::ptrdiff_t>(draw.Next() % range);
    std::copy(stream.begin() + start, stream.begin() + start + length + 1, w.begin());
    if (repeat_percent > 0 && length >= 8) {
      const std::uint64_t u = repeat_draw.Next();
      if (static_cast<int>(u % 100) < repeat_percent) {
        const auto span = static_cast<std::ptrdiff_t>(4 + (u >> 8) % static_cast<std::uint64_t>(length / 2 - 3));
        std::copy(stream.begin() + start, stream.begin() + start + length + 1 - span, w.begin() + span);
      }
    }
    Sequence s;
    s.tokens.assign(w.begin(), w.end() - 1);
    s.targets.assign(w.begin() + 1, w.end());
    out.push_back(std::move(s));
  }
  return out;
}

template <typename T>
double ClipGradNorm(Params<T>& g, double max_norm) {
  std::vector<TensorRef<T>> gt = Tensors(g);
  double sum = 0;
  for (const TensorRef<T>& t : gt) {
    for (Eigen::Index i = 0; i < t.size(); ++i) {
      const double x = static_cast<double>(t.data[i]);
      sum += x * x;
    }
  }
  const double norm = std::sqrt(sum);
  if (max_norm > 0 && norm > max_norm) {
    const T factor = static_cast<T>(max_norm / norm);
    for (TensorRef<T>& t : gt) {
      for (Eigen::Index i = 0; i < t.size(); ++i) t.data[i] = t.data[i] * factor;
    }
  }
  return norm;
}

template <typename T>
bool LanguageModelProblem<T>::Reset(const TrainConfig& cfg, std::vector<int> stream, std::string* error) {
  const std::string problem = CheckModelConfig(cfg.model);
  if (!problem.empty()) return linalg::Fail(error, problem);
  if (cfg.length < 1 || cfg.length > cfg.model.context)
    return linalg::Fail(error, "length must be 1 to the context");
  if (cfg.batch < 1) return linalg::Fail(error, "batch must be at least 1");
  if (stream.size() <= static_cast<std::size_t>(cfg.length) + 1)
    return linalg::Fail(error, "the token stream is shorter than one sequence");
  for (int id : stream) {
    if (id < 0 || id >= cfg.model.vocab) return linalg::Fail(error, "token id out of the vocabulary");
  }
  cfg_ = cfg;
  stream_ = std::move(stream);
  return true;
}

template <typename T>
model::Params<T> LanguageModelProblem<T>::InitialParams() const {
  return InitParams<T>(cfg_.model, cfg_.seed);
}

template <typename T>
AdamW<T> LanguageModelProblem<T>::InitialOptimizer(const model::Params<T>&) const {
  return AdamW<T>(cfg_.adamw);  // the moments are made by the first step
}

template <typename T>
std::vector<Sequence> LanguageModelProblem<T>::BatchFor(int k) const {
  const int step = k - 1;  // the model counts its steps from 0
  std::vector<Sequence> batch = SampleBatch(stream_, cfg_.batch, cfg_.length, cfg_.seed, step, cfg_.repeat_percent);
  if (cfg_.dropout > 0) {
    constexpr std::uint64_t kDropoutSalt = 0x44524f504f555421ULL;  // "DROPOUT!"
    const std::uint64_t base = rng::Mix64(rng::Mix64(cfg_.seed) ^ rng::Mix64(static_cast<std::uint64_t>(step)) ^ kDropoutSalt);
    for (std::size_t b = 0; b < batch.size(); ++b) {
      batch[b].dropout = cfg_.dropout;
      batch[b].dropout_seed = base + b;
    }
  }
  return batch;
}

template <typename T>
bool LanguageModelProblem<T>::LossAndGrads(const model::Params<T>& p, const std::vector<Sequence>& batch,
                                           model::Params<T>* grads, StepMetrics* m, std::string* why) const {
  const double loss = LossAndGrad(*grads, p, cfg_.model, batch, why, cfg_.threads);
  if (!std::isfinite(loss)) return linalg::Fail(why, why->empty() ? "loss is not finite" : *why);
  m->loss = loss;
  return true;
}

template <typename T>
double LanguageModelProblem<T>::ClipGradients(model::Params<T>& grads, StepMetrics* m) const {
  m->grad_norm = ClipGradNorm(grads, cfg_.clip);  // the norm before clipping
  return m->grad_norm;
}

template <typename T>
bool LanguageModelProblem<T>::Update(int k, model::Params<T>& p, AdamW<T>& o, model::Params<T>& grads, StepMetrics* m) const {
  m->step = k - 1;
  m->lr = LearningRate(cfg_.schedule, k - 1);
  o.Step(p, grads, m->lr);
  for (const TensorRef<T>& t : Tensors(p)) {
    for (Eigen::Index i = 0; i < t.size(); ++i) {
      if (!std::isfinite(t.data[i])) return false;
    }
  }
  return true;
}

template class AdamW<float>;
template class AdamW<double>;
template double ClipGradNorm<float>(Params<float>&, double);
template double ClipGradNorm<double>(Params<double>&, double);
template class LanguageModelProblem<float>;
template class LanguageModelProblem<double>;

}  // namespace model

namespace training {
template class Trainer<model::LanguageModelProblem<float>>;
template class Trainer<model::LanguageModelProblem<double>>;
}  // namespace training
}  // namespace attn

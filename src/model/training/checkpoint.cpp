// Training checkpoints (checkpoint.h).
#include "model/training/checkpoint.h"

#include "engine/linalg/linalg.h"

#include <cstring>
#include <fstream>
#include <sstream>

namespace attn {
namespace model {

namespace {
const char kMagic[] = "attnlab-checkpoint-1\n";

template <typename X>
void Put(std::string* out, const X* p, std::size_t n) {
  out->append(reinterpret_cast<const char*>(p), n * sizeof(X));
}
template <typename X>
bool Get(const std::string& in, std::size_t* pos, X* p, std::size_t n) {
  const std::size_t bytes = n * sizeof(X);
  if (in.size() - *pos < bytes) return false;
  std::memcpy(p, in.data() + *pos, bytes);
  *pos += bytes;
  return true;
}
}  // namespace

bool WriteCheckpoint(const std::string& path, std::uint64_t config_hash, const Trainer<float>& t,
                     std::string* error) {
  Params<float> p = t.params();
  std::vector<TensorRef<float>> ts = Tensors(p);
  const auto& m = t.optimizer().m();
  const auto& v = t.optimizer().v();
  std::string out(kMagic);
  const std::int64_t step = t.step();
  const std::uint64_t count = ts.size();
  Put(&out, &config_hash, 1);
  Put(&out, &step, 1);
  Put(&out, &count, 1);
  for (std::size_t k = 0; k < ts.size(); ++k) {
    const std::uint64_t size = static_cast<std::uint64_t>(ts[k].size());
    Put(&out, &size, 1);
    Put(&out, ts[k].data, size);
    std::vector<double> zero;
    const std::vector<double>& mk = m.empty() ? (zero.assign(size, 0.0), zero) : m[k];
    Put(&out, mk.data(), size);
    const std::vector<double>& vk = v.empty() ? (zero.assign(size, 0.0), zero) : v[k];
    Put(&out, vk.data(), size);
  }
  // Write beside, then rename: a run killed while writing keeps its previous checkpoint.
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary);
    f.write(out.data(), static_cast<std::streamsize>(out.size()));
    if (!f) return linalg::Fail(error, "cannot write " + tmp);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) return linalg::Fail(error, "cannot rename " + tmp);
  return true;
}

bool ReadCheckpoint(const std::string& path, std::uint64_t config_hash, Trainer<float>* t,
                    const AdamWHyper& h, std::string* error) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return linalg::Fail(error, "cannot read " + path);
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string in = ss.str();
  const std::size_t magic = sizeof(kMagic) - 1;
  if (in.compare(0, magic, kMagic) != 0) return linalg::Fail(error, path + ": not a checkpoint");
  std::size_t pos = magic;
  std::uint64_t hash = 0, count = 0;
  std::int64_t step = 0;
  if (!Get(in, &pos, &hash, 1) || !Get(in, &pos, &step, 1) || !Get(in, &pos, &count, 1))
    return linalg::Fail(error, path + ": truncated");
  if (hash != config_hash)
    return linalg::Fail(error, path + ": written for another configuration");
  Params<float> p = t->params();
  std::vector<TensorRef<float>> ts = Tensors(p);
  if (count != ts.size()) return linalg::Fail(error, path + ": wrong tensor count");
  std::vector<std::vector<double>> m(ts.size()), v(ts.size());
  for (std::size_t k = 0; k < ts.size(); ++k) {
    std::uint64_t size = 0;
    if (!Get(in, &pos, &size, 1)) return linalg::Fail(error, path + ": truncated");
    if (size != static_cast<std::uint64_t>(ts[k].size()))
      return linalg::Fail(error, path + ": tensor " + ts[k].name + " has the wrong size");
    m[k].resize(size);
    v[k].resize(size);
    if (!Get(in, &pos, ts[k].data, size) || !Get(in, &pos, m[k].data(), size) ||
        !Get(in, &pos, v[k].data(), size))
      return linalg::Fail(error, path + ": truncated");
  }
  if (pos != in.size()) return linalg::Fail(error, path + ": trailing bytes");
  AdamW<float> opt(h);
  opt.Restore(static_cast<int>(step), std::move(m), std::move(v));
  t->Restore(static_cast<int>(step), std::move(p), std::move(opt));
  return true;
}

}  // namespace model
}  // namespace attn

// Parameters <-> safetensors tensors (model_file.h).
#include "model/format/model_file.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace attn {
namespace model {

namespace {
const char* const kFields[] = {"vocab", "d_model", "layers", "heads", "context", "mlp"};
int* Field(ModelConfig& c, int k) {
  int* fields[] = {&c.vocab, &c.d_model, &c.layers, &c.heads, &c.context, &c.mlp};
  return fields[k];
}
bool Fail(std::string* error, const std::string& message) {
  if (error) *error = "model file: " + message;
  return false;
}
}  // namespace

StFile ParamsToFile(Params<float>& p, const ModelConfig& c, Dtype dtype) {
  StFile f;
  f.metadata["format"] = "attnlab-model-1";
  ModelConfig copy = c;
  for (int k = 0; k < 6; ++k) f.metadata[kFields[k]] = std::to_string(*Field(copy, k));
  for (const TensorRef<float>& t : Tensors(p)) {
    StTensor st;
    st.name = t.name;
    st.dtype = dtype;
    st.shape = t.shape;
    st.values.reserve(static_cast<std::size_t>(t.size()));
    for (Eigen::Index r = 0; r < t.rows; ++r) {
      for (Eigen::Index col = 0; col < t.cols; ++col) st.values.push_back(t.data[col * t.rows + r]);
    }
    f.tensors.push_back(std::move(st));
  }
  return f;
}

bool ConfigFromFile(const StFile& f, ModelConfig* c, std::string* error) {
  const auto format = f.metadata.find("format");
  if (format == f.metadata.end() || format->second != "attnlab-model-1")
    return Fail(error, "__metadata__ format is not \"attnlab-model-1\"");
  for (int k = 0; k < 6; ++k) {
    const auto it = f.metadata.find(kFields[k]);
    if (it == f.metadata.end()) return Fail(error, std::string("__metadata__ lacks ") + kFields[k]);
    const std::string& s = it->second;
    if (s.empty() || s.size() > 7 || s.find_first_not_of("0123456789") != std::string::npos)
      return Fail(error, std::string("__metadata__ ") + kFields[k] + " is not a whole number: \"" + s + "\"");
    *Field(*c, k) = std::stoi(s);
  }
  const std::string problem = CheckModelConfig(*c);
  if (!problem.empty()) return Fail(error, problem);
  return true;
}

bool ParamsFromFile(const StFile& f, const ModelConfig& c, Params<float>* p, std::string* error) {
  std::map<std::string, const StTensor*> by_name;
  double held = 0;  // the numbers in the file
  for (const StTensor& t : f.tensors) {
    by_name[t.name] = &t;
    held += static_cast<double>(t.values.size());
  }
  // The parameters c asks for, counted before anything is allocated: a file whose metadata
  // claims a config far larger than its tensors (vocab 9999999, ...) is refused here instead of
  // allocating terabytes (found by tests/fuzz safetensors). Only an absurd claim stops here (more
  // than twice the file's numbers, plus a margin); a near miss gets the exact tensor below.
  const double d = c.d_model, mlp = c.mlp;
  const double wanted = (static_cast<double>(c.vocab) + c.context) * d + 2 * d +
                        c.layers * (4 * d * d + 4 * d + 2 * d * mlp + mlp + d);
  if (wanted > 2 * held + 65536)
    return Fail(error, "the config wants " + std::to_string(static_cast<long long>(std::min(wanted, 9e18))) +
                           " parameters, the file holds " + std::to_string(static_cast<long long>(held)));
  *p = ZeroParams<float>(c);
  std::vector<TensorRef<float>> want = Tensors(*p);
  for (const TensorRef<float>& t : want) {
    const auto it = by_name.find(t.name);
    if (it == by_name.end()) return Fail(error, "tensor '" + t.name + "' is missing");
    const StTensor& st = *it->second;
    if (st.shape != t.shape)
      return Fail(error, "tensor '" + t.name + "' has shape " + ShapeText(st.shape) +
                             ", the config wants " + ShapeText(t.shape));
    for (Eigen::Index r = 0; r < t.rows; ++r) {
      for (Eigen::Index col = 0; col < t.cols; ++col) {
        const float v = st.values[static_cast<std::size_t>(r * t.cols + col)];
        if (!std::isfinite(v)) return Fail(error, "tensor '" + t.name + "' holds a non-finite value");
        t.data[col * t.rows + r] = v;
      }
    }
    by_name.erase(it);
  }
  if (!by_name.empty()) return Fail(error, "unexpected tensor '" + by_name.begin()->first + "'");
  return true;
}

}  // namespace model
}  // namespace attn

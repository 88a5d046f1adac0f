// The model's parameters in a safetensors file (safetensors.h) and back: one tensor per
// Tensors() entry, same name, row-major, and the config in "__metadata__" ("vocab", "d_model",
// "layers", "heads", "context", "mlp" as decimal strings, "format": "attnlab-model-1").
// Core code (no JSON): the bytes are written and parsed by attn_model_io.
#pragma once

#include "model/arch/model.h"
#include "model/format/safetensors.h"

#include <string>

namespace attn {
namespace model {

// Every tensor stored as `dtype` (F16 rounds to nearest even), the config in the metadata.
StFile ParamsToFile(Params<float>& p, const ModelConfig& c, Dtype dtype);
// The config written in the metadata; false with a message when a field is missing or bad.
bool ConfigFromFile(const StFile& f, ModelConfig* c, std::string* error = nullptr);
// The parameters for config c: every expected tensor present with its exact shape and only
// finite values, no other tensor. False with a message naming the first problem.
bool ParamsFromFile(const StFile& f, const ModelConfig& c, Params<float>* p,
                    std::string* error = nullptr);

}  // namespace model
}  // namespace attn

// A training checkpoint: the step, the parameters and AdamW's moments, so that a stopped run
// continues to the same bits as an uninterrupted one (batches depend only on the seed and the
// step). A plain binary file of this program's own (not for sharing; the shipped weights are
// safetensors):
//   "attnlab-checkpoint-1\n", u64 config hash, i64 step, u64 tensor count, then per tensor in
//   Tensors' order: u64 size, size float32 parameters, size float64 m, size float64 v
// (little-endian, as on every machine the lab runs on).
#pragma once

#include "model/training/train.h"

#include <cstdint>
#include <string>

namespace attn {
namespace model {

bool WriteCheckpoint(const std::string& path, std::uint64_t config_hash, const Trainer<float>& t,
                     std::string* error = nullptr);
// Reads a checkpoint written for the same config (hash) and model shapes into `t` (after its
// Reset). False with a message on any mismatch, a short file or a bad header.
bool ReadCheckpoint(const std::string& path, std::uint64_t config_hash, Trainer<float>* t,
                    const AdamWHyper& h, std::string* error = nullptr);

}  // namespace model
}  // namespace attn

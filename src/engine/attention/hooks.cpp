// The hook points' names (hooks.h), TransformerLens's spelling.
#include "engine/attention/hooks.h"

#include <cstdlib>

namespace attn {

namespace {

// The name after "blocks.L." (or the whole name for the points outside the blocks), by point.
const char* Suffix(HookPoint p) {
  switch (p) {
    case HookPoint::kEmbed: return "hook_embed";
    case HookPoint::kPosEmbed: return "hook_pos_embed";
    case HookPoint::kResidPre: return "hook_resid_pre";
    case HookPoint::kLn1: return "ln1.hook_normalized";
    case HookPoint::kQ: return "attn.hook_q";
    case HookPoint::kK: return "attn.hook_k";
    case HookPoint::kV: return "attn.hook_v";
    case HookPoint::kAttnScores: return "attn.hook_attn_scores";
    case HookPoint::kPattern: return "attn.hook_pattern";
    case HookPoint::kZ: return "attn.hook_z";
    case HookPoint::kAttnOut: return "hook_attn_out";
    case HookPoint::kResidMid: return "hook_resid_mid";
    case HookPoint::kLn2: return "ln2.hook_normalized";
    case HookPoint::kMlpPre: return "mlp.hook_pre";
    case HookPoint::kMlpPost: return "mlp.hook_post";
    case HookPoint::kMlpOut: return "hook_mlp_out";
    case HookPoint::kResidPost: return "hook_resid_post";
    case HookPoint::kLnFinal: return "ln_final.hook_normalized";
  }
  return "";
}

}  // namespace

bool PerHead(HookPoint p) {
  return p == HookPoint::kQ || p == HookPoint::kK || p == HookPoint::kV || p == HookPoint::kAttnScores ||
         p == HookPoint::kPattern || p == HookPoint::kZ;
}

bool InBlock(HookPoint p) {
  return p != HookPoint::kEmbed && p != HookPoint::kPosEmbed && p != HookPoint::kLnFinal;
}

std::string HookName(HookPoint p, int layer) {
  if (!InBlock(p)) return Suffix(p);
  return "blocks." + std::to_string(layer) + "." + Suffix(p);
}

bool ParseHookName(const std::string& name, HookPoint* point, int* layer) {
  for (int k = 0; k < kHookPointCount; ++k) {
    const HookPoint p = static_cast<HookPoint>(k);
    const std::string suffix = Suffix(p);
    if (!InBlock(p)) {
      if (name != suffix) continue;
      *point = p;
      *layer = -1;
      return true;
    }
    const std::string prefix = "blocks.";
    if (name.size() <= prefix.size() + suffix.size() + 1 || name.compare(0, prefix.size(), prefix) != 0 ||
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0 ||
        name[name.size() - suffix.size() - 1] != '.')
      continue;
    const std::string digits = name.substr(prefix.size(), name.size() - suffix.size() - 1 - prefix.size());
    if (digits.empty() || digits.size() > 6 || digits.find_first_not_of("0123456789") != std::string::npos ||
        (digits.size() > 1 && digits[0] == '0'))
      continue;
    *point = p;
    *layer = std::atoi(digits.c_str());
    return true;
  }
  return false;
}

}  // namespace attn

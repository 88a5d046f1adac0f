// The lab's model through issue 40's tools (model_inspect.h).
#include "model/lab/model_inspect.h"

#include "engine/linalg/linalg.h"

#include <cstdlib>

namespace attn {
namespace model {

bool ParseTokenChoice(const LabModel& m, const std::string& text, const char* field, int* id, std::string* error) {
  *id = -1;
  if (text.empty()) return true;
  const int vocab = m.config().vocab;
  if (text.size() > 1 && text[0] == '#' && text.find_first_not_of("0123456789", 1) == std::string::npos) {
    const long long n = text.size() > 12 ? -1 : std::atoll(text.c_str() + 1);
    if (n < 0 || n >= vocab)
      return linalg::Fail(error, std::string(field) + ": expected a token id from #0 to #" + std::to_string(vocab - 1) +
                                     ", got " + text);
    *id = static_cast<int>(n);
    return true;
  }
  std::vector<int> ids;
  std::string why;
  if (!m.tokenizer().Encode(text, &ids, &why))
    return linalg::Fail(error, std::string(field) + ": expected valid UTF-8, got " + why);
  if (ids.size() != 1)
    return linalg::Fail(error, std::string(field) + ": expected one token of this model, got \"" + text + "\", " +
                                   std::to_string(ids.size()) + " tokens (#<id> names any token by its number)");
  *id = ids[0];
  return true;
}

bool AttributeIds(const LabModel& m, const std::vector<int>& ids, int target, int foil, Attribution* out,
                  std::string* error) {
  Sequence seq;
  seq.tokens = ids;
  seq.targets.assign(ids.size(), -1);
  seq.threads = m.threads;
  SequenceActs<float> acts;
  if (!Forward(acts, m.params, m.config(), seq, error, /*last_only=*/true)) return false;
  return ComputeAttribution(m.params, m.config(), ids, acts, target, foil, out, error);
}

}  // namespace model
}  // namespace attn

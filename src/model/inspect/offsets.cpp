// The RoPE scene (offsets.h): layer 0's scores of two words at many places, from the forward.
#include "model/inspect/offsets.h"

#include "engine/attention/hooks.h"

#include <algorithm>
#include <cmath>

namespace attn {
namespace model {

namespace {

// The forward stops once the score is read: nothing after layer 0's scores is needed.
constexpr const char* kRead = "read";

double Spread(const std::vector<double>& v) {
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  return v.empty() ? 0.0 : *hi - *lo;
}

double Mean(const std::vector<double>& v) {
  double sum = 0;
  for (double x : v) sum += x;
  return v.empty() ? 0.0 : sum / static_cast<double>(v.size());
}

}  // namespace

bool MeasureOffsets(const Params<float>& p, const ModelConfig& c, int a, int b, int head, int offset, OffsetScene* out,
                    std::string* error) {
  auto fail = [&](const std::string& m) {
    if (error) *error = m;
    return false;
  };
  if (head < 0 || head >= c.heads) return fail("head: expected a head index from 0 to " + std::to_string(c.heads - 1));
  if (a < 0 || a >= c.vocab || b < 0 || b >= c.vocab) return fail("token id out of the vocabulary");
  if (offset < 0 || offset + 2 > c.context) return fail("offset: expected 0 to " + std::to_string(c.context - 2));
  OffsetScene r;
  r.head = head;
  r.query_token = a;
  r.key_token = b;
  r.offset = offset;
  r.rotary = c.rotary;
  // Layer 0 alone (as the probe cuts the model: stored weights keep block 0 where it was)
  Params<float> first;
  first.wte = p.wte;
  first.wpe = p.wpe;
  first.blocks.assign(p.blocks.begin(), p.blocks.begin() + 1);
  first.lnf_w = p.lnf_w;
  first.lnf_b = p.lnf_b;
  first.lm_head = p.lm_head;
  first.stored = p.stored;
  auto score = [&](int start, int gap, double* value, std::string* why) {
    Sequence s;
    s.tokens.assign(static_cast<std::size_t>(start + gap + 1), b);
    s.tokens.back() = a;
    s.targets.assign(s.tokens.size(), -1);
    Hooks<float> hooks;
    hooks.Add(HookPoint::kAttnScores, 0, head, [&](const HookSite&, Mat<float>& scores, std::string* stop) {
      *value = static_cast<double>(scores(start + gap, start));
      *stop = kRead;
      return false;
    });
    SequenceActs<float> acts;
    std::string e;
    if (Forward(acts, first, c, s, &e, /*last_only=*/true, &hooks)) return true;  // (never: the hook stops it)
    if (e.size() >= 4 && e.compare(e.size() - 4, 4, kRead) == 0) return true;
    *why = e;
    return false;
  };
  static const int kStarts[] = {0, 1, 2, 3, 5, 8, 13, 21, 34, 55};
  for (int start : kStarts) {
    if (start + offset + 2 > c.context) break;
    double same = 0, moved = 0;
    std::string why;
    if (!score(start, offset, &same, &why) || !score(start, offset + 1, &moved, &why)) return fail(why);
    r.starts.push_back(start);
    r.same.push_back(same);
    r.moved.push_back(moved);
  }
  r.same_spread = Spread(r.same);
  r.moved_spread = Spread(r.moved);
  r.change = std::abs(Mean(r.moved) - Mean(r.same));
  *out = std::move(r);
  return true;
}

bool SceneForQuery(const Params<float>& p, const ModelConfig& c, const std::vector<int>& ids,
                   const SequenceActs<float>& acts, int layer, int head, int query, int first_key, OffsetScene* out,
                   int* key_position, std::string* error) {
  const int n = static_cast<int>(ids.size());
  if (layer < 0 || layer >= static_cast<int>(acts.blocks.size()) || head < 0 ||
      head >= static_cast<int>(acts.blocks[static_cast<std::size_t>(layer)].attn.heads.size())) {
    if (error) *error = "layer, head: not in the run";
    return false;
  }
  if (query < 0 || query >= n) {
    if (error) *error = "query: out of range";
    return false;
  }
  const Mat<float>& w = acts.blocks[static_cast<std::size_t>(layer)].attn.heads[static_cast<std::size_t>(head)].weights;
  int key = query;
  for (int j = std::max(0, first_key); j < query; ++j)
    if (key == query || w(query, j) > w(query, key)) key = j;
  if (!MeasureOffsets(p, c, ids[static_cast<std::size_t>(query)], ids[static_cast<std::size_t>(key)], head, query - key, out,
                      error))
    return false;
  *key_position = key;
  return true;
}

}  // namespace model
}  // namespace attn

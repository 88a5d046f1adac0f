// Fuzz target: a link's hash (api/url_state.h), as a course page or a learner may hand it over.
// Properties: no crash; every error names a field and says one line; the state a link gives is
// one the state table accepts again as a whole (StateToJson -> ApplyStatePatch), and its own
// link reads back to the same state; percent-encoding round-trips any UTF-8 text.
#include "api/url_state.h"
#include "fuzz_common.h"

using namespace attn;
using namespace attn::api;
using attn::fuzz::Check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view hash = attn::fuzz::AsText(data, size);
  static const LabState defaults{};

  const LinkPatch patch = ReadLink(hash);
  for (const std::string& key : patch.keys) (void)PatchOfKey(patch, key);

  const LinkResult r = ApplyLink(defaults, hash);
  for (const LinkError& e : r.errors) attn::fuzz::CheckMessage(e.message, "ApplyLink error for " + e.field);

  // The state it gave is a state: accepted again as a whole, and its link gives it back.
  const PatchResult again = ApplyStatePatch(defaults, StateToJson(r.state));
  Check(again.ok, "a link's state is refused as a patch: " + again.message);
  const std::string link = WriteLink(r.state, TrainState{});
  const LinkResult back = ApplyLink(defaults, link);
  Check(back.errors.empty(), "the state's own link is refused: " + link + " -> " +
                                 (back.errors.empty() ? "" : back.errors[0].field + ": " + back.errors[0].message));
  Check(Dump(StateToJson(back.state)) == Dump(StateToJson(r.state)), "the state's own link gives another state: " + link);

  std::string decoded;
  if (PercentDecode(hash, &decoded)) {
    std::string round;
    Check(PercentDecode(PercentEncode(decoded), &round) && round == decoded, "PercentEncode does not round-trip");
  }
  return 0;
}

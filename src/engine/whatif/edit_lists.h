// The knock-out lists of a run, typed: parsed once, where their text comes in (the state's JSON,
// the URL, the page API, the CLI, a test's assignment), and carried as indices after that. The
// text stays as it was given: the state writes it back unchanged, and a refusal quotes it.
//   KeyList  "1, 3"     keys no query may attend to (the tokens' indices)
//   HeadList "0:1,1:3"  layer:head pairs whose output is set to zero
// The ranges (the number of tokens, layers, heads) are the run's: Fits() checks them where they
// are known (CheckEdits, model::CheckModelEdits), with the one wording of the refusals.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace attn {

struct KeyList {
  std::string text;       // as given; "" = none
  std::vector<int> keys;  // ascending, each once (valid when ok)
  bool ok = true;         // every comma-separated item is an index: digits only, at most 6

  KeyList() = default;
  KeyList(std::string given);  // NOLINT(google-explicit-constructor): a text is parsed where it is set
  KeyList(const char* given) : KeyList(std::string(given)) {}

  bool empty() const { return text.empty(); }
  // ok and every key below n
  bool Fits(int n) const { return ok && (keys.empty() || keys.back() < n); }
  bool Has(int key) const;
  // The list with `key` added or taken away, written plainly ("1,3"): what a click patches in.
  std::string Toggled(int key) const;
};

struct HeadList {
  std::string text;                        // as given; "" = none
  std::vector<std::pair<int, int>> heads;  // (layer, head), ascending, each once (valid when ok)
  bool ok = true;                          // every item is "layer:head", both indices as KeyList's

  HeadList() = default;
  HeadList(std::string given);  // NOLINT(google-explicit-constructor)
  HeadList(const char* given) : HeadList(std::string(given)) {}

  bool empty() const { return text.empty(); }
  // ok and every pair inside (layers, heads)
  bool Fits(int layers, int heads) const;
  // The heads of one layer, ascending.
  std::vector<int> OfLayer(int layer) const;
  bool Has(int layer, int head) const;
  std::string Toggled(int layer, int head) const;
};

}  // namespace attn

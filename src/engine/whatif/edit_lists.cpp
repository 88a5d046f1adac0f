// The knock-out lists (edit_lists.h): the one parser of "1, 3" and "0:1, 1:3".
#include "engine/whatif/edit_lists.h"

#include <algorithm>

namespace attn {

namespace {

// "a, b,,c " -> {"a", "b", "c"}: the comma-separated items, trimmed, empty ones skipped.
// (No istringstream: iostreams would add tens of KB to the default page's wasm.)
std::vector<std::string> Items(const std::string& text) {
  std::vector<std::string> items;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    const std::string item = text.substr(start, comma - start);
    const std::size_t b = item.find_first_not_of(" \t"), e = item.find_last_not_of(" \t");
    if (b != std::string::npos) items.push_back(item.substr(b, e - b + 1));
    start = comma + 1;
  }
  return items;
}

std::string Trim(const std::string& s) {
  const std::size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

// A non-negative integer, digits only (no sign, no exponent, at most 6 digits).
bool ParseIndex(const std::string& s, int* out) {
  if (s.empty() || s.size() > 6) return false;
  int v = 0;
  for (char ch : s) {
    if (ch < '0' || ch > '9') return false;
    v = v * 10 + (ch - '0');
  }
  *out = v;
  return true;
}

template <typename X>
void SortUnique(std::vector<X>* v) {
  std::sort(v->begin(), v->end());
  v->erase(std::unique(v->begin(), v->end()), v->end());
}

}  // namespace

KeyList::KeyList(std::string given) : text(std::move(given)) {
  for (const std::string& item : Items(text)) {
    int k = 0;
    if (!ParseIndex(item, &k)) {
      ok = false;
      keys.clear();
      return;
    }
    keys.push_back(k);
  }
  SortUnique(&keys);
}

bool KeyList::Has(int key) const { return std::binary_search(keys.begin(), keys.end(), key); }

std::string KeyList::Toggled(int key) const {
  std::vector<int> v = keys;
  const auto at = std::find(v.begin(), v.end(), key);
  if (at == v.end()) v.push_back(key);
  else v.erase(at);
  std::sort(v.begin(), v.end());
  std::string out;
  for (int k : v) out += (out.empty() ? "" : ",") + std::to_string(k);
  return out;
}

HeadList::HeadList(std::string given) : text(std::move(given)) {
  for (const std::string& item : Items(text)) {
    const std::size_t colon = item.find(':');
    int l = 0, h = 0;
    if (colon == std::string::npos || !ParseIndex(Trim(item.substr(0, colon)), &l) ||
        !ParseIndex(Trim(item.substr(colon + 1)), &h)) {
      ok = false;
      heads.clear();
      return;
    }
    heads.emplace_back(l, h);
  }
  SortUnique(&heads);
}

bool HeadList::Fits(int layers, int heads_per_layer) const {
  if (!ok) return false;
  for (const auto& [l, h] : heads)
    if (l >= layers || h >= heads_per_layer) return false;
  return true;
}

std::vector<int> HeadList::OfLayer(int layer) const {
  std::vector<int> out;
  for (const auto& [l, h] : heads)
    if (l == layer) out.push_back(h);
  return out;
}

bool HeadList::Has(int layer, int head) const {
  return std::binary_search(heads.begin(), heads.end(), std::make_pair(layer, head));
}

std::string HeadList::Toggled(int layer, int head) const {
  std::vector<std::pair<int, int>> v = heads;
  const auto at = std::find(v.begin(), v.end(), std::make_pair(layer, head));
  if (at == v.end()) v.emplace_back(layer, head);
  else v.erase(at);
  std::sort(v.begin(), v.end());
  std::string out;
  for (const auto& [l, h] : v) out += (out.empty() ? "" : ",") + std::to_string(l) + ":" + std::to_string(h);
  return out;
}

}  // namespace attn

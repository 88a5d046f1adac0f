// The names of an enum's values, one table per enum: the page's JSON, the URL, the CLI and the
// settings tables spell a value the same way, and a name reads back as the value it names.
//   constexpr Named<Optimizer> kOptimizerNames[] = {{Optimizer::kAdam, "adam"}, {Optimizer::kSgd, "sgd"}};
//   NameIn(kOptimizerNames, Optimizer::kSgd) == "sgd"; ParseIn(kOptimizerNames, "adam", &o) sets o.
#pragma once

#include <cstddef>
#include <string>

namespace attn {

template <typename E>
struct Named {
  E value;
  const char* name;
};

// The name of `value`; the first row's for a value the table does not list (not one of the
// enum's: a cast from a bad integer).
template <typename E, std::size_t N>
const char* NameIn(const Named<E> (&table)[N], E value) {
  for (const Named<E>& row : table)
    if (row.value == value) return row.name;
  return table[0].name;
}

// The value named `name` into *out (when not null); false, and *out untouched, for a name the
// table does not list.
template <typename E, std::size_t N>
bool ParseIn(const Named<E> (&table)[N], const std::string& name, E* out) {
  for (const Named<E>& row : table) {
    if (name == row.name) {
      if (out) *out = row.value;
      return true;
    }
  }
  return false;
}

}  // namespace attn

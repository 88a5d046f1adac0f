// Settings tables (fields.h): the rules, the one wording of a refusal, and the lab's and
// training's tables against their structs.
#include "engine/base/fields.h"
#include "engine/lab/lab.h"
#include "engine/training/train.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <set>
#include <string>

using attn::FieldKind;
using attn::FieldRule;

namespace {
FieldRule Rule(FieldKind kind, double min, double max, bool min_open = false) {
  FieldRule r;
  r.kind = kind;
  r.min = min;
  r.max = max;
  r.min_open = min_open;
  return r;
}
}  // namespace

TEST_CASE("fields: what each kind of rule says it expects") {
  CHECK(attn::ExpectedText(Rule(FieldKind::kInteger, 1, 256)) == "an integer from 1 to 256");
  CHECK(attn::ExpectedText(Rule(FieldKind::kInteger, 0, 4294967295.0)) == "an integer from 0 to 4294967295");
  CHECK(attn::ExpectedText(Rule(FieldKind::kNumber, 0.001, 1000)) == "a number from 0.001 to 1000");
  CHECK(attn::ExpectedText(Rule(FieldKind::kNumber, 0, 10, true)) == "a number > 0 and <= 10");
  const double inf = std::numeric_limits<double>::infinity();
  CHECK(attn::ExpectedText(Rule(FieldKind::kNumber, 0, inf, true)) == "a number > 0");
  FieldRule any = Rule(FieldKind::kNumber, -inf, inf);
  any.nullable = true;
  CHECK(attn::ExpectedText(any) == "a finite number or null");
  CHECK(attn::ExpectedText(Rule(FieldKind::kBoolean, 0, 0)) == "true or false");
  FieldRule names = Rule(FieldKind::kName, 0, 0);
  names.names = {"adam", "sgd"};
  CHECK(attn::ExpectedText(names) == "one of \"adam\", \"sgd\"");
  CHECK(attn::ExpectedText(Rule(FieldKind::kText, 0, 0)) == "a string");
  CHECK(attn::RefusalText("train.batch", Rule(FieldKind::kInteger, 1, 256), "0") ==
        "train.batch: expected an integer from 1 to 256, got 0");
}

TEST_CASE("fields: numbers are accepted exactly inside their rule") {
  const FieldRule batch = Rule(FieldKind::kInteger, 1, 256);
  CHECK(attn::AcceptsNumber(batch, 1));
  CHECK(attn::AcceptsNumber(batch, 256));
  CHECK(attn::AcceptsNumber(batch, 4.0));
  CHECK_FALSE(attn::AcceptsNumber(batch, 0));
  CHECK_FALSE(attn::AcceptsNumber(batch, 257));
  CHECK_FALSE(attn::AcceptsNumber(batch, 4.5));
  CHECK_FALSE(attn::AcceptsNumber(batch, std::nan("")));
  CHECK_FALSE(attn::AcceptsNumber(batch, std::numeric_limits<double>::infinity()));
  const FieldRule lr = Rule(FieldKind::kNumber, 0, 10, true);
  CHECK_FALSE(attn::AcceptsNumber(lr, 0));  // open at 0
  CHECK(attn::AcceptsNumber(lr, 1e-300));
  CHECK(attn::AcceptsNumber(lr, 10));
  CHECK_FALSE(attn::AcceptsNumber(lr, 10.000000000000002));
  CHECK_FALSE(attn::AcceptsNumber(lr, std::nan("")));
}

TEST_CASE("fields: the lab's table has one row per setting, each read and written by its row") {
  const auto& table = attn::LabFields();
  std::set<std::string> names;
  for (const auto& f : table) CHECK_MESSAGE(names.insert(f.name).second, "twice: ", f.name);
  CHECK(names == std::set<std::string>{"sentence", "query", "projection", "temperature", "scaled", "dModel",
                                       "dK", "seed", "positional", "heads", "head", "normalizer", "causal",
                                       "dV", "target", "layer", "whatIfToken", "whatIfWith", "whatIfMode",
                                       "shuffle", "shuffleSeed", "knockoutKeys", "knockoutHeads", "valueToken",
                                       "valueA", "valueB"});
  // Every row changes its own member and only it: SameFields sees the change.
  for (const auto& f : table) {
    CAPTURE(f.name);
    attn::LabConfig a, b;
    switch (f.rule.kind) {
      case FieldKind::kInteger:
      case FieldKind::kNumber: {
        const double x = f.get_number(a) == f.rule.max ? f.rule.max - 1 : f.rule.max;
        f.set_number(b, x);
        CHECK(f.get_number(b) == x);
        break;
      }
      case FieldKind::kBoolean: f.set_number(b, f.get_number(a) != 0 ? 0 : 1); break;
      case FieldKind::kName: f.set_text(b, f.rule.names.back() == f.get_text(a) ? f.rule.names.front() : f.rule.names.back()); break;
      case FieldKind::kText: f.set_text(b, "ab cd"); break;
    }
    CHECK_FALSE(attn::SameFields(table, a, b));
    int differing = 0;
    for (const auto& g : table) differing += attn::SameFields(attn::FieldTable<attn::LabConfig>{g}, a, b) ? 0 : 1;
    CHECK(differing == 1);
  }
  CHECK(attn::SameFields(table, attn::LabConfig{}, attn::LabConfig{}));
}

TEST_CASE("fields: defaults come from the structs, and ranges from the engine's limits") {
  const auto& lab = attn::LabFields();
  CHECK(attn::DefaultText(*attn::FindField(lab, "sentence")) == "я люблю суши");
  CHECK(attn::DefaultText(*attn::FindField(lab, "temperature")) == "1");
  CHECK(attn::DefaultText(*attn::FindField(lab, "normalizer")) == "softmax");
  CHECK(attn::FindField(lab, "dModel")->rule.max == attn::kMaxDim);
  CHECK(attn::FindField(lab, "heads")->rule.max == attn::kMaxHeads);
  const auto& train = attn::TrainFields();
  CHECK(attn::FindField(train, "batch")->rule.max == attn::kMaxBatch);
  CHECK(attn::FindField(train, "lr")->rule.min_open);
  CHECK(attn::DefaultText(*attn::FindField(train, "task")) == "verb_object");
  CHECK(attn::FindField(train, "colour") == nullptr);
  // Every name a name row lists is one its enum parses (the list is built from the enum).
  for (const auto& f : train) {
    if (f.rule.kind != FieldKind::kName) continue;
    for (const std::string& n : f.rule.names) {
      attn::TrainConfig c;
      f.set_text(c, n);
      CHECK(f.get_text(c) == n);
    }
  }
  const std::string help = attn::FieldsHelp(train);
  CHECK(help.find("batch") != std::string::npos);
  CHECK(help.find("an integer from 1 to 256, default 16") != std::string::npos);
}

TEST_CASE("fields: ValidateTrainConfig refuses in the one wording") {
  attn::TrainConfig c;
  c.batch = 0;
  attn::TrainError e = attn::ValidateTrainConfig(c);
  CHECK(e.field == "batch");
  CHECK(e.message == "batch: expected an integer from 1 to 256, got 0");
  c = attn::TrainConfig{};
  c.lr = std::nan("");
  e = attn::ValidateTrainConfig(c);
  CHECK(e.message == "lr: expected a number > 0 and <= 10, got nan");
}

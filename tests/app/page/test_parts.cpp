// The parts tree (api::LabPartTree) and its one rule: a part is hidden or locked when it or a part
// that holds it is named. app::IsHidden / IsLocked are that rule; the interface's ui::Hidden and
// ui::Locked ask them, so the layout and the app cannot disagree.
#include "app/app.h"

#include <doctest/doctest.h>

#include <set>
#include <string>

namespace {

attn::api::LabState With(const char* hide, const char* lock = "") {
  attn::api::LabState lab;
  lab.hide = hide;
  lab.lock = lock;
  return lab;
}

}  // namespace

TEST_SUITE("app") {

TEST_CASE("the parts tree: every part once, every parent a part that comes before its children") {
  std::set<std::string> seen;
  for (const attn::api::LabPart& p : attn::api::LabPartTree()) {
    CAPTURE(p.name);
    CHECK(seen.insert(p.name).second);
    if (p.parent) CHECK(seen.count(p.parent) == 1);
  }
  CHECK(attn::api::LabParts().size() == attn::api::LabPartTree().size());
}

TEST_CASE("hiding or locking a part hides or locks what it holds, never what holds it") {
  // The tab hides its panels, and through the settings panel the settings groups.
  const attn::api::LabState attention = With("attention");
  for (const char* part : {"attention", "sentence", "settings", "steps", "weights", "vectors", "information",
                           "projection", "seed"})
    CHECK_MESSAGE(app::IsHidden(attention, part), part);
  for (const char* part : {"training", "train.task", "normalization", "header", "lesson", "tune"})
    CHECK_FALSE_MESSAGE(app::IsHidden(attention, part), part);
  // A child does not hide its parent or its siblings.
  const attn::api::LabState steps = With("steps");
  CHECK(app::IsHidden(steps, "steps"));
  CHECK_FALSE(app::IsHidden(steps, "attention"));
  CHECK_FALSE(app::IsHidden(steps, "weights"));
  // The header holds its share button; the Training tab its groups.
  CHECK(app::IsHidden(With("header"), "share"));
  CHECK(app::IsHidden(With("training"), "train.compare"));
  // Locking follows the same rule, on its own row.
  const attn::api::LabState locked = With("", "settings");
  CHECK(app::IsLocked(locked, "settings"));
  CHECK(app::IsLocked(locked, "normalizer"));
  CHECK_FALSE(app::IsLocked(locked, "weights"));
  CHECK_FALSE(app::IsHidden(locked, "normalizer"));
  // Unknown names are nobody's children.
  CHECK_FALSE(app::IsHidden(attention, "foo"));
}

TEST_CASE("a view is shown unless hidden, itself or through its tab; the sentence view needs one of its panels") {
  CHECK_FALSE(app::ViewVisible(With("attention"), "weights"));
  CHECK(app::ViewVisible(With("attention"), "training"));
  CHECK(app::ViewVisible(With("sentence"), "sentence"));
  CHECK_FALSE(app::ViewVisible(With("sentence,settings"), "sentence"));
  CHECK(app::ShownView(With("attention")) == "training");
}

}  // TEST_SUITE

// The page API's training JSON (training.h): one writer for runs A and B.
#include "api/train_json.h"
#include "app/training/training.h"

namespace app {

std::string Training::TrainingJson(const attn::api::LabState& lab, TrainingJsonOf what) const {
  const Training& t = *this;
  auto now = [&](const TrainRun& run) { return attn::api::RunToJson(run.trainer, run.view, t.query); };
  if (what == TrainingJsonOf::kLatest) {
    Json out = now(t.a);
    out["ok"] = true;
    out["b"] = t.compare ? now(t.b) : Json(nullptr);
    out["compare"] = lab.train.compare;
    return attn::api::Dump(out);
  }
  auto history = [&](const TrainRun& run) {
    Json h = attn::api::HistoryToJson(run.trainer);
    h["current"] = now(run);
    return h;
  };
  Json out = {{"ok", true}, {"state", attn::api::StateToJson(lab)["train"]}, {"query", t.query}};
  out["a"] = history(t.a);
  out["b"] = t.compare ? history(t.b) : Json(nullptr);
  return attn::api::Dump(out);
}

std::string Training::TrainStepsJson(const RoomContext& c, double steps) {
  // train(steps)'s one argument, by a row like every setting.
  struct Call {
    int steps = 0;
  };
  static const attn::Field<Call> row =
      attn::IntegerField<Call>("steps", &Call::steps, 0, kMaxApiSteps, "training steps to run now");
  if (!attn::AcceptsNumber(row.rule, steps))
    return attn::api::Dump(attn::api::Obj({{"ok", false}, {"field", "steps"},
                                {"error", attn::RefusalText("steps", row.rule, attn::FormatShortest(steps)) +
                                              " (call train() again for more)"}}));
  TrainSteps(c, static_cast<int>(steps));
  return TrainingJson(c.lab, TrainingJsonOf::kLatest);
}

}  // namespace app

// app::View and app::LabRequests (lab_view.h): what the rooms publish to each other is the rooms'
// own state, current after every change, and a request moves the room it names.
#include "app/app.h"

#include <doctest/doctest.h>

TEST_SUITE("app") {

TEST_CASE("the lab view points into the rooms and follows them") {
  app::AppState s;
  app::InitApp(s);
  app::LabView v = app::View(s);
  CHECK(v.lab == &s.lab);
  CHECK(v.attention.result == &s.attention.result);
  CHECK(v.attention.probe == &s.attention.probe.points);
  CHECK_FALSE(v.attention.probe_started);
  CHECK(v.training.step == 0);
  CHECK(v.attention.model_result == &s.attention.model_result);
  CHECK_FALSE(v.normalization.computed);

  // A patch changes the result the view points at; a new view says the new settings.
  const int tokens = static_cast<int>(s.attention.result.tokens.size());
  REQUIRE(app::ApplyPatch(s, attn::api::Json{{"sentence", "the cat sat on the mat today"}}).ok);
  v = app::View(s);
  CHECK(static_cast<int>(v.attention.result->tokens.size()) != tokens);
  CHECK(v.attention.result->tokens.size() == s.attention.result.tokens.size());
}

TEST_CASE("a request moves the room it names, and the view says so") {
  app::AppState s;
  app::InitApp(s);
  const app::LabRequests rooms(s);

  rooms.TrainUpTo(4);
  app::LabView v = app::View(s);
  CHECK(v.training.step == 4);
  CHECK(s.training.a.trainer.step() == 4);
  REQUIRE(v.training.example != nullptr);
  CHECK(v.training.example->tokens.size() > 0);
  rooms.ResetTraining();
  CHECK(app::View(s).training.step == 0);

  rooms.EnsureNormalization();
  v = app::View(s);
  CHECK(v.normalization.computed);
  CHECK_FALSE(v.normalization.variance->empty());
  CHECK(v.normalization.keys > 0);

  rooms.StartProbe();
  v = app::View(s);
  CHECK(v.attention.probe_started);
  CHECK(v.attention.probe_total > 0);

  // Recomputing for the same settings gives the same numbers.
  const attn::LabResult before = s.attention.result;
  rooms.RecomputeResult();
  REQUIRE(app::View(s).attention.result->error.ok());
  CHECK(s.attention.result.trace.output == before.trace.output);
}

TEST_CASE("the view carries what page/ and exports/ read: the dragged weights, run B, the lesson's address") {
  app::AppState s;
  app::InitApp(s);
  app::LabView v = app::View(s);
  CHECK(v.attention.custom == &s.attention.custom);
  CHECK(v.attention.model_result == &s.attention.model_result);
  CHECK_FALSE(v.training.compare);
  CHECK(v.training.example_b == nullptr);
  CHECK(v.lesson.url == &s.lesson.url);
  CHECK(v.whatif.comparison == nullptr);  // no edits
  CHECK(v.whatif.model_error == &s.whatif.model_error);
  REQUIRE(app::ApplyPatch(s, attn::api::Json{{"train", {{"compare", "lr:0.05"}}}}).ok);
  v = app::View(s);
  CHECK(v.training.compare);
  CHECK(v.training.example_b == &s.training.b.view);
  // The exports written from the view are the ones written from the state.
  CHECK(app::WeightsCsv(v) == app::WeightsCsv(s));
  CHECK(app::LinkText(v) == app::LinkText(s));
}

TEST_CASE("a room's requests apply a patch and refuse through the app's one path") {
  app::AppState s;
  app::InitApp(s);
  const app::LabRequests rooms(s);
  const attn::api::PatchResult ok = rooms.Apply(attn::api::Json{{"temperature", 0.5}});
  REQUIRE(ok.ok);
  CHECK(s.lab.config.temperature == 0.5);
  CHECK(&rooms.Lab() == &s.lab);
  const attn::api::PatchResult refused = rooms.Apply(attn::api::Json{{"temperature", -1}});
  CHECK_FALSE(refused.ok);
  CHECK(s.has_refusal);
  CHECK(s.lab.config.temperature == 0.5);
  attn::api::PatchResult r;
  r.field = "lessonUrl";
  r.message = "lessonUrl: refused";
  CHECK_FALSE(rooms.Refuse(r).ok);
  CHECK(s.refusal.field == "lessonUrl");
  // A room's context: the settings, the view and the requests of the same state.
  const app::RoomContext c = app::Context(s);
  CHECK(&c.lab == &s.lab);
  CHECK(c.view.attention.result == &s.attention.result);
  CHECK(&c.requests.Lab() == &s.lab);
}

}  // TEST_SUITE

// The guided lesson without a window: its data is complete in both languages, every step's
// patches are accepted, entering a step (a move, setState, a link) sets the step's state, a
// prediction is kept and reveals the answer, and the numbers the lesson shows come from the engine.
#include "app/lesson/lesson.h"

#include "app/app.h"
#include "engine/lab/lab_readout.h"

#include "api/url_state.h"

#include "lesson_app.h"

#include <doctest/doctest.h>

#include <cmath>
#include <string>

namespace {

using app::AppState;
using attn::api::Json;

}  // namespace

TEST_SUITE("app") {

TEST_CASE("the lesson has 9 steps, each with both languages, three choices and a valid right answer") {
  const auto& steps = app::LessonSteps();  // web/lessons/seed.json, as the build embeds it
  REQUIRE(static_cast<int>(steps.size()) == app::kLessonSteps);
  for (const app::LessonStep& st : steps) {
    CAPTURE(st.title.en);
    for (const app::LessonText* t : {&st.title, &st.quote, &st.verdict_text, &st.question, &st.explanation, &st.try_this}) {
      CHECK(t->en.size() > 3);
      CHECK(t->ru.size() > 3);
    }
    REQUIRE(st.choices.size() == static_cast<std::size_t>(app::kLessonChoices));
    for (const app::LessonText& c : st.choices) CHECK((!c.en.empty() && !c.ru.empty()));
    CHECK(st.right >= 0);
    CHECK(st.right < app::kLessonChoices);
    CHECK(st.has_extra == !st.extra_label.empty());
  }
}

TEST_CASE("every step's setup, reveal and extra patch is accepted by the state") {
  for (int k = 1; k <= app::kLessonSteps; ++k) {
    CAPTURE(k);
    for (bool revealed : {false, true}) {
      const attn::api::PatchResult r = attn::api::ApplyStatePatch(attn::api::LabState{}, app::LessonStepPatch(k, revealed));
      CHECK_MESSAGE(r.ok, r.message);
      CHECK(r.state.lesson == k);
    }
    const app::LessonStep& st = app::LessonSteps()[k - 1];
    if (st.has_extra) {
      attn::api::PatchResult base = attn::api::ApplyStatePatch(attn::api::LabState{}, app::LessonStepPatch(k, true));
      const attn::api::PatchResult r = attn::api::ApplyStatePatch(base.state, st.extra);
      CHECK_MESSAGE(r.ok, r.message);
    }
  }
}

TEST_CASE("lesson and predictions are state rows: defaults, refusals in the one wording") {
  const Json j = attn::api::StateToJson(attn::api::LabState{});
  CHECK(j["lesson"] == 0);
  CHECK(j["predictions"] == "---------");
  const auto bad = attn::api::ApplyStatePatch(attn::api::LabState{}, Json{{"lesson", 10}});
  CHECK_FALSE(bad.ok);
  CHECK(bad.message == "lesson: expected an integer from 0 to 9, got 10");
  const auto bad2 = attn::api::ApplyStatePatch(attn::api::LabState{}, Json{{"predictions", "abcd---"}});
  CHECK_FALSE(bad2.ok);
  CHECK(bad2.field == "predictions");
  CHECK(bad2.message ==
        "predictions: expected 9 characters, each - (not yet) or a, b, c (the choice), got \"abcd---\"");
  CHECK_FALSE(attn::api::ApplyStatePatch(attn::api::LabState{}, Json{{"predictions", "--"}}).ok);
  CHECK(attn::api::ApplyStatePatch(attn::api::LabState{}, Json{{"predictions", "abc-a-bcb"}}).ok);
}

TEST_CASE("setState({lesson: 1}) sets step 1's question state; answering reveals the answer's state") {
  LessonApp t;
  REQUIRE(app::ApplyPatch(t.s, Json{{"temperature", 3.0}, {"sentence", "one two"}}).ok);
  REQUIRE(app::ApplyPatch(t.s, Json{{"lesson", 1}}, app::Source::kApi).ok);
  CHECK(t.s.lab.lesson == 1);
  CHECK(t.s.lab.config.sentence == "я люблю суши");  // the step's state over the lab's defaults
  CHECK(t.s.lab.config.temperature == 1.0);
  CHECK(t.s.lab.config.projection == attn::Projection::kRandom);  // the question: not yet the answer
  CHECK_FALSE(app::LessonRevealed(t.s));
  CHECK(app::LessonReadout(t.s).empty());

  REQUIRE(app::AnswerLesson(t.s, 1).ok);
  CHECK(t.s.lab.predictions == "b--------");
  CHECK(app::LessonRevealed(t.s));
  CHECK(t.s.lab.config.projection == attn::Projection::kIdentity);
  // With q = k = x «люблю» attends to itself: the answer the lesson says is right.
  const attn::StepTable& st = t.s.attention.result.steps;
  CHECK(st.query == 1);
  CHECK(st.rows[1].weight > st.rows[0].weight);
  CHECK(st.rows[1].weight > st.rows[2].weight);
  CHECK(app::LessonSteps()[0].right == 1);
  CHECK_FALSE(app::LessonReadout(t.s).empty());
}

TEST_CASE("the learner moves freely and comes back; predictions stay for the page's life") {
  LessonApp t;
  REQUIRE(app::GoToLesson(t.s, 2).ok);
  REQUIRE(app::AnswerLesson(t.s, 2).ok);  // a wrong prediction is kept too
  CHECK(t.s.lab.predictions == "-c-------");
  CHECK(t.s.lab.config.sentence == "я люблю суши суши");
  CHECK_FALSE(t.s.lab.config.positional);
  REQUIRE(app::ApplyPatch(t.s, Json{{"positional", true}}).ok);  // the learner's own change
  CHECK(t.s.lab.lesson == 2);
  REQUIRE(app::GoToLesson(t.s, 3).ok);
  REQUIRE(app::GoToLesson(t.s, 2).ok);  // back: the answer's state again (already predicted)
  CHECK_FALSE(t.s.lab.config.positional);
  CHECK(t.s.lab.predictions == "-c-------");
  REQUIRE(app::ApplyPatch(t.s, Json{{"dV", 1}}).ok);
  REQUIRE(app::RestoreLessonStep(t.s).ok);
  CHECK(t.s.lab.config.d_v == 8);
  REQUIRE(app::GoToLesson(t.s, 0).ok);  // closed: the free lab, the state stays
  CHECK(t.s.lab.lesson == 0);
  CHECK(t.s.lab.predictions == "-c-------");
  CHECK(app::CurrentLessonStep(t.s) == nullptr);
}

TEST_CASE("step 2's repeated word without positional encoding: all weight moves to the twin, same A") {
  LessonApp t;
  REQUIRE(app::ApplyPatch(t.s, Json{{"lesson", 2}, {"predictions", "-b-------"}}).ok);
  const attn::InformationReport& info = t.s.attention.result.information;
  CHECK(t.s.attention.result.target == 3);
  CHECK(info.collision.alpha2(3) > 0.99 * (t.s.attention.result.steps.rows[2].weight + t.s.attention.result.steps.rows[3].weight));
  CHECK(info.collision.max_output_diff < 1e-6);
}

TEST_CASE("a link to a step reproduces it, and fields given with the lesson win") {
  LessonApp t;
  const std::string json = app::ApplyLinkJson(t.s, "#lesson=4&temperature=2", "");
  CHECK(Json::parse(json)["ok"] == true);
  CHECK(t.s.lab.lesson == 4);
  CHECK(t.s.lab.config.temperature == 2.0);
  CHECK(t.s.lab.config.projection == attn::Projection::kRandom);  // step 4's question, under the link's T
  LessonApp u;
  REQUIRE(app::GoToLesson(u.s, 3).ok);
  REQUIRE(app::AnswerLesson(u.s, 1).ok);
  LessonApp v;
  CHECK(Json::parse(app::ApplyLinkJson(v.s, app::LinkText(u.s), ""))["ok"] == true);
  CHECK(app::StateJson(v.s) == app::StateJson(u.s));
}

TEST_CASE("step 4: adding the same number to every score leaves the weights as they were") {
  LessonApp t;
  REQUIRE(app::GoToLesson(t.s, 4).ok);
  REQUIRE(app::AnswerLesson(t.s, 1).ok);
  for (double shift : {5.0, -40.0, 100.0}) {
    const attn::VecD w = attn::ShiftedWeights(t.s.attention.result, attn::Normalizer::kSoftmax, shift);
    REQUIRE(w.size() == 3);
    for (int i = 0; i < 3; ++i) CHECK(std::abs(w(i) - t.s.attention.result.steps.rows[i].weight) < 1e-6);
  }
  // Sparsemax is shift-invariant too; "none" is not (the scores are the weights).
  const attn::VecD none = attn::ShiftedWeights(t.s.attention.result, attn::Normalizer::kNone, 5.0);
  CHECK(std::abs(none(0) - (t.s.attention.result.steps.rows[0].scaled + 5.0)) < 1e-5);
}

TEST_CASE("step 3: the residual x + W_O·[A¹; …] of the query, from the engine's trace") {
  LessonApp t;
  REQUIRE(app::ApplyPatch(t.s, Json{{"lesson", 3}}).ok);
  CHECK(t.s.lab.config.heads == 4);
  const attn::LabResult& r = t.s.attention.result;
  const attn::VecD res = attn::ResidualOutput(r);
  REQUIRE(res.size() == r.trace.X.cols());
  // W_O·concat by hand for the query row.
  const int q = r.steps.query;
  for (Eigen::Index d = 0; d < res.size(); ++d) {
    double wo = 0;
    for (Eigen::Index k = 0; k < r.mha.concat.cols(); ++k)
      wo += static_cast<double>(r.mha.concat(q, k)) * r.projections.W_O(k, d);
    CHECK(std::abs(res(d) - (r.trace.X(q, d) + wo)) < 1e-5);
  }
}

TEST_CASE("step 5: ∂L/∂αᵢ from the engine's backward equals vᵢ·∂L/∂A; after training «люблю» → «суши»") {
  LessonApp t;
  REQUIRE(app::ApplyPatch(t.s, Json{{"lang", "ru"}}).ok);
  REQUIRE(app::GoToLesson(t.s, 5).ok);
  CHECK(t.s.lab.view == "training");
  CHECK(t.s.training.a.trainer.step() == 0);
  REQUIRE(app::AnswerLesson(t.s, 2).ok);
  CHECK(t.s.training.a.trainer.step() == app::kLessonTrainSteps);
  const attn::ExampleView& v = t.s.training.a.view;
  const int q = t.s.training.query;
  REQUIRE(v.tokens[q] == "люблю");
  const attn::VecD via = attn::WeightGradientFromValues(v, 0, q);
  REQUIRE(via.size() == static_cast<Eigen::Index>(v.tokens.size()));
  double scale = 0;
  for (Eigen::Index j = 0; j < via.size(); ++j) scale = std::max(scale, std::abs(v.grads.heads[0].dweights(q, j)));
  for (Eigen::Index j = 0; j < via.size(); ++j)
    CHECK(std::abs(via(j) - v.grads.heads[0].dweights(q, j)) <= 1e-9 * std::max(1.0, scale));
  Eigen::Index top = 0;
  v.forward.attn.heads[0].weights.row(q).maxCoeff(&top);
  CHECK(v.tokens[top] == "суши");
  CHECK(app::LessonSteps()[4].right == 2);
}

TEST_CASE("step 6 computes the normalization experiments; step 9 counts the predictions") {
  LessonApp t;
  REQUIRE(app::ApplyPatch(t.s, Json{{"lesson", 6}, {"predictions", "ba--cb---"}}).ok);  // revealed on entry
  CHECK(t.s.normalization.computed);
  CHECK(t.s.lab.view == "normalization");
  CHECK_FALSE(app::LessonReadout(t.s).empty());
  REQUIRE(app::GoToLesson(t.s, 9).ok);
  REQUIRE(app::AnswerLesson(t.s, 1).ok);
  const std::vector<app::LessonLine> lines = app::LessonReadout(t.s);
  REQUIRE_FALSE(lines.empty());
  CHECK(lines[lines.size() - 2].en == "Your predictions: 4 right of 5 made");
  CHECK(lines[lines.size() - 2].ru == "Ваши прогнозы: верно 4 из 5");
  CHECK(lines.back().en == "right at steps 1, 2, 5, 6");
}

TEST_CASE("step 7: the trained model's weight on the token itself, or that it is loading") {
  LessonApp t;
  REQUIRE(app::ApplyPatch(t.s, Json{{"lesson", 7}}).ok);
  CHECK(t.s.lab.config.projection == attn::Projection::kIdentity);  // the question: q = k = x
  REQUIRE(app::AnswerLesson(t.s, 1).ok);
  CHECK(t.s.lab.config.projection == attn::Projection::kModel);
  const std::vector<app::LessonLine> lines = app::LessonReadout(t.s);
  REQUIRE(lines.size() == 1);  // no model in this test: the step says it is loading
  CHECK(lines[0].en.find("Loading the trained model") == 0);
  CHECK(app::LessonSteps()[6].right == 1);
}

}  // TEST_SUITE

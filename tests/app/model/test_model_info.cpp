// Information on a real head in the app (model_info.cpp) and the lesson's step 7 with the shipped
// model loaded: the numbers the panel and the lesson show come from the engine's analysis and the
// model's own weights, recomputed only when they change.
#include "app/app.h"
#include "app/lesson/lesson.h"
#include "engine/lab/lab.h"
#include "model/format/bundle.h"
#include "loaded_model.h"

#include <doctest/doctest.h>

#include <string>

namespace {

using attn::api::Json;

using testing_model::LoadShippedModel;

}  // namespace

TEST_SUITE("app") {

TEST_CASE("model information: computed for the head shown, kept while nothing changes, cleared off model mode") {
  app::AppState s;
  app::InitApp(s);
  app::EnsureModelInformation(s);
  CHECK_FALSE(s.model.info.ok);  // identity projection: nothing to do
  REQUIRE(app::ApplyPatch(s, Json{{"projection", "model"}, {"layer", 1}, {"head", 2}, {"query", 4}}).ok);
  app::EnsureModelInformation(s);
  CHECK_FALSE(s.model.info.ok);  // no model yet
  LoadShippedModel(s);
  REQUIRE(s.attention.result.error.ok());
  app::EnsureModelInformation(s);
  REQUIRE(s.model.info.ok);
  CHECK(s.model.info.value.layer == 1);
  CHECK(s.model.info.value.head == 2);
  CHECK(s.model.info.value.query == 4);
  CHECK(s.model.info.value.keys == 5);
  CHECK(s.model.info.value.target == s.attention.result.target);
  // The panel's "from A" line and the Information panel's own analysis are the same numbers.
  CHECK(s.model.info.value.from_a.info.same_output_dim == s.attention.result.information.info.same_output_dim);
  CHECK(s.model.info.value.from_a.collision.alpha2(s.attention.result.target) ==
        s.attention.result.information.collision.alpha2(s.attention.result.target));
  CHECK(s.model.info.value.from_a.info.recoverable);
  CHECK(s.model.info.value.from_residual.recoverable);
  CHECK(s.model.info.value.w_o.rank == s.model.loaded->config().d_model);  // W_O is full rank
  const std::string key = s.model.info.key;
  app::EnsureModelInformation(s);
  CHECK(s.model.info.key == key);
  REQUIRE(app::ApplyPatch(s, Json{{"head", 3}}).ok);
  app::EnsureModelInformation(s);
  CHECK(s.model.info.value.head == 3);
  REQUIRE(app::ApplyPatch(s, Json{{"projection", "identity"}, {"head", 0}, {"query", 1}}).ok);
  app::EnsureModelInformation(s);
  CHECK_FALSE(s.model.info.ok);
}

TEST_CASE("lesson step 7 with the model: the trained heads put about a fifth on the token itself, q = k = x most") {
  app::AppState s;
  app::InitApp(s);
  LoadShippedModel(s);
  REQUIRE(app::ApplyPatch(s, Json{{"lesson", 7}}).ok);
  REQUIRE(app::AnswerLesson(s, 1).ok);
  REQUIRE(s.attention.result.error.ok());
  const std::vector<app::LessonLine> lines = app::LessonReadout(s);
  REQUIRE(lines.size() == 6);  // the mean, 4 layers, q = k = x
  // The same number computed here from the model's weights on «я люблю суши».
  double sum = 0;
  int rows = 0;
  for (const auto& b : s.attention.model_result.acts.blocks)
    for (const auto& h : b.attn.heads)
      for (Eigen::Index t = 1; t < h.weights.rows(); ++t) {
        sum += h.weights(t, t);
        ++rows;
      }
  const double model_self = sum / rows;
  attn::LabConfig c;
  const attn::LabResult id = attn::ComputeLab(c);
  double diag = 0;
  for (Eigen::Index i = 0; i < id.trace.weights.rows(); ++i) diag += id.trace.weights(i, i);
  const double identity_self = diag / id.trace.weights.rows();
  char want[64];
  std::snprintf(want, sizeof want, "%.3f", model_self);
  CHECK(lines[0].en.find(want) != std::string::npos);
  std::snprintf(want, sizeof want, "%.3f", identity_self);
  CHECK(lines.back().en.find(want) != std::string::npos);
  // The right choice (b: about a fifth, far less than with q = k = x) is what the numbers say.
  CHECK(app::LessonSteps()[6].right == 1);
  CHECK(model_self > 0.1);
  CHECK(model_self < 0.3);
  CHECK(identity_self > 2 * model_self);
}

}  // TEST_SUITE

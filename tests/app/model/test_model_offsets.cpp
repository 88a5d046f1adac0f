// The RoPE scene in the app (model_offsets.cpp): measured for the query shown and the key its head
// leans on when the Positions panel asks, the same numbers as `attnlab model offsets` prints
// (model::SceneForQuery, one writer: api/model_json.h), in getTrace()'s model.offsets.
#include "app/app.h"
#include "model/format/bundle.h"
#include "model/inspect/offsets.h"
#include "loaded_model.h"

#include <doctest/doctest.h>

#include <string>

namespace {

using attn::api::Json;

using testing_model::LoadShippedModel;

}  // namespace

TEST_SUITE("app") {

TEST_CASE("model offsets: measured for the query shown when asked, in getTrace, kept while nothing changes") {
  app::AppState s;
  app::InitApp(s);
  REQUIRE(app::ApplyPatch(s, Json{{"projection", "model"}, {"sentence", "я люблю суши"}, {"layer", 1}, {"head", 1}, {"query", 5}}).ok);
  LoadShippedModel(s);
  REQUIRE(s.attention.result.error.ok());
  CHECK(Json::parse(app::TraceJson(s))["model"]["offsets"].is_null());  // not asked for yet
  app::EnsureModelOffsets(s);
  REQUIRE_MESSAGE(s.model.offsets.ok, s.model.offsets.error);
  const Json o = Json::parse(app::TraceJson(s))["model"]["offsets"];
  REQUIRE(o.is_object());
  CHECK(o["query"] == 5);
  CHECK(o["key"] == 4);  // the earlier token head (1, 1) leans on most, past <|endoftext|>
  CHECK(o["queryText"] == "ши");
  CHECK(o["offset"] == 1);
  CHECK(o["rotary"] == false);
  CHECK(o["same"].size() == 10);
  // the engine's numbers, as `attnlab model offsets` computes them
  attn::model::OffsetScene direct;
  std::string error;
  REQUIRE(attn::model::MeasureOffsets(s.model.loaded->params, s.model.loaded->config(), o["queryToken"].get<int>(),
                                      o["keyToken"].get<int>(), 1, 1, &direct, &error));
  for (std::size_t i = 0; i < direct.same.size(); ++i) CHECK(o["same"][i].get<double>() == direct.same[i]);
  CHECK(o["sameSpread"].get<double>() > 0.05);  // learned positions: the score moves with the words
  const std::string key = s.model.offsets.key;
  app::EnsureModelOffsets(s);
  CHECK(s.model.offsets.key == key);
  REQUIRE(app::ApplyPatch(s, Json{{"query", 3}}).ok);
  CHECK(Json::parse(app::TraceJson(s))["model"]["offsets"].is_null());  // stale: not shown
  app::EnsureModelOffsets(s);
  CHECK(Json::parse(app::TraceJson(s))["model"]["offsets"]["query"] == 3);
  const auto off = app::ApplyPatch(s, Json{{"projection", "identity"}, {"layer", 0}, {"head", 0}, {"query", 0}});
  REQUIRE_MESSAGE(off.ok, off.message);
  app::EnsureModelOffsets(s);
  CHECK_FALSE(s.model.offsets.ok);
}

}  // TEST_SUITE

// A lab configured for a lesson: the state's hide and lock rows (sets of parts), their refusals
// in the one wording, their links, the view a hidden panel gives way to, and the share link and
// iframe snippet that reproduce the state.
#include "api/url_state.h"
#include "app/app.h"
#include "app/lesson/lesson.h"

#include <doctest/doctest.h>

#include <string>

namespace {

using attn::api::Json;

app::AppState Fresh() {
  app::AppState s;
  app::InitApp(s);
  return s;
}

// The part of a snippet's src attribute after the '#', HTML entities undone.
std::string SnippetHash(const std::string& snippet) {
  const std::size_t src = snippet.find("src=\"");
  REQUIRE(src != std::string::npos);
  const std::size_t end = snippet.find('"', src + 5);
  std::string url = snippet.substr(src + 5, end - src - 5);
  for (std::size_t p; (p = url.find("&amp;")) != std::string::npos;) url.replace(p, 5, "&");
  const std::size_t hash = url.find('#');
  REQUIRE(hash != std::string::npos);
  return url.substr(hash);
}

}  // namespace

TEST_SUITE("app") {

TEST_CASE("hide and lock are sets of parts: canonical order, strings or arrays, empty by default") {
  const Json d = attn::api::StateToJson(attn::api::LabState{});
  CHECK(d["hide"] == "");
  CHECK(d["lock"] == "");
  app::AppState s = Fresh();
  // Any order, spaces and repeats: kept once each, in the parts' own order.
  REQUIRE(app::ApplyPatch(s, {{"hide", " training, sentence,training ,,header"}}).ok);
  CHECK(s.lab.hide == "header,training,sentence");
  REQUIRE(app::ApplyPatch(s, {{"lock", Json::array({"train.task", "settings"})}}).ok);
  CHECK(s.lab.lock == "settings,train.task");
  CHECK(Json::parse(app::StateJson(s))["lock"] == "settings,train.task");
  REQUIRE(app::ApplyPatch(s, {{"hide", ""}}).ok);
  CHECK(s.lab.hide.empty());
  // Every part the interface knows is accepted.
  std::string all;
  for (const std::string& p : attn::api::LabParts()) all += p + ",";
  CHECK(app::ApplyPatch(s, {{"lock", all}}).ok);
}

TEST_CASE("an unknown part is refused in the one wording, naming the part, and nothing changes") {
  app::AppState s = Fresh();
  REQUIRE(app::ApplyPatch(s, {{"hide", "training"}}).ok);
  const attn::api::PatchResult r = app::ApplyPatch(s, {{"hide", "sentence,foo"}});
  CHECK_FALSE(r.ok);
  CHECK(r.field == "hide");
  CHECK(r.message.rfind("hide: expected a list of \"header\", \"share\", \"lesson\", \"attention\"", 0) == 0);
  CHECK(r.message.find("\"train.compare\", \"tune\", got \"foo\"") != std::string::npos);
  CHECK(r.got == "\"foo\"");
  CHECK(s.lab.hide == "training");  // kept
  const attn::api::PatchResult t = app::ApplyPatch(s, {{"lock", 3}});
  CHECK_FALSE(t.ok);
  CHECK(t.message.find("lock: expected a list of") == 0);
  CHECK(t.message.find(", got 3") != std::string::npos);
  CHECK_FALSE(app::ApplyPatch(s, {{"lock", Json::array({"sentence", 1})}}).ok);
  CHECK_FALSE(app::ApplyPatch(s, {{"lock", nullptr}}).ok);
}

TEST_CASE("a link carries hide and lock with readable commas, only when set, and reads them back") {
  app::AppState s = Fresh();
  CHECK(app::LinkText(s).find("hide=") == std::string::npos);  // not set: links stay short
  CHECK(app::LinkText(s).find("lock=") == std::string::npos);
  REQUIRE(app::ApplyPatch(s, {{"hide", "training,normalization,mask"}, {"lock", "sentence,settings"},
                              {"view", "weights"}}).ok);
  const std::string hash = app::LinkText(s);
  CAPTURE(hash);
  CHECK(hash.find("&hide=training,normalization,mask") != std::string::npos);
  CHECK(hash.find("&lock=sentence,settings") != std::string::npos);
  app::AppState reader = Fresh();
  REQUIRE(Json::parse(app::ApplyLinkJson(reader, hash, "en"))["ok"] == true);
  CHECK(app::StateJson(reader) == app::StateJson(s));
  // Written by hand, with escaped commas and an unknown part: the rest still applies.
  app::AppState hand = Fresh();
  const Json r = Json::parse(app::ApplyLinkJson(hand, "#hide=header%2Cvectors&lock=seed,nope&view=vectors", "en"));
  CHECK(r["ok"] == false);
  CHECK(hand.lab.hide == "header,vectors");
  CHECK(hand.lab.lock.empty());
  CHECK(hand.lab.view == "vectors");
  REQUIRE(r["errors"].size() == 1);
  CHECK(r["errors"][0]["field"] == "lock");
  CHECK(r["errors"][0]["error"].get<std::string>().find("got \"nope\"") != std::string::npos);
}

TEST_CASE("a hidden view is never the one shown; the first visible one is") {
  attn::api::LabState lab;
  CHECK(app::ShownView(lab) == "steps");
  lab.view = "weights";
  CHECK(app::ShownView(lab) == "weights");
  lab.hide = "weights";
  CHECK(app::ShownView(lab) == "steps");
  lab.hide = "steps,weights";
  CHECK(app::ShownView(lab) == "vectors");
  lab.hide = "attention";  // the whole tab: every panel of it
  CHECK_FALSE(app::ViewVisible(lab, "information"));
  CHECK(app::ShownView(lab) == "training");
  lab.view = "sentence";
  lab.hide = "sentence";  // the settings panel still shows under the sentence view
  CHECK(app::ShownView(lab) == "sentence");
  lab.hide = "sentence,settings";
  CHECK(app::ShownView(lab) == "steps");
  lab.hide = "attention,training,normalization";
  CHECK(app::ShownView(lab) == "");
}

TEST_CASE("a lesson step never un-hides a part and never shows a hidden view") {
  app::AppState s = Fresh();
  REQUIRE(app::ApplyPatch(s, {{"hide", "training,normalization,information"}, {"lock", "settings"}}).ok);
  for (int step = 1; step <= app::kLessonSteps; ++step) {
    CAPTURE(step);
    REQUIRE(app::GoToLesson(s, step).ok);
    CHECK(s.lab.hide == "training,normalization,information");
    CHECK(s.lab.lock == "settings");
    const std::string shown = app::ShownView(s.lab);
    CHECK(shown != "training");
    CHECK(shown != "normalization");
    CHECK(shown != "information");
    CHECK(app::ViewVisible(s.lab, shown));
  }
}

TEST_CASE("lock leaves the page API in charge: setState still changes a locked setting") {
  app::AppState s = Fresh();
  REQUIRE(app::ApplyPatch(s, {{"lock", "settings,sentence"}}).ok);
  CHECK(app::IsLocked(s.lab, "settings"));
  CHECK_FALSE(app::IsLocked(s.lab, "weights"));
  REQUIRE(app::ApplyPatch(s, {{"temperature", 0.5}, {"sentence", "мы любим кофе"}}, app::Source::kApi).ok);
  CHECK(s.lab.config.temperature == 0.5);
  CHECK(s.lab.config.sentence == "мы любим кофе");
}

TEST_CASE("the share link and the iframe snippet reproduce the state, flags included") {
  app::AppState s = Fresh();
  REQUIRE(app::ApplyPatch(s, {{"sentence", "кот & пёс"}, {"temperature", 0.25}, {"hide", "header,training"},
                              {"lock", "settings"}, {"view", "weights"}, {"lang", "ru"}}).ok);
  const std::string base = "https://lab.example.org/index.html?origins=https://course.example";
  const std::string link = app::ShareLink(s, base + "#old=1");
  CHECK(link.rfind(base + "#", 0) == 0);  // the old hash is replaced
  const std::string snippet = app::EmbedSnippet(s, base);
  CAPTURE(snippet);
  CHECK(snippet.rfind("<iframe src=\"https://lab.example.org/index.html?origins=https://course.example#", 0) == 0);
  CHECK(snippet.find("&amp;hide=header,training") != std::string::npos);
  CHECK(snippet.find("attentionLab:height") != std::string::npos);  // the auto-height script
  CHECK(snippet.find("<script>") != std::string::npos);
  for (const std::string& hash : {link.substr(link.find('#')), SnippetHash(snippet)}) {
    CAPTURE(hash);
    app::AppState reader = Fresh();
    REQUIRE(Json::parse(app::ApplyLinkJson(reader, hash, "en"))["ok"] == true);
    CHECK(app::StateJson(reader) == app::StateJson(s));
  }
}

}  // TEST_SUITE

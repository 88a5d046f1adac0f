// Reading a lesson document (lesson_json.h): every field checked, a refusal naming its path in the
// one wording, "<path>: expected <what>, got <what came>". Nothing here changes the lab.
#include "api/lesson_json.h"

#include "api/fields_json.h"
#include "engine/limits.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>

namespace attn::api {

namespace {

// Thrown inside the parse only (never out of ParseLesson): the path and the message.
struct Refusal {
  std::string field, message;
};

[[noreturn]] void RefuseGot(const std::string& path, const std::string& expected, const std::string& got) {
  throw Refusal{path, path + ": expected " + expected + ", got " + got};
}
[[noreturn]] void Refuse(const std::string& path, const std::string& expected, const Json& got) {
  RefuseGot(path, expected, got.is_null() ? "nothing" : DescribeJson(got));
}

std::string Key(const std::string& path, const std::string& key) { return path.empty() ? key : path + "." + key; }

// Refuses a key of `o` not in `known` (the unknown-field wording of the state).
void OnlyKeys(const Json& o, const std::string& path, std::initializer_list<const char*> known) {
  for (const auto& item : o.items()) {
    if (std::none_of(known.begin(), known.end(), [&](const char* k) { return item.key() == k; })) {
      std::string names;
      for (const char* k : known) names += std::string(names.empty() ? "" : ", ") + k;
      const std::string where = Key(path, ShownName(item.key()));
      throw Refusal{where, where + ": unknown field (expected one of " + names + ")"};
    }
  }
}

const Json& Object(const Json& v, const std::string& path) {
  if (!v.is_object()) Refuse(path, "an object", v);
  return v;
}

// {"en": ..., "ru": ...}: at least one, each a string of at most `limit` bytes; the missing
// language falls back to the other.
LessonText Text(const Json& v, const std::string& path, std::size_t limit) {
  if (!v.is_object()) Refuse(path, "an object {\"en\": \"...\", \"ru\": \"...\"}", v);
  OnlyKeys(v, path, {"en", "ru"});
  LessonText t;
  for (const char* lang : {"en", "ru"}) {
    if (!v.contains(lang)) continue;
    const Json& s = v[lang];
    const std::string where = Key(path, lang);
    if (!s.is_string()) Refuse(where, "a string", s);
    const std::string& text = s.get_ref<const std::string&>();
    if (text.empty() || text.size() > limit)
      RefuseGot(where, "a text of 1 to " + std::to_string(limit) + " bytes", std::to_string(text.size()) + " bytes");
    (lang[0] == 'e' ? t.en : t.ru) = text;
  }
  if (t.empty()) Refuse(path, "a text in en or ru (or both)", v);
  if (t.en.empty()) t.en = t.ru;
  if (t.ru.empty()) t.ru = t.en;
  return t;
}

int Integer(const Json& v, const std::string& path, int lo, int hi) {
  const double x = v.is_number() ? v.get<double>() : -1e300;
  if (!(x >= lo && x <= hi) || x != std::floor(x))
    Refuse(path, "an integer from " + std::to_string(lo) + " to " + std::to_string(hi), v);
  return static_cast<int>(x);
}

LessonAction Action(const Json& v, const std::string& path) {
  if (v == "train") return LessonAction::kTrain;
  if (v == "resetTraining") return LessonAction::kResetTraining;
  if (v == "normalization") return LessonAction::kNormalization;
  if (v == "probe") return LessonAction::kProbe;
  Refuse(path, "one of train, resetTraining, normalization, probe", v);
}

// The lab's defaults a step's state applies over: every row of the lab's settings table at its
// initial value, and the view "steps" (app/lesson/lesson.cpp's LessonStepPatch starts from the same).
Json LabDefaults() {
  Json out = Json::object();
  FieldsToJson(attn::LabFields(), attn::LabConfig{}, out);
  out["view"] = "steps";
  return out;
}

// A state patch, checked by the state's own validation over `base` (the state it applies to);
// the lesson's own rows are the lesson's to set. Returns the state it gives.
LabState State(const Json& v, const std::string& path, const LabState& base, const Json& over) {
  Object(v, path);
  for (const char* own : {"lesson", "predictions", "lessonId"})
    if (v.contains(own)) Refuse(Key(path, own), "no lesson field in a step's state (the lesson sets it)", v[own]);
  Json patch = over;
  patch.merge_patch(v);
  const PatchResult r = ApplyStatePatch(base, patch);
  if (!r.ok) {
    const bool named = !r.field.empty() && r.message.compare(0, r.field.size() + 1, r.field + ":") == 0;
    const std::string where = r.field.empty() ? path : Key(path, r.field);
    throw Refusal{where, named ? Key(path, r.message) : where + ": " + r.message};
  }
  return r.state;
}

LessonStep Step(const Json& v, const std::string& path, const LabState& defaults) {
  Object(v, path);
  OnlyKeys(v, path, {"title", "quote", "text", "verdict", "state", "run", "question", "numbers", "extra", "try", "point"});
  LessonStep st;
  if (!v.contains("title")) Refuse(Key(path, "title"), "a title (every step has one)", Json());
  st.title = Text(v["title"], Key(path, "title"), kMaxLessonTitleBytes);
  if (v.contains("quote")) st.quote = Text(v["quote"], Key(path, "quote"), kMaxLessonTextBytes);
  if (v.contains("text")) st.verdict_text = Text(v["text"], Key(path, "text"), kMaxLessonTextBytes);
  if (v.contains("verdict")) {
    const Json& w = v["verdict"];
    st.verdict = w == "right" ? Verdict::kRight : w == "partlyRight" ? Verdict::kPartlyRight
                 : w == "imprecise" ? Verdict::kImprecise : Verdict::kNone;
    if (st.verdict == Verdict::kNone) Refuse(Key(path, "verdict"), "one of right, partlyRight, imprecise", w);
  }
  LabState question_state = defaults;
  const Json base = LabDefaults();
  if (v.contains("state")) {
    question_state = State(v["state"], Key(path, "state"), defaults, base);
    st.setup = v["state"];
  } else {
    question_state = State(Json::object(), Key(path, "state"), defaults, base);
  }
  if (v.contains("run")) st.setup_action = Action(v["run"], Key(path, "run"));
  LabState answer_state = question_state;
  if (v.contains("question")) {
    const std::string q = Key(path, "question");
    const Json& o = Object(v["question"], q);
    OnlyKeys(o, q, {"text", "choices", "right", "explanation", "state", "run"});
    for (const char* needed : {"text", "choices", "right", "explanation"})
      if (!o.contains(needed)) Refuse(Key(q, needed), "a value (a question has text, choices, right, explanation)", Json());
    st.has_question = true;
    st.question = Text(o["text"], Key(q, "text"), kMaxLessonTextBytes);
    const Json& c = o["choices"];
    const std::string cp = Key(q, "choices");
    if (!c.is_array() || c.size() < static_cast<std::size_t>(kMinChoices) || c.size() > static_cast<std::size_t>(kMaxChoices))
      RefuseGot(cp, "an array of " + std::to_string(kMinChoices) + " to " + std::to_string(kMaxChoices) + " choices",
                c.is_array() ? std::to_string(c.size()) + (c.size() == 1 ? " choice" : " choices") : DescribeJson(c));
    for (std::size_t i = 0; i < c.size(); ++i)
      st.choices.push_back(Text(c[i], cp + "[" + std::to_string(i) + "]", kMaxLessonTextBytes));
    st.right = Integer(o["right"], Key(q, "right"), 0, static_cast<int>(st.choices.size()) - 1);
    st.explanation = Text(o["explanation"], Key(q, "explanation"), kMaxLessonTextBytes);
    if (o.contains("state")) {
      answer_state = State(o["state"], Key(q, "state"), question_state, Json::object());
      st.reveal = o["state"];
    }
    if (o.contains("run")) st.reveal_action = Action(o["run"], Key(q, "run"));
  }
  if (v.contains("numbers")) {
    const Json& n = v["numbers"];
    const auto& names = LessonReadoutNames();
    if (!n.is_string() || std::find(names.begin(), names.end(), n.get<std::string>()) == names.end()) {
      std::string list;
      for (const std::string& name : names) list += (list.empty() ? "" : ", ") + name;
      Refuse(Key(path, "numbers"), "one of " + list, n);
    }
    st.numbers = n.get<std::string>();
  }
  if (v.contains("extra")) {
    const std::string e = Key(path, "extra");
    const Json& o = Object(v["extra"], e);
    OnlyKeys(o, e, {"label", "state", "run"});
    if (!o.contains("label")) Refuse(Key(e, "label"), "a label (the button's text)", Json());
    st.has_extra = true;
    st.extra_label = Text(o["label"], Key(e, "label"), kMaxLessonTitleBytes);
    if (o.contains("state")) {
      State(o["state"], Key(e, "state"), answer_state, Json::object());
      st.extra = o["state"];
    }
    if (o.contains("run")) st.extra_action = Action(o["run"], Key(e, "run"));
  }
  if (v.contains("try")) st.try_this = Text(v["try"], Key(path, "try"), kMaxLessonTextBytes);
  if (v.contains("point")) {
    const std::string p = Key(path, "point");
    const Json& o = Object(v["point"], p);
    OnlyKeys(o, p, {"panel", "token", "head"});
    if (o.contains("panel")) {
      const Json& name = o["panel"];
      const auto& parts = LabParts();
      if (!name.is_string() || std::find(parts.begin(), parts.end(), name.get<std::string>()) == parts.end())
        Refuse(Key(p, "panel"), "a part of the lab (as in hide: weights, steps, sentence, ...)", name);
      st.point.panel = name.get<std::string>();
    }
    if (o.contains("token")) st.point.token = Integer(o["token"], Key(p, "token"), 0, static_cast<int>(attn::kMaxTokens) - 1);
    if (o.contains("head")) st.point.head = Integer(o["head"], Key(p, "head"), 0, attn::kMaxHeads - 1);
  }
  return st;
}

bool IdCharacter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
}

}  // namespace

const std::vector<std::string>& LessonReadoutNames() {
  static const std::vector<std::string> names = {"queryRows", "sameOutput", "headsAndProbe", "shiftedScores",
                                                 "trainingGradients", "normalization", "modelSelf", "weightSums"};
  return names;
}

LessonParse ParseLessonJson(const Json& v) {
  LessonParse out;
  try {
    Object(v, "lesson");
    OnlyKeys(v, "", {"format", "id", "title", "steps"});
    if (!v.contains("format") || v["format"] != kLessonFormat)
      Refuse("format", std::string("\"") + kLessonFormat + "\"", v.contains("format") ? v["format"] : Json());
    const Json& id = v.contains("id") ? v["id"] : Json();
    if (!id.is_string() || id.get_ref<const std::string&>().empty() || id.get_ref<const std::string&>().size() > kMaxLessonIdBytes ||
        !std::all_of(id.get_ref<const std::string&>().begin(), id.get_ref<const std::string&>().end(), IdCharacter))
      Refuse("id", "1 to 64 characters of A-Z a-z 0-9 _ . -", id);
    auto doc = std::make_shared<LessonDoc>();
    doc->id = id.get<std::string>();
    if (!v.contains("title")) Refuse("title", "a title", Json());
    doc->title = Text(v["title"], "title", kMaxLessonTitleBytes);
    const Json& steps = v.contains("steps") ? v["steps"] : Json();
    if (!steps.is_array() || steps.empty() || steps.size() > static_cast<std::size_t>(kMaxLessonSteps))
      RefuseGot("steps", "an array of 1 to " + std::to_string(kMaxLessonSteps) + " steps",
                steps.is_array() ? std::to_string(steps.size()) + " steps" : DescribeJson(steps));
    LabState defaults;
    defaults.lesson_steps = static_cast<int>(steps.size());
    defaults.predictions = std::string(steps.size(), '-');
    for (std::size_t i = 0; i < steps.size(); ++i)
      doc->steps.push_back(Step(steps[i], "steps[" + std::to_string(i) + "]", defaults));
    doc->source = v;
    out.ok = true;
    out.doc = std::move(doc);
  } catch (const Refusal& r) {
    out.field = r.field;
    out.message = r.message;
  }
  return out;
}

LessonParse ParseLesson(std::string_view text) {
  LessonParse out;
  if (text.size() > kMaxLessonBytes) {
    out.message = "lesson: expected a document of at most " + std::to_string(kMaxLessonBytes / 1024) + " KB, got " +
                  std::to_string(text.size()) + " bytes";
    return out;
  }
  const Json v = Json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (v.is_discarded()) {
    out.message = "lesson: expected a JSON document, got text that is not valid JSON";
    return out;
  }
  return ParseLessonJson(v);
}

}  // namespace attn::api

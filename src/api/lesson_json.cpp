// Reading a lesson document (lesson_json.h): every field checked, a refusal naming its path in the
// one wording, "<path>: expected <what>, got <what came>". Nothing here changes the lab.
#include "api/lesson_json.h"

#include "api/fields_json.h"
#include "engine/base/limits.h"

#include <algorithm>
#include <cmath>
#include <memory>
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
[[noreturn]] void RefuseAt(const std::string& path, const std::string& expected, const Json& got) {
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
  if (!v.is_object()) RefuseAt(path, "an object", v);
  return v;
}

// {"en": ..., "ru": ...}: at least one, each a string of at most `limit` bytes; the missing
// language falls back to the other.
LessonText Text(const Json& v, const std::string& path, std::size_t limit) {
  if (!v.is_object()) RefuseAt(path, "an object {\"en\": \"...\", \"ru\": \"...\"}", v);
  OnlyKeys(v, path, {"en", "ru"});
  LessonText t;
  for (const char* lang : {"en", "ru"}) {
    if (!v.contains(lang)) continue;
    const Json& s = v[lang];
    const std::string where = Key(path, lang);
    if (!s.is_string()) RefuseAt(where, "a string", s);
    const std::string& text = s.get_ref<const std::string&>();
    if (text.empty() || text.size() > limit)
      RefuseGot(where, "a text of 1 to " + std::to_string(limit) + " bytes", std::to_string(text.size()) + " bytes");
    (lang[0] == 'e' ? t.en : t.ru) = text;
  }
  if (t.empty()) RefuseAt(path, "a text in en or ru (or both)", v);
  if (t.en.empty()) t.en = t.ru;
  if (t.ru.empty()) t.ru = t.en;
  return t;
}

int Integer(const Json& v, const std::string& path, int lo, int hi) {
  const double x = v.is_number() ? v.get<double>() : -1e300;
  if (!(x >= lo && x <= hi) || x != std::floor(x))
    RefuseAt(path, "an integer from " + std::to_string(lo) + " to " + std::to_string(hi), v);
  return static_cast<int>(x);
}

// The index of `v` among `names` (a string of the list), or refused as "one of ...".
int OneOf(const Json& v, const std::string& path, const char* const* names, int count) {
  std::string list;
  for (int i = 0; i < count; ++i) {
    if (v.is_string() && v.get_ref<const std::string&>() == names[i]) return i;
    list += std::string(i ? ", " : "") + names[i];
  }
  RefuseAt(path, "one of " + list, v);
}

LessonAction Action(const Json& v, const std::string& path) {
  static const char* const kRuns[] = {"resetTraining", "train", "normalization", "probe"};
  return static_cast<LessonAction>(OneOf(v, path, kRuns, 4) + 1);
}

// A state patch, checked by the state's own validation over `base` (the state it applies to);
// the lesson's own rows are the lesson's to set. Returns the state it gives.
LabState State(const Json& v, const std::string& path, const LabState& base, const Json& over) {
  Object(v, path);
  for (const char* own : {"lesson", "predictions", "lessonId"})
    if (v.contains(own)) RefuseAt(Key(path, own), "no lesson field in a step's state (the lesson sets it)", v[own]);
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

// A JSON object being read at `path`; the path of a key is built only where it is needed.
struct Node {
  const Json& v;
  std::string path;
  const Json* Find(const char* key) const {
    const auto it = v.find(key);
    return it == v.end() ? nullptr : &*it;
  }
  std::string At(const char* key) const { return Key(path, key); }
  const Json& Need(const char* key, const char* what) const {
    const Json* j = Find(key);
    if (!j) RefuseAt(At(key), what, Json());
    return *j;
  }
  // An optional text: false when absent.
  bool TextAt(const char* key, std::size_t limit, LessonText* out) const {
    const Json* j = Find(key);
    if (j) *out = Text(*j, At(key), limit);
    return j != nullptr;
  }
  bool ActionAt(const char* key, LessonAction* out) const {
    const Json* j = Find(key);
    if (j) *out = Action(*j, At(key));
    return j != nullptr;
  }
  // An optional object: its node, checked against its keys.
  bool ChildAt(const char* key, std::initializer_list<const char*> keys, std::unique_ptr<Node>* out) const {
    const Json* j = Find(key);
    if (!j) return false;
    out->reset(new Node{Object(*j, At(key)), At(key)});
    (*out)->Keys(keys);
    return true;
  }
  // An optional state patch over `base`: the state it gives (base itself when absent).
  LabState StateAt(const LabState& base, const Json& over, Json* out) const;
  void Keys(std::initializer_list<const char*> keys) const { OnlyKeys(v, path, keys); }
};
static_assert(kMinChoices == 2 && kMaxChoices == 6 && kMaxLessonSteps == 32, "the messages below say 2 to 6, 1 to 32");

LabState Node::StateAt(const LabState& base, const Json& over, Json* out) const {
  const Json* j = Find("state");
  const LabState given = State(j ? *j : Json::object(), At("state"), base, over);
  if (j) *out = *j;
  return given;
}

LessonStep Step(const Node& n, const LabState& defaults) {
  n.Keys({"title", "quote", "text", "verdict", "state", "run", "question", "numbers", "extra", "try", "point"});
  LessonStep st;
  st.title = Text(n.Need("title", "a title (every step has one)"), n.At("title"), kMaxLessonTitleBytes);
  n.TextAt("quote", kMaxLessonTextBytes, &st.quote);
  n.TextAt("text", kMaxLessonTextBytes, &st.verdict_text);
  static const char* const kVerdicts[] = {"right", "partlyRight", "imprecise"};
  if (const Json* w = n.Find("verdict")) st.verdict = static_cast<Verdict>(OneOf(*w, n.At("verdict"), kVerdicts, 3) + 1);
  const LabState question_state = n.StateAt(defaults, LessonDefaults(), &st.setup);
  n.ActionAt("run", &st.setup_action);
  LabState answer_state = question_state;
  std::unique_ptr<Node> q;
  if (n.ChildAt("question", {"text", "choices", "right", "explanation", "state", "run"}, &q)) {
    const char* what = "a value (a question has text, choices, right, explanation)";
    st.has_question = true;
    st.question = Text(q->Need("text", what), q->At("text"), kMaxLessonTextBytes);
    const Json& c = q->Need("choices", what);
    if (!c.is_array() || c.size() < static_cast<std::size_t>(kMinChoices) || c.size() > static_cast<std::size_t>(kMaxChoices))
      RefuseGot(q->At("choices"), "an array of 2 to 6 choices",
                c.is_array() ? std::to_string(c.size()) + (c.size() == 1 ? " choice" : " choices") : DescribeJson(c));
    for (std::size_t i = 0; i < c.size(); ++i)
      st.choices.push_back(Text(c[i], q->At("choices") + "[" + std::to_string(i) + "]", kMaxLessonTextBytes));
    st.right = Integer(q->Need("right", what), q->At("right"), 0, static_cast<int>(st.choices.size()) - 1);
    st.explanation = Text(q->Need("explanation", what), q->At("explanation"), kMaxLessonTextBytes);
    answer_state = q->StateAt(question_state, Json::object(), &st.reveal);
    q->ActionAt("run", &st.reveal_action);
  }
  if (const Json* m = n.Find("numbers")) st.numbers = OneOf(*m, n.At("numbers"), kLessonReadouts, kLessonReadoutCount) + 1;
  std::unique_ptr<Node> e;
  if (n.ChildAt("extra", {"label", "state", "run"}, &e)) {
    st.has_extra = true;
    st.extra_label = Text(e->Need("label", "a label (the button's text)"), e->At("label"), kMaxLessonTitleBytes);
    e->StateAt(answer_state, Json::object(), &st.extra);
    e->ActionAt("run", &st.extra_action);
  }
  n.TextAt("try", kMaxLessonTextBytes, &st.try_this);
  std::unique_ptr<Node> p;
  if (n.ChildAt("point", {"panel", "token", "head"}, &p)) {
    if (const Json* name = p->Find("panel")) {
      const auto& parts = LabParts();
      if (!name->is_string() || std::find(parts.begin(), parts.end(), name->get_ref<const std::string&>()) == parts.end())
        RefuseAt(p->At("panel"), "a part of the lab (as in hide: weights, steps, sentence, ...)", *name);
      st.point.panel = name->get<std::string>();
    }
    if (const Json* t = p->Find("token")) st.point.token = Integer(*t, p->At("token"), 0, static_cast<int>(attn::kMaxTokens) - 1);
    if (const Json* h = p->Find("head")) st.point.head = Integer(*h, p->At("head"), 0, attn::kMaxHeads - 1);
  }
  return st;
}

bool IdCharacter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
}

}  // namespace

Json LessonDefaults() {
  Json out = Json::object();
  FieldsToJson(attn::LabFields(), attn::LabConfig{}, out);
  out["view"] = "steps";
  return out;
}

LessonParse ParseLessonJson(const Json& v) {
  LessonParse out;
  try {
    const Node n{Object(v, "lesson"), ""};
    n.Keys({"format", "id", "title", "steps"});
    const Json* format = n.Find("format");
    if (!format || !format->is_string() || format->get_ref<const std::string&>() != kLessonFormat)
      RefuseAt("format", "\"attentionlab-lesson-1\"", format ? *format : Json());
    const Json* id = n.Find("id");
    const std::string* name = id && id->is_string() ? &id->get_ref<const std::string&>() : nullptr;
    if (!name || name->empty() || name->size() > kMaxLessonIdBytes || !std::all_of(name->begin(), name->end(), IdCharacter))
      RefuseAt("id", "1 to 64 characters of A-Z a-z 0-9 _ . -", id ? *id : Json());
    auto doc = std::make_shared<LessonDoc>();
    doc->id = *name;
    doc->title = Text(n.Need("title", "a title"), "title", kMaxLessonTitleBytes);
    const Json* steps = n.Find("steps");
    if (!steps || !steps->is_array() || steps->empty() || steps->size() > static_cast<std::size_t>(kMaxLessonSteps))
      RefuseGot("steps", "an array of 1 to 32 steps",
                steps && steps->is_array() ? std::to_string(steps->size()) + " steps" : steps ? DescribeJson(*steps) : "nothing");
    LabState defaults;
    defaults.lesson_steps = static_cast<int>(steps->size());
    defaults.predictions = std::string(steps->size(), '-');
    for (std::size_t i = 0; i < steps->size(); ++i) {
      const std::string path = "steps[" + std::to_string(i) + "]";
      doc->steps.push_back(Step(Node{Object((*steps)[i], path), path}, defaults));
    }
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
  const Json v = ParseJson(text);
  if (v.is_discarded()) {
    out.message = "lesson: expected a JSON document, got text that is not valid JSON";
    return out;
  }
  return ParseLessonJson(v);
}

}  // namespace attn::api

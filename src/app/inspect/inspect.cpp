// The inspect room (inspect.h): the tokens the state names, the lens and the attribution of the
// sentence shown, the room's share of a frame.
#include "app/inspect/inspect.h"

#include "model/lab/model_inspect.h"
#include "text/lesson_strings.h"

#include <cmath>
#include <cstdio>

#include <chrono>

namespace app {

namespace {

double MsFrom(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// The model's forward of the sentence shown, when there is one to inspect.
const attn::model::ModelLabResult* Shown(const RoomContext& c) {
  const LabView& v = c.view;
  if (c.lab.config.projection != attn::Projection::kModel || !v.model.loaded || !v.attention.result ||
      !v.attention.result->error.ok() || !v.attention.model_result || v.attention.model_result->ids.empty())
    return nullptr;
  return v.attention.model_result;
}

// What a picture of the sentence depends on: its ids, the weights, the tokens named.
std::string SentenceKey(const RoomContext& c, const attn::model::ModelLabResult& m, bool foil) {
  std::string key = std::to_string(c.view.model.weights_version) + "|" + c.lab.answer + "|" + (foil ? c.lab.foil : "") + "|";
  for (int id : m.ids) key += std::to_string(id) + " ";
  return key;
}

// Computes `cache` now unless it holds `key`: compute(value, error) -> ok.
template <class T, class F>
void Fill(InspectCache<T>& cache, const std::string& key, F compute) {
  if (cache.key == key) return;
  cache = InspectCache<T>{};
  cache.key = key;
  const auto t0 = std::chrono::steady_clock::now();
  cache.ok = compute(&cache.value, &cache.error);
  cache.ms = MsFrom(t0);
}

}  // namespace

InspectWork& Inspect::Work() const {
  if (!work_) work_ = {new InspectWork(), [](InspectWork* w) { delete w; }};
  return *work_;
}

bool Inspect::Prepare(const RoomContext& c, const attn::api::LabState& next, attn::api::PatchResult* refused) {
  const attn::model::LabModel* m = c.view.model.loaded;
  if (next.config.projection != attn::Projection::kModel || !m) return true;  // checked once the model is there
  for (const auto& [field, text] : {std::pair<const char*, const std::string*>{"answer", &next.answer}, {"foil", &next.foil}}) {
    int id = -1;
    std::string error;
    if (attn::model::ParseTokenChoice(*m, *text, field, &id, &error)) continue;
    refused->ok = false;
    refused->api_error = attn::api::ApiError::kBadValue;
    refused->field = field;
    refused->message = error;
    return false;
  }
  return true;
}

// ---- the lens and the attribution ---------------------------------------------------------------

bool Inspect::LensCurrent(const RoomContext& c) const {
  const attn::model::ModelLabResult* m = Shown(c);
  return m && Work().lens.key == SentenceKey(c, *m, false);
}

bool Inspect::AttributionCurrent(const RoomContext& c) const {
  const attn::model::ModelLabResult* m = Shown(c);
  return m && Work().attribution.key == SentenceKey(c, *m, true);
}

void Inspect::WantLens(const RoomContext& c) { Work().lens.wanted = Shown(c) && !LensCurrent(c); }
void Inspect::WantAttribution(const RoomContext& c) { Work().attribution.wanted = Shown(c) && !AttributionCurrent(c); }

void Inspect::EnsureLens(const RoomContext& c) {
  Work().lens.wanted = false;
  const attn::model::ModelLabResult* shown = Shown(c);
  if (!shown) return;
  const attn::model::LabModel& m = *c.view.model.loaded;
  Fill(Work().lens, SentenceKey(c, *shown, false), [&](attn::model::LogitLens* out, std::string* error) {
    int target = -1;
    return attn::model::ParseTokenChoice(m, c.lab.answer, "answer", &target, error) &&
           attn::model::ComputeLogitLens(m.params, m.config(), shown->acts, target, out, error, m.threads);
  });
}

namespace {

template <class... A>
std::string Say(const char* fmt, A... args) {
  std::string out(static_cast<std::size_t>(std::snprintf(nullptr, 0, fmt, args...)), '\0');
  std::snprintf(out.data(), out.size() + 1, fmt, args...);
  return out;
}
template <class... A>
std::pair<std::string, std::string> Line(const text::Text& t, A... args) {
  return {Say(t.en, args...), Say(t.ru, args...)};
}

// The lesson's readout (step 8, "attribution"): the model's next word, the head with the largest
// part, that head's largest weight and largest push (two words, or the same one).
std::vector<std::pair<std::string, std::string>> Readout(const attn::model::Attribution& a, const attn::model::LabModel& m,
                                                         const std::vector<std::string>& texts) {
  std::vector<std::pair<std::string, std::string>> out;
  out.push_back(Line(text::tr::kReadoutAttrLogit, m.tokenizer().Label(a.target).c_str(), a.logit, a.sum));
  const attn::model::AttributionPart* best = nullptr;
  for (const attn::model::AttributionPart& p : a.parts)
    if (p.kind == attn::model::AttributionPart::kHead && (!best || std::abs(p.value) > std::abs(best->value))) best = &p;
  if (!best) return out;
  out.push_back(Line(text::tr::kReadoutAttrHead, best->layer, best->head, best->value));
  const attn::model::HeadSources& h = a.heads[static_cast<std::size_t>(best->layer * m.config().heads + best->head)];
  std::size_t w = 0, p = 0;
  for (std::size_t j = 1; j < h.weight.size() && j < texts.size(); ++j) {
    if (h.weight[j] > h.weight[w]) w = j;
    if (std::abs(h.attribution[j]) > std::abs(h.attribution[p])) p = j;
  }
  out.push_back(Line(text::tr::kReadoutAttrWeight, texts[w].c_str(), h.weight[w], h.attribution[w]));
  out.push_back(Line(text::tr::kReadoutAttrPush, texts[p].c_str(), h.attribution[p], h.weight[p]));
  return out;
}

}  // namespace

void Inspect::EnsureAttribution(const RoomContext& c) {
  Work().attribution.wanted = false;
  const attn::model::ModelLabResult* shown = Shown(c);
  if (!shown) return;
  const attn::model::LabModel& m = *c.view.model.loaded;
  Fill(Work().attribution, SentenceKey(c, *shown, true), [&](attn::model::Attribution* out, std::string* error) {
    int target = -1, foil = -1;
    return attn::model::ParseTokenChoice(m, c.lab.answer, "answer", &target, error) &&
           attn::model::ParseTokenChoice(m, c.lab.foil, "foil", &foil, error) &&
           attn::model::ComputeAttribution(m.params, m.config(), shown->ids, shown->acts, target, foil, out, error);
  });
  Work().readout = Work().attribution.ok ? Readout(Work().attribution.value, m, shown->texts) : decltype(Work().readout){};
}

// ---- the room's share of a frame ----------------------------------------------------------------

void Inspect::Tick(const RoomContext& c, double budget_ms, FrameWork*) {
  // What the tab asked for in the last frame (which said "computing…")
  if (Work().lens.wanted) EnsureLens(c);
  if (Work().attribution.wanted) EnsureAttribution(c);
  // The jobs stop when what they run on changed (another sentence, corrupted prompt or model:
  // their pointers into the old weights are not followed again)
  if (Work().patching.running && !PatchingCurrent(c)) CancelPatching();
  if (Work().generation.running && Work().generation.key != std::to_string(c.view.model.weights_version)) CancelGeneration();
  const auto t0 = std::chrono::steady_clock::now();
  // At least one patched run or one token a frame, then as many as fit the budget
  while (Work().patching.running) {
    if (!StepPatching(c, 1) || MsFrom(t0) >= budget_ms) break;
  }
  while (Work().generation.running) {
    if (!StepGeneration(c) || MsFrom(t0) >= budget_ms) break;
  }
}

bool Inspect::NeedsFrames(const attn::api::LabState&, const LabView&) const {
  return Work().lens.wanted || Work().attribution.wanted || Work().patching.running || Work().generation.running;
}

void Inspect::Publish(LabView* view) const {
  view->inspect.attribution = Work().attribution.ok ? &Work().attribution.value : nullptr;
  view->inspect.readout = &Work().readout;
  if (Work().patching.has) {
    view->inspect.patching = &Work().patching.run;
    view->inspect.patch_clean = &Work().patching.clean;
    view->inspect.patch_corrupted = &Work().patching.corrupted;
    view->inspect.patch_what = &Work().patching.what;
  }
}

}  // namespace app

// The inspect room's page API (inspect.h): getLens, getAttribution, runPatching's start and
// status, generate's start and status. The pictures' JSON is `attnlab model lens / attribute /
// patch`'s (api/inspect_json.h), so that the page and the CLI print the same numbers.
#include "api/inspect_json.h"
#include "app/inspect/inspect.h"
#include "model/lab/model_inspect.h"

#include <cmath>

namespace app {

namespace {

Json Refusal(const std::string& field, const std::string& error) {
  return Json{{"ok", false}, {"field", field}, {"error", error}};
}

// The field a refusal's message starts with ("answer: ..."), else "".
Json RefusalOf(const std::string& error) {
  for (const char* field : {"answer", "foil", "corrupted", "patch", "target", "sentence", "projection"}) {
    const std::string f = field;
    if (error.compare(0, f.size() + 1, f + ":") == 0) return Refusal(f, error);
  }
  return Refusal("", error);
}

const char* kNotShown = "projection: the model's tools need model mode with the model loaded and the sentence run";

bool ModelShown(const RoomContext& c) {
  const LabView& v = c.view;
  return c.lab.config.projection == attn::Projection::kModel && v.model.loaded && v.attention.result &&
         v.attention.result->error.ok() && v.attention.model_result && !v.attention.model_result->ids.empty();
}

auto LabelOf(const attn::model::LabModel& m) {
  return [&m](int id) { return m.tokenizer().Label(id); };
}

// getAttribution's target or foil: an id, or a text (ParseTokenChoice's: one token, "#<id>").
bool TokenOption(const attn::model::LabModel& m, const Json& v, const char* field, int* id, std::string* error) {
  if (v.is_string()) return attn::model::ParseTokenChoice(m, v.get<std::string>(), field, id, error);
  const int vocab = m.config().vocab;
  const double x = v.is_number() ? v.get<double>() : -2;
  if (v.is_number() && x == std::floor(x) && x >= -1 && x < vocab) {
    *id = static_cast<int>(x);
    return true;
  }
  *error = std::string(field) + ": expected a token id from 0 to " + std::to_string(vocab - 1) +
           " (-1: none) or one token's text, got " + attn::api::DescribeJson(v);
  return false;
}

// generate()'s options, each checked with its name.
bool Number(const Json& j, const char* field, double lo, double hi, bool integer, double* out, attn::api::PatchResult* refused) {
  if (!j.contains(field)) return true;
  const Json& v = j[field];
  const double x = v.is_number() ? v.get<double>() : std::nan("");
  if (v.is_number() && x >= lo && x <= hi && (!integer || x == std::floor(x))) {
    *out = x;
    return true;
  }
  refused->ok = false;
  refused->api_error = attn::api::ApiError::kBadValue;
  refused->field = field;
  char range[96];
  std::snprintf(range, sizeof range, integer ? "an integer from %.0f to %.0f" : "a number from %g to %g", lo, hi);
  refused->message = std::string(field) + ": expected " + range + ", got " + attn::api::DescribeJson(v);
  return false;
}

}  // namespace

bool ParseGenerateOptions(const Json& j, GenerateOptions* out, attn::api::PatchResult* refused) {
  if (!j.is_object()) {
    refused->ok = false;
    refused->field = "";
    refused->message = "generate expects an object, e.g. {n: 16, temperature: 0.8, topK: 40, topP: 0.95, seed: 1}";
    return false;
  }
  for (const auto& [key, v] : j.items()) {
    (void)v;
    if (key != "n" && key != "temperature" && key != "topK" && key != "topP" && key != "seed") {
      refused->ok = false;
      refused->api_error = attn::api::ApiError::kUnknownField;
      refused->field = key;
      refused->message = key + ": unknown option (expected n, temperature, topK, topP, seed)";
      return false;
    }
  }
  GenerateOptions o = *out;
  double n = o.n, t = o.sampling.temperature, k = o.sampling.top_k, p = o.sampling.top_p, seed = static_cast<double>(o.sampling.seed);
  if (!Number(j, "n", 1, kMaxGenerate, true, &n, refused) || !Number(j, "temperature", 0, 100, false, &t, refused) ||
      !Number(j, "topK", 0, 1e9, true, &k, refused) || !Number(j, "topP", 1e-9, 1, false, &p, refused) ||
      !Number(j, "seed", 0, 9007199254740991.0, true, &seed, refused))
    return false;
  o.n = static_cast<int>(n);
  o.sampling.temperature = t;
  o.sampling.top_k = static_cast<int>(k);
  o.sampling.top_p = p;
  o.sampling.seed = static_cast<std::uint64_t>(seed);
  *out = o;
  return true;
}

Json Inspect::LensJson(const RoomContext& c) {
  if (!ModelShown(c)) return Refusal("projection", kNotShown);
  EnsureLens(c);
  if (!Work().lens.ok) return RefusalOf(Work().lens.error);
  const attn::model::LabModel& m = *c.view.model.loaded;
  Json out = attn::api::LensJson(Work().lens.value, c.view.attention.model_result->texts, LabelOf(m));
  out["ok"] = true;
  out["ms"] = Work().lens.ms;
  return out;
}

Json Inspect::AttributionJson(const RoomContext& c, const Json& options) {
  if (!options.is_null() && !options.is_object())
    return Refusal("", "getAttribution expects an object, e.g. {target: \" Paris\", foil: \" London\"} (both optional)");
  if (!ModelShown(c)) return Refusal("projection", kNotShown);
  const attn::model::LabModel& m = *c.view.model.loaded;
  const attn::model::ModelLabResult& shown = *c.view.attention.model_result;
  const bool given = options.is_object() && (options.contains("target") || options.contains("foil"));
  if (options.is_object())
    for (const auto& [key, v] : options.items()) {
      (void)v;
      if (key != "target" && key != "foil") return Refusal(key, key + ": unknown option (expected target, foil)");
    }
  const attn::model::Attribution* a = nullptr;
  attn::model::Attribution fresh;
  double ms = 0;
  if (!given) {
    EnsureAttribution(c);
    if (!Work().attribution.ok) return RefusalOf(Work().attribution.error);
    a = &Work().attribution.value;
    ms = Work().attribution.ms;
  } else {
    std::string error;
    int target = -1, foil = -1;
    if (!attn::model::ParseTokenChoice(m, c.lab.answer, "answer", &target, &error) ||
        !attn::model::ParseTokenChoice(m, c.lab.foil, "foil", &foil, &error))
      return RefusalOf(error);
    if ((options.contains("target") && !TokenOption(m, options["target"], "target", &target, &error)) ||
        (options.contains("foil") && !TokenOption(m, options["foil"], "foil", &foil, &error)))
      return RefusalOf(error);
    if (!attn::model::ComputeAttribution(m.params, m.config(), shown.ids, shown.acts, target, foil, &fresh, &error))
      return RefusalOf(error);
    a = &fresh;
  }
  Json out = attn::api::AttributionJson(*a, shown.texts, LabelOf(m));
  out["ok"] = true;
  out["ms"] = ms;
  return out;
}

Json Inspect::RunPatchingJson(const RoomContext& c, const Json& options) {
  if (!options.is_null() && !options.is_object())
    return Refusal("", "runPatching expects an object, e.g. {clean: \"...\", corrupted: \"...\", what: \"resid\"}");
  // the options as the state's rows (option -> row), so that the tab shows the run
  static const std::pair<const char*, const char*> kRows[] = {
      {"clean", "sentence"}, {"corrupted", "corrupted"}, {"what", "patch"}, {"target", "answer"}, {"foil", "foil"}};
  Json patch = Json::object();
  if (options.is_object())
    for (const auto& [key, v] : options.items()) {
      const char* row = nullptr;
      for (const auto& [option, name] : kRows)
        if (key == option) row = name;
      if (!row) return Refusal(key, key + ": unknown option (expected clean, corrupted, what, target, foil)");
      // a token by its id: the row's "#<id>"
      patch[row] = (v.is_number_integer() || v.is_number_unsigned()) && (key == "target" || key == "foil")
                       ? Json(v.get<long long>() < 0 ? std::string() : "#" + std::to_string(v.get<long long>()))
                       : v;
    }
  if (!patch.empty()) {
    attn::api::PatchResult r = c.requests.Apply(patch, Source::kApi);
    if (!r.ok) {
      std::string field = r.field, message = r.message;
      for (const auto& [option, row] : kRows)
        if (field == row) {
          field = option;
          if (message.compare(0, std::string(row).size(), row) == 0) message = option + message.substr(std::string(row).size());
        }
      return Refusal(field, message);
    }
  }
  const RoomContext now{c.lab, c.requests.View(), c.requests};  // the sentence's new run
  if (!StartPatching(now)) return RefusalOf(Work().patching.error);
  return PatchingJson(now);
}

Json Inspect::PatchingJson(const RoomContext& c) const {
  if (!Work().patching.has) return Work().patching.error.empty() ? Json(nullptr) : RefusalOf(Work().patching.error);
  const auto label = [&c](int id) { return c.view.model.loaded ? c.view.model.loaded->tokenizer().Label(id) : std::string(); };
  Json out = attn::api::PatchJson(Work().patching.run, Work().patching.what.c_str(), Work().patching.clean, Work().patching.corrupted, label);
  out["ok"] = Work().patching.error.empty();
  out["running"] = Work().patching.running;
  out["cancelled"] = Work().patching.cancelled;
  out["current"] = PatchingCurrent(c);
  out["ms"] = Work().patching.ms;
  if (!Work().patching.error.empty()) out["error"] = Work().patching.error;
  return out;
}

Json Inspect::StartGenerationJson(const RoomContext& c, const Json& options) {
  GenerateOptions o;
  attn::api::PatchResult refused;
  if (!ParseGenerateOptions(options.is_null() ? Json::object() : options, &o, &refused))
    return Refusal(refused.field, refused.message);
  if (!StartGeneration(c, o)) return RefusalOf(Work().generation.error);
  return GenerationJson(c);
}

Json Inspect::GenerationJson(const RoomContext&) const {
  const GenerateJob& g = Work().generation;
  if (!g.has) return g.error.empty() ? Json(nullptr) : RefusalOf(g.error);
  Json tokens = Json::array();
  const std::vector<int>& ids = g.run.result().tokens;
  for (std::size_t i = 0; i < ids.size() && i < g.texts.size(); ++i) tokens.push_back({{"id", ids[i]}, {"text", g.texts[i]}});
  const attn::model::SamplingConfig& s = g.options.sampling;
  return Json{{"ok", g.error.empty()},
              {"running", g.running},
              {"cancelled", g.cancelled},
              {"n", g.options.n},
              {"temperature", s.temperature},
              {"topK", s.top_k},
              {"topP", s.top_p},
              {"seed", s.seed},
              {"prompt", g.prompt},
              {"tokens", tokens},
              {"stopped", g.run.result().stopped},
              {"full", g.run.result().full},
              {"ms", g.ms},
              {"error", g.error.empty() ? Json(nullptr) : Json(g.error)}};
}

Json Inspect::CallJson(const RoomContext& c, const std::string& call, const Json& options) {
  if (call == "lens") return LensJson(c);
  if (call == "attribution") return AttributionJson(c, options);
  if (call == "runPatching") return RunPatchingJson(c, options);
  if (call == "patchingStatus") return PatchingJson(c);
  if (call == "generate") return StartGenerationJson(c, options);
  if (call == "generationStatus") return GenerationJson(c);
  if (call == "cancel") {
    CancelPatching();
    CancelGeneration();
    return nullptr;
  }
  return Refusal("", "unknown call \"" + call + "\"");
}

}  // namespace app

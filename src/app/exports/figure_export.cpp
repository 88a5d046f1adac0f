// The exports' requests and files (figure_export.h): what can be exported, the page's
// {what, format} read by the one refusal wording, file names, and the files written from the
// state alone.
#include "app/exports/svg_text.h"
#include "api/fields_json.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace app {

using namespace svg;

std::string XmlEscape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        // XML 1.0 forbids most control characters; they cannot be in a token anyway.
        if (static_cast<unsigned char>(c) >= 0x20 || c == '\t' || c == '\n') out += c;
    }
  }
  return out;
}

std::string AsciiSlug(const std::string& utf8, std::size_t max_len) {
  std::string slug;
  bool dash = false;
  for (std::size_t i = 0; i < utf8.size();) {
    const char32_t c = NextChar(utf8, i);
    std::string piece;
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) piece = std::string(1, static_cast<char>(c));
    else if (c >= 'A' && c <= 'Z') piece = std::string(1, static_cast<char>(c - 'A' + 'a'));
    else if (const char* t = Translit(c)) piece = t;
    else if (c == 0x44A || c == 0x44C || c == 0x42A || c == 0x42C) piece = "";
    else { dash = !slug.empty(); continue; }
    if (piece.empty()) continue;
    if (dash) slug += '-';
    dash = false;
    if (slug.size() + piece.size() > max_len) break;
    slug += piece;
  }
  return slug;
}

std::string ExportFileName(const LabView& v, const std::string& what, const std::string& ext, bool with_sentence) {
  std::string name = "attention-" + AsciiSlug(what);
  if (with_sentence) {
    const std::string slug = AsciiSlug(v.lab->config.sentence);
    if (!slug.empty()) name += "-" + slug;
  }
  return name + "." + ext;
}

const std::vector<ExportTarget>& ExportTargets() {
  static const std::vector<ExportTarget> kTargets = {
      {"weights", {"png", "svg", "csv", "json"}, true},
      {"trace", {"json"}, true},
      {"vectors", {"png"}, true},
      {"contributions", {"png", "svg"}, true},
      {"simplex", {"png", "svg"}, true},
      {"whatif", {"png", "svg", "csv"}, true},
      {"example_weights", {"png", "svg"}, false},
      {"loss", {"png", "svg"}, false},
      {"accuracy", {"png", "svg"}, false},
      {"attention", {"png", "svg"}, false},
      {"grad_norms", {"png", "svg"}, false},
      {"variance", {"png", "svg"}, false},
      {"sat_entropy", {"png", "svg"}, false},
      {"sat_grad", {"png", "svg"}, false},
      {"output_norm", {"png", "svg"}, false},
      {"curves_scaling", {"png", "svg"}, false},
      {"curves_norms", {"png", "svg"}, false},
      {"patching", {"png", "svg", "csv", "json"}, true},  // the Prediction tab (model mode)
      {"lens", {"png"}, true},
  };
  return kTargets;
}

const ExportTarget* FindExportTarget(const std::string& what) {
  for (const ExportTarget& t : ExportTargets())
    if (what == t.what) return &t;
  return nullptr;
}

bool ReadExportRequest(const Json& j, ExportRequest* out, std::string* field, std::string* error) {
  auto refuse = [&](const char* f, const std::string& expected, const Json& got) {
    *field = f;
    *error = std::string(f) + ": expected " + expected + ", got " + attn::api::DescribeJson(got);
    return false;
  };
  if (!j.is_object()) return refuse("", "an object like {what: 'weights', format: 'png'}", j);
  std::string names;
  for (const ExportTarget& t : ExportTargets()) names += std::string(names.empty() ? "" : ", ") + t.what;
  const Json what = j.contains("what") ? j["what"] : Json();
  const ExportTarget* target = what.is_string() ? FindExportTarget(what.get<std::string>()) : nullptr;
  if (!target) return refuse("what", "one of " + names, what);
  const Json format = j.contains("format") ? j["format"] : Json();
  std::string formats;
  bool known = false;
  for (const char* f : target->formats) {
    formats += std::string(formats.empty() ? "" : ", ") + f;
    known = known || (format.is_string() && format.get<std::string>() == f);
  }
  if (!known) return refuse("format", "one of " + formats + " for " + target->what, format);
  out->what = target->what;
  out->format = format.get<std::string>();
  return true;
}

bool ExportFromState(const ExportRequest& r) {
  if (r.format == "png") return false;
  return r.what == "weights" || r.what == "trace" || r.what == "contributions" || r.what == "simplex" ||
         r.what == "example_weights" || r.what == "whatif" || r.what == "patching";
}

std::string ExportMime(const std::string& format) {
  if (format == "png") return "image/png";
  if (format == "svg") return "image/svg+xml";
  if (format == "csv") return "text/csv;charset=utf-8";
  return "application/json";
}

ExportFile ExportText(const LabView& v, const ExportRequest& r, const std::string& trace) {
  ExportFile f;
  const ExportTarget* t = FindExportTarget(r.what);
  f.name = ExportFileName(v, r.format == "json" && r.what != "patching" ? "trace" : r.what, r.format, !t || t->with_sentence);
  f.type = ExportMime(r.format);
  std::string why;
  if (r.what == "whatif") {
    if (!attn::model::ModelCodeInBuild())  // the default page's build: not there yet (whatif.h)
      why = "what: expected a picture the lab draws now, got \"whatif\" (the what-if tools are still loading)";
    else
      f.bytes = r.format == "csv" ? WhatIfCsv(v, &why) : WhatIfSvg(v, &why);
  }
  else if (r.what == "patching") f.bytes = PatchingExport(v, r.format, &why);
  else if (r.format == "csv") f.bytes = WeightsCsv(v);
  else if (r.what == "contributions") f.bytes = ContributionsSvg(v);
  else if (r.what == "simplex") f.bytes = SimplexSvg(v, &why);
  else if (r.what == "example_weights") f.bytes = ExampleWeightsSvg(v, &why);
  else if (r.format == "svg") f.bytes = WeightsSvg(v);
  else f.bytes = trace;
  if (!why.empty()) {
    f.field = "what";
    f.error = why;
  }
  return f;
}


}  // namespace app

// Figures and numbers for course pages, papers and slides (issue 11, item 5): the text formats of
// an export, written from the engine's numbers the rooms publish (LabView). No ImGui, SDL or GL (tests/app):
// the PNG, which is the GPU's own picture at 2x, is read back by src/platform/export.cpp.
//
//   weights  CSV   UTF-8 with a byte-order mark (so that Excel reads Cyrillic), CRLF lines:
//                  a header row (the corner cell, then the N key tokens) and N rows (the query
//                  token, then its N weights written exactly as getTrace() writes them)
//   weights  SVG   the heatmap: viridis cells (app/colormap.h, the shader's table), the tokens as
//                  real text, the query's row outlined, masked cells hatched, the legend
//   trace    JSON  TraceJson(): the same text as attentionLab.getTrace()
//   plots    SVG   PlotSvg(): a line plot the interface has laid out (ranges, ticks, series)
//   contributions SVG  the Information panel's bars: α and α′ per token with each weight's
//                  contribution wᵢvᵢ, the outputs A and A′ and their largest difference
//   simplex  SVG   the Information panel's simplex (3 or 4 keys): the corners, the weights that
//                  give the same A (a point, segment or polygon), α and α′
//   example_weights SVG  the Training tab's example heatmaps: every head of run A (and B)
//   patching CSV, SVG, JSON  activation patching's grid (layer × position or head), the
//                  normalized logit difference
//   whatif   CSV, SVG  Δα of the chosen head (an edited run minus the plain one, issue 23) on the
//                  plain run's tokens: the CSV's numbers as getTrace().comparison writes them (a
//                  deleted query's row empty), the SVG on the diverging map with its legend
#pragma once

#include "api/state_json.h"
#include "app/lab_view.h"

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace app {


// A file name safe everywhere (ASCII letters, digits and '-'): "attention-<what>[-<sentence>].<ext>",
// the sentence transliterated from Cyrillic (я люблю суши -> ya-lyublyu-sushi) and cut to 40
// characters; `with_sentence` is false for the training and normalization plots.
// What can be exported: the pictures the interface draws (their ids are the page API's `what`)
// and the formats of each. `trace` is another name for the weights' JSON.
struct ExportTarget {
  const char* what;
  std::vector<const char*> formats;  // "png", "svg", "csv", "json"
  bool with_sentence;                // the file name carries the sentence
};
const std::vector<ExportTarget>& ExportTargets();
const ExportTarget* FindExportTarget(const std::string& what);

struct ExportRequest {
  std::string what, format;
};
// Reads the page's {what, format}: true, or false with the field and the one refusal wording
// ("format: expected one of png, svg for loss, got \"csv\"").
bool ReadExportRequest(const Json& j, ExportRequest* out, std::string* field, std::string* error);
// True when the file is written from the rooms' results alone (the weights' SVG, CSV and JSON); the PNGs
// and the plots' SVGs need the interface's frame.
bool ExportFromState(const ExportRequest& r);

struct ExportFile {
  std::string name;   // e.g. attention-weights-ya-lyublyu-sushi.csv
  std::string type;   // MIME type
  std::string bytes;
  std::string field, error;  // a refusal (the lab draws no such picture now): "what", the one wording
};
// `trace`: getTrace()'s text (app.h's TraceJson), the file of the format "json" (else unused).
ExportFile ExportText(const LabView& v, const ExportRequest& r, const std::string& trace);  // needs ExportFromState(r)
std::string ExportMime(const std::string& format);

std::string ExportFileName(const LabView& v, const std::string& what, const std::string& ext, bool with_sentence);
std::string AsciiSlug(const std::string& utf8, std::size_t max_len = 40);

std::string WeightsCsv(const LabView& v);
std::string WeightsSvg(const LabView& v);
// The Information panel's pictures and the Training tab's example heatmaps, from the same numbers
// the panels draw (the dragged weights when the learner dragged some). "" with the reason in
// *why (the one wording, field `what`) when the lab draws no such picture now.
std::string ContributionsSvg(const LabView& v);
std::string SimplexSvg(const LabView& v, std::string* why);
std::string ExampleWeightsSvg(const LabView& v, std::string* why);
std::string WhatIfCsv(const LabView& v, std::string* why);
std::string WhatIfSvg(const LabView& v, std::string* why);
// Activation patching's grid (the Prediction tab; patching_export.cpp, in the builds with the
// model's code; patching_export_absent.cpp in the default page's): "csv" (a row per layer, a
// column per position or head, empty where not run), "svg" (the diverging map, its labels and
// legend) or "json" (runPatching's). "" with the refusal in *why when there is no run.
std::string PatchingExport(const LabView& v, const std::string& format, std::string* why);

struct SvgSeries {
  std::string label;                      // "" = not in the legend
  std::array<std::uint8_t, 3> rgb{255, 255, 255};
  std::vector<double> x, y;               // (count); a point that cannot be drawn breaks the line
  std::vector<double> lo, hi;             // (count) or empty: a shaded band
  bool dashed = false, markers = false, highlight = false;
};
struct SvgPlot {
  std::string title, x_label, y_label;
  bool log_x = false, log_y = false;
  double x_lo = 0, x_hi = 1, y_lo = 0, y_hi = 1;          // the drawn ranges (the data's units)
  std::vector<std::pair<double, std::string>> x_ticks, y_ticks;  // position, text
  std::vector<std::pair<double, std::string>> marks;     // vertical lines with their labels
  std::vector<double> hlines;                            // dotted horizontal lines
  std::vector<SvgSeries> series;
};
std::string PlotSvg(const SvgPlot& p);

std::string XmlEscape(const std::string& text);

}  // namespace app

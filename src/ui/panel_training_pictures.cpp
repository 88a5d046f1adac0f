// The Training tab's pictures (panel_training.h): the example's attention (one heatmap per head,
// per run), the backward pass through the query's weights, the loss / accuracy / attention
// curves and the gradient norms of W_Q, W_K, W_V.
#include "text/i18n.h"
#include "ui/plot.h"
#include "ui/panel_training.h"
#include "ui/ui.h"

#include <misc/cpp/imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace ui {
namespace training {

namespace {

using app::Json;

// One head's weights on the example: rows = queries, columns = keys; the query row outlined.
// Returns true when a row was clicked (its index in *clicked).
bool DrawWeights(Context& ctx, gfx::HeatmapSlot slot, int head, const attn::MatD& w, const std::vector<std::string>& tokens, int query,
                 float side, bool labels_left, ImU32 frame, int* clicked) {
  const int n = static_cast<int>(w.rows());
  if (n == 0 || w.cols() != n) return false;
  ctx.heatmap.Upload(slot, head, attn::ToRowMajor(w.cast<float>()), n, n);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  float label_w = 0;
  if (labels_left)
    for (const auto& t : tokens) label_w = std::max(label_w, ImGui::CalcTextSize(t.c_str()).x);
  label_w = labels_left ? std::min(label_w + 6, 90.0f) : 0.0f;
  const float line = ImGui::GetTextLineHeight();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 p0(origin.x + label_w, origin.y + line + 2), p1(p0.x + side, p0.y + side);
  const float cell = side / n;
  ctx.heatmap.Draw(dl, slot, head, p0, p1, 0.0f, 1.0f);
  const ImU32 text_col = ImGui::GetColorU32(ImGuiCol_Text);
  for (int i = 0; i < n; ++i) {
    const char* t = i < static_cast<int>(tokens.size()) ? tokens[i].c_str() : "?";
    const ImVec2 ts = ImGui::CalcTextSize(t);
    // Column labels on top where they fit, row labels on the left where the rows are tall
    // enough (the query's always); the tooltip names every cell.
    if (cell >= ts.x + 2) dl->AddText(ImVec2(p0.x + cell * (i + 0.5f) - ts.x * 0.5f, origin.y), text_col, t);
    if (labels_left && (cell >= ts.y * 0.8f || i == query)) {
      dl->PushClipRect(origin, ImVec2(p0.x - 3, p1.y), true);
      dl->AddText(ImVec2(p0.x - 4 - ts.x, p0.y + cell * (i + 0.5f) - ts.y * 0.5f), i == query ? kColA : text_col, t);
      dl->PopClipRect();
    }
  }
  // The numbers, when they fit.
  if (cell >= ImGui::CalcTextSize("−0.00").x + 4) {
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        const float v = static_cast<float>(w(i, j));
        const char* txt = Num(v, 2);
        const ImVec2 ts = ImGui::CalcTextSize(txt);
        dl->AddText(ImVec2(p0.x + cell * (j + 0.5f) - ts.x * 0.5f, p0.y + cell * (i + 0.5f) - ts.y * 0.5f),
                    v > 0.6f ? IM_COL32(0, 0, 0, 255) : IM_COL32(255, 255, 255, 230), txt);
      }
  }
  if (query >= 0 && query < n)
    dl->AddRect(ImVec2(p0.x - 1, p0.y + cell * query - 1), ImVec2(p1.x + 1, p0.y + cell * (query + 1) + 1), kColA, 0, 0, 2.5f);
  dl->AddRect(ImVec2(p0.x - 2, p0.y - 2), ImVec2(p1.x + 2, p1.y + 2), frame, 0, 0, 1.0f);
  ImGui::SetCursorScreenPos(p0);
  ImGui::InvisibleButton("cells", ImVec2(side, side));
  bool click = false;
  if (ImGui::IsItemHovered()) {
    const ImVec2 m = ImGui::GetIO().MousePos;
    const int i = std::clamp(static_cast<int>((m.y - p0.y) / cell), 0, n - 1);
    const int j = std::clamp(static_cast<int>((m.x - p0.x) / cell), 0, n - 1);
    if (i < static_cast<int>(tokens.size()) && j < static_cast<int>(tokens.size()))
      ImGui::SetTooltip(L(tr::kHover), tokens[i].c_str(), tokens[j].c_str(), Num(static_cast<float>(w(i, j)), 4));
    if (ImGui::IsItemClicked()) {
      *clicked = i;
      click = true;
    }
  }
  ImGui::SetCursorScreenPos(ImVec2(origin.x, p1.y + 4));
  ImGui::Dummy(ImVec2(label_w + side, 0));
  return click;
}

// Run A's (and B's) heatmaps, one per head, with a title line each.
// `reserve`: room left free at the right end of the title's first line (the export menu).
void DrawRunHeatmaps(Context& ctx, const app::TrainRun& run, gfx::HeatmapSlot slot, const char* title, ImU32 colour,
                     float width, float max_side, float reserve = 0.0f) {
  app::AppState& s = ctx.state;
  if (!run.has_view) return;
  const auto& heads = run.view.forward.attn.heads;
  const int h = static_cast<int>(heads.size());
  if (h == 0 || heads[0].weights.rows() != static_cast<Eigen::Index>(run.view.tokens.size())) {
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(colour), "%s", title);
    ImGui::TextDisabled("%s", L(tr::kNoView));  // e.g. after a divergence: nothing finite to draw
    return;
  }
  ImGui::PushID(&run);  // run A and run B
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(colour));
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + std::max(40.0f, width - reserve));
  ImGui::TextWrapped("%s", title);
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
  float label_w = 0;
  for (const auto& t : run.view.tokens) label_w = std::max(label_w, ImGui::CalcTextSize(t.c_str()).x);
  label_w = std::min(label_w + 6, 90.0f);
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  const float side = std::max(40.0f, std::min(max_side, (width - label_w - gap * h) / std::max(1, h)));
  for (int k = 0; k < h; ++k) {
    if (k) ImGui::SameLine();
    ImGui::BeginGroup();
    ImGui::PushID(k);
    int clicked = -1;
    if (DrawWeights(ctx, slot, k, heads[k].weights, run.view.tokens, s.training.query, side, k == 0, colour, &clicked))
      SetTrain(s, "query", clicked);
    if (h > 1) {
      char buf[64];
      std::snprintf(buf, sizeof buf, L(tr::kHeadOf), k, h - 1);
      ImGui::TextDisabled("%s", buf);
    }
    ImGui::PopID();
    ImGui::EndGroup();
  }
  ImGui::PopID();
}

// The backward pass through the query row's weights: for every key i, scale(i) = α_i, the
// gradient dL/dα_i that reaches it from the loss, and dL/ds_i after the normalizer's backward,
// as a table of bars (the right key highlighted).
void DrawBackprop(Context& ctx, const app::TrainRun& run, const char* id, float width) {
  const app::AppState& s = ctx.state;
  if (!run.has_view) return;
  const int q = s.training.query;
  const auto& heads = run.view.forward.attn.heads;
  const auto& grads = run.view.grads.heads;
  const int n = static_cast<int>(run.view.tokens.size());
  if (heads.empty() || grads.size() != heads.size() || q < 0 || q >= n) return;
  const int source = q < static_cast<int>(run.view.example.sources.size()) ? run.view.example.sources[q] : -1;
  const int target = q < static_cast<int>(run.view.example.targets.size()) ? run.view.example.targets[q] : -1;
  if (target < 0) {  // no loss at this position: nothing flows back into its row
    char buf[200];
    std::snprintf(buf, sizeof buf, L(tr::kBpNoTarget), run.view.tokens[q].c_str());
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
    ImGui::TextWrapped("%s", buf);
    ImGui::PopTextWrapPos();
  }
  ImGui::PushID(id);
  // Several heads: the one chosen above the tables (one table per run stays readable).
  const std::size_t chosen = std::min<std::size_t>(static_cast<std::size_t>(std::max(0, ctx.ui.bp_head)), heads.size() - 1);
  for (std::size_t h = chosen; h == chosen; ++h) {
    if (heads[h].weights.rows() != n || grads[h].dweights.rows() != n || grads[h].dscaled.rows() != n) continue;
    // One scale per column, so that bars of a column compare (the largest |value| fills it).
    double s_da = 0, s_ds = 0;
    for (int i = 0; i < n; ++i) {
      s_da = std::max(s_da, std::fabs(grads[h].dweights(q, i)));
      s_ds = std::max(s_ds, std::fabs(grads[h].dscaled(q, i)));
    }
    ImGui::PushID(static_cast<int>(h));
    const ImGuiTableFlags flags = ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_NoPadOuterX;
    if (ImGui::BeginTable("bp", 4, flags, ImVec2(width, 0))) {
      ImGui::TableSetupColumn(L(tr::kColToken), ImGuiTableColumnFlags_WidthStretch, 0.7f);
      ImGui::TableSetupColumn(L(tr::kBpAlpha), ImGuiTableColumnFlags_WidthStretch, 1.0f);
      ImGui::TableSetupColumn(L(tr::kBpDAlpha), ImGuiTableColumnFlags_WidthStretch, 1.0f);
      ImGui::TableSetupColumn(L(tr::kBpDScore), ImGuiTableColumnFlags_WidthStretch, 1.0f);
      ImGui::TableHeadersRow();
      for (int i = 0; i < n; ++i) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        if (i == source) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(kColA), "%s ◀", run.view.tokens[i].c_str());
        else ImGui::TextUnformatted(run.view.tokens[i].c_str());
        ImGui::TableNextColumn();
        SignedBar(heads[h].weights(q, i), 1.0, ImGui::GetContentRegionAvail().x, kColA, kNeg, true);
        ImGui::TableNextColumn();
        SignedBar(grads[h].dweights(q, i), s_da, ImGui::GetContentRegionAvail().x, kPos, kNeg);
        ImGui::TableNextColumn();
        SignedBar(grads[h].dscaled(q, i), s_ds, ImGui::GetContentRegionAvail().x, kPos, kNeg);
      }
      ImGui::EndTable();
    }
    ImGui::PopID();
  }
  ImGui::PopID();
}

void DrawGradNorms(Context& ctx, float width, float height);

// One metric of a run's history as a plot line: the StepMetrics member at `offset`, read in place.
PlotSeries HistorySeries(const std::vector<attn::StepMetrics>& h, std::size_t offset, const std::string& label, ImU32 col) {
  PlotSeries p;
  p.label = label;
  p.colour = col;
  p.count = static_cast<int>(h.size());
  p.y = h.empty() ? nullptr : reinterpret_cast<const double*>(reinterpret_cast<const char*>(h.data()) + offset);
  p.stride = sizeof(attn::StepMetrics);
  return p;
}

// Loss, accuracy and attention on the right key, run A (and B) overlaid; then the gradient norms.
void DrawCurves(Context& ctx, float width, float height, bool stacked) {
  app::AppState& s = ctx.state;
  const auto& t = s.training;
  const auto& ha = t.a.trainer.history();
  const auto& hb = t.b.trainer.history();
  const std::string la = t.compare ? "A" : "", lb = t.compare ? "B" : "";  // the summary says what B is
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  const float w = stacked ? width : (width - 3 * gap) / 4.0f;
  struct Metric { std::size_t offset; const Text* title; bool log; bool unit; };
  const Metric metrics[] = {{offsetof(attn::StepMetrics, loss), &tr::kCurveLoss, ctx.ui.log_loss, false},
                            {offsetof(attn::StepMetrics, accuracy), &tr::kCurveAccuracy, false, true},
                            {offsetof(attn::StepMetrics, attention_on_source), &tr::kCurveAttention, false, true}};
  for (int m = 0; m < 3; ++m) {
    if (m && !stacked) ImGui::SameLine();
    PlotSpec spec;
    spec.title = L(*metrics[m].title);
    spec.x_label = L(tr::kStepAxis);
    spec.log_y = metrics[m].log;
    if (metrics[m].unit) {  // accuracy and the share of weight on the right key: in [0, 1]
      spec.y_min = 0;
      spec.y_max = 1;
    }
    std::vector<PlotSeries> lines;
    lines.push_back(HistorySeries(ha, metrics[m].offset, la, kColA));
    if (t.compare) lines.push_back(HistorySeries(hb, metrics[m].offset, lb, kColB));
    ImGui::BeginGroup();
    static const char* const kFigures[] = {"loss", "accuracy", "attention"};
    spec.figure = kFigures[m];
    Plot(spec.title.c_str(), ImVec2(w, height), spec, lines);
    if (m == 0) {
      bool log = ctx.ui.log_loss;
      if (ImGui::Checkbox(Label(tr::kLogScale, "log_loss"), &log)) ctx.ui.log_loss = log;
    }
    ImGui::EndGroup();
  }
  if (!stacked) ImGui::SameLine();
  DrawGradNorms(ctx, w, height);
}

// Gradient norms of W_Q, W_K, W_V (and W_O), log scale; run B dashed.
void DrawGradNorms(Context& ctx, float width, float height) {
  const app::AppState& s = ctx.state;
  const auto& t = s.training;
  std::vector<PlotSeries> lines;
  auto add = [&](const std::vector<attn::StepMetrics>& h, std::size_t offset, const char* label, ImU32 col, bool dashed) {
    PlotSeries p = HistorySeries(h, offset, label, col);
    p.dashed = dashed;
    p.thickness = 1.4f;
    lines.push_back(p);
  };
  const auto& ha = t.a.trainer.history();
  add(ha, offsetof(attn::StepMetrics, grad_norm_q), "W_Q", kColQ, false);
  add(ha, offsetof(attn::StepMetrics, grad_norm_k), "W_K", kColK, false);
  add(ha, offsetof(attn::StepMetrics, grad_norm_v), "W_V", kColV, false);
  if (t.compare) {  // run B dashed, in the same colours (the caption says so)
    const auto& hb = t.b.trainer.history();
    add(hb, offsetof(attn::StepMetrics, grad_norm_q), "", kColQ, true);
    add(hb, offsetof(attn::StepMetrics, grad_norm_k), "", kColK, true);
    add(hb, offsetof(attn::StepMetrics, grad_norm_v), "", kColV, true);
  }
  PlotSpec spec;
  spec.title = L(tr::kCurveGradNorms);
  spec.x_label = L(tr::kStepAxis);
  spec.log_y = true;
  spec.figure = "grad_norms";
  Plot("grad_norms", ImVec2(width, height), spec, lines);
}

// The latest numbers of a run, one line.
void DrawRunSummary(const app::TrainRun& run, const char* name, ImU32 colour) {
  const auto& h = run.trainer.history();
  char buf[300];
  const std::string prefix = name[0] ? std::string(name) + ": " : std::string();
  if (h.empty()) {
    std::snprintf(buf, sizeof buf, L(tr::kSummaryNone), prefix.c_str());
  } else {
    const attn::StepMetrics& m = h.back();
    std::snprintf(buf, sizeof buf, L(tr::kSummary), prefix.c_str(), m.step, ShortNumber(m.loss).c_str(), 100.0 * m.accuracy,
                  m.attention_on_source);
  }
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(colour));
  ImGui::TextWrapped("%s", buf);
  ImGui::PopStyleColor();
}

}  // namespace

void DrawPictures(Context& ctx, bool narrow) {
  app::AppState& s = ctx.state;
  const auto& t = s.training;
  const float avail = ImGui::GetContentRegionAvail().x;
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  const std::string b_title = CompareText(s);
  DrawRunSummary(t.a, t.compare ? "A" : "", kColA);
  if (t.compare) DrawRunSummary(t.b, b_title.c_str(), kColB);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("%s", L(tr::kTrainCaption));
  ImGui::PopStyleColor();

  // Row 1: the example's attention (A, B) and the backward pass through the query's row.
  const float bars_w = narrow ? avail : std::min(420.0f, avail * 0.45f);
  const float maps_w = narrow ? avail : avail - bars_w - gap * 2;
  const float max_side = narrow ? 200.0f : (t.compare ? 170.0f : 230.0f);
  const ImVec2 maps_at = ImGui::GetCursorScreenPos();
  const float menu_w = ImGui::CalcTextSize("↓").x + ImGui::GetStyle().FramePadding.x * 2 + gap;
  // Row 1 is one group, so that row 2 starts below the taller of its columns: the export menu
  // (the last item before SameLine) made ImGui measure the row by the backprop column alone, and
  // a heatmap taller than the table ran under the curves.
  ImGui::BeginGroup();
  ImGui::BeginGroup();
  if (t.compare && !narrow && s.lab.train.config.heads == 1) {
    const float half = (maps_w - gap) * 0.5f;
    ImGui::BeginGroup();
    DrawRunHeatmaps(ctx, t.a, gfx::HeatmapSlot::kTrainA, L(tr::kRunA), kColA, half, max_side, menu_w);
    ImGui::EndGroup();
    ImGui::SameLine();
    ImGui::BeginGroup();
    DrawRunHeatmaps(ctx, t.b, gfx::HeatmapSlot::kTrainB, b_title.c_str(), kColB, half, max_side);
    ImGui::EndGroup();
  } else {
    DrawRunHeatmaps(ctx, t.a, gfx::HeatmapSlot::kTrainA, t.compare ? L(tr::kRunA) : L(tr::kExampleAttention), kColA, maps_w,
                    max_side, menu_w);
    if (t.compare) DrawRunHeatmaps(ctx, t.b, gfx::HeatmapSlot::kTrainB, b_title.c_str(), kColB, maps_w, max_side);
  }
  ImGui::EndGroup();
  if (t.a.has_view) {  // exportable (issue 11.5): the heatmaps of every head, runs A and B
    const ImVec2 after = ImGui::GetCursorScreenPos();
    const ImVec2 fig_min = ImGui::GetItemRectMin();
    ImVec2 fig_max = ImGui::GetItemRectMax();
    // The menu at the right end of the first title line, never over the title's text (its
    // wrapping left room for the menu).
    const char* first_title = t.compare ? L(tr::kRunA) : L(tr::kExampleAttention);
    const float title_w = ImGui::CalcTextSize(first_title).x;
    fig_max.x = std::max(fig_max.x, std::min(maps_at.x + maps_w, fig_min.x + title_w + menu_w));
    AddFigure(ctx.ui, "example_weights", fig_min, fig_max, true, false);
    const ImVec2 top_right(fig_max.x, maps_at.y);
    ExportMenu(ctx.ui, "example_weights", true, false, &top_right);
    ImGui::SetCursorScreenPos(after);
  }
  if (!narrow) ImGui::SameLine(0, gap * 2);
  ImGui::BeginGroup();
  char buf[300];
  const int q = t.query;
  const std::string qtok = t.a.has_view && q >= 0 && q < static_cast<int>(t.a.view.tokens.size()) ? t.a.view.tokens[q] : "?";
  std::snprintf(buf, sizeof buf, L(tr::kBpTitle), qtok.c_str());
  ImGui::TextColored(ImVec4(0.55f, 0.8f, 1.0f, 1.0f), "%s", buf);
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + std::min(bars_w, ImGui::GetContentRegionAvail().x));
  ImGui::TextDisabled("%s", L(tr::kBpCaption));
  ImGui::PopTextWrapPos();
  const int heads = s.lab.train.config.heads;
  if (heads > 1) {  // which head's row the tables show
    for (int h = 0; h < heads; ++h) {
      char label[32];
      std::snprintf(label, sizeof label, L(tr::kHeadN), h);
      if (h) ImGui::SameLine();
      ImGui::PushID(h);
      if (ImGui::RadioButton(label, std::min(ctx.ui.bp_head, heads - 1) == h)) ctx.ui.bp_head = h;
      ImGui::PopID();
    }
  }
  DrawBackprop(ctx, t.a, "bp_a", bars_w);
  if (t.compare) {
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(kColB), "%s", b_title.c_str());
    DrawBackprop(ctx, t.b, "bp_b", bars_w);
  }
  ImGui::EndGroup();
  ImGui::EndGroup();  // row 1

  // Row 2: the curves and the gradient norms (a group too: the loss plot's "log scale" box
  // below it is part of the row, so the caption comes after it).
  ImGui::Spacing();
  const float plot_h = narrow ? 190.0f : std::max(170.0f, std::min(240.0f, ImGui::GetContentRegionAvail().y - 4 * ImGui::GetTextLineHeightWithSpacing()));
  ImGui::BeginGroup();
  DrawCurves(ctx, avail, plot_h, narrow);
  ImGui::EndGroup();
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("%s", L(tr::kGradCaption));
  ImGui::PopStyleColor();
}

}  // namespace training
}  // namespace ui

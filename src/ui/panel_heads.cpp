// The trained model's mode (issue 13): the gallery of every layer x head, and what the other
// panels show while the model's files are not there yet (progress, or the failure and a way on).
#include "app/lesson/lesson.h"
#include "text/i18n.h"
#include "text/refusal_message.h"
#include "ui/ui.h"

#include <algorithm>
#include <cstdio>

namespace ui {

namespace {
constexpr float kMin = 0.0f, kMax = 1.0f;  // weights are probabilities
constexpr int kGalleryHeads = 24;          // more heads than this: a page of layers at a time

// What the head analysis measured for one head, as a short label ("previous 0.43").
std::string HeadLabel(const attn::model::HeadScores& h) {
  using attn::model::HeadKind;
  char buf[64];
  switch (attn::model::KindOf(h, attn::model::kHeadLabelAt)) {
    case HeadKind::kSpread: std::snprintf(buf, sizeof buf, L(tr::kHeadSpread), h.entropy); break;
    case HeadKind::kInduction: std::snprintf(buf, sizeof buf, L(tr::kHeadInduction), h.induction); break;
    case HeadKind::kPrevious: std::snprintf(buf, sizeof buf, L(tr::kHeadPrevious), h.previous); break;
    case HeadKind::kSink: std::snprintf(buf, sizeof buf, L(tr::kHeadSink), h.first); break;
    case HeadKind::kSelf: std::snprintf(buf, sizeof buf, L(tr::kHeadSelf), h.self); break;
  }
  return buf;
}
}  // namespace

bool ModelMode(const Context& ctx) {
  const app::AppState& s = ctx.state;
  // ModelCodeInBuild() first: a constant false in the default page's build (absent.cpp), where
  // the model never loads, so the optimizer (LTO) drops every model-mode drawing from it.
  return attn::model::ModelCodeInBuild() && s.lab.config.projection == attn::Projection::kModel && s.model.loaded && s.attention.result.error.ok() &&
         !s.attention.model_result.acts.blocks.empty();
}

const attn::LabConfig& Shown(const Context& ctx) {
  return ModelMode(ctx) ? ctx.state.attention.model_result.config : ctx.state.lab.config;
}

bool ModelPendingPanel(Context& ctx, const char* title, const char* id) {
  app::AppState& s = ctx.state;
  if (s.lab.config.projection != attn::Projection::kModel || s.attention.result.error.ok()) return false;
  if (BeginPanel(ctx, title, id, ImVec2(0, 0))) {
    const app::ModelStatus& st = s.model.status;
    char buf[512];
    if (st.load == app::ModelLoad::kFailed) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.55f, 0.45f, 1.0f));
      std::snprintf(buf, sizeof buf, L(tr::kModelFailed), st.message.c_str());
      ImGui::TextWrapped("%s", buf);
      ImGui::PopStyleColor();
      ImGui::TextWrapped("%s", L(tr::kModelFailedHint));
      if (ImGui::Button(Label(tr::kModelRetry, "model_retry"))) app::RetryModel(s);
      ImGui::SameLine();
      if (ImGui::Button(Label(tr::kModelBack, "model_back"))) app::ApplyPatch(s, attn::api::Obj({{"projection", "identity"}, {"query", 1}}));
    } else if (s.model.loaded) {  // loaded, but the settings are refused (the header says why)
      ImGui::TextWrapped("%s", RefusalMessage(s.refusal).c_str());
    } else if (attn::model::ModelCodeInBuild() && !st.name.empty()) {  // a checkpoint (the page: its bytes, Cancel)
      DrawModelLoadStatus(ctx);
    } else {
      std::snprintf(buf, sizeof buf, L(tr::kModelLoading), st.fraction * 100.0);
      ImGui::TextWrapped("%s", buf);
      ImGui::ProgressBar(static_cast<float>(st.fraction), ImVec2(-1, 0));
    }
  }
  EndPanel();
  return true;
}

void DrawHeadsPanel(Context& ctx) {
  app::AppState& s = ctx.state;
  ctx.ui.head_thumbs.clear();
  if (!ModelMode(ctx)) return;
  const attn::model::ModelLabResult& m = s.attention.model_result;
  const int all_layers = static_cast<int>(m.acts.blocks.size());
  const int heads = static_cast<int>(m.acts.blocks[0].attn.heads.size());
  // The page of layers shown: all of them up to 24 heads, else as many layers as 24 heads hold
  // (at least one), the chosen layer's page unless ◀ ▶ chose another.
  const int per_page = all_layers * heads > kGalleryHeads ? std::max(1, kGalleryHeads / heads) : all_layers;
  const int pages = (all_layers + per_page - 1) / per_page;
  if (ctx.ui.heads_page_layer != s.lab.config.layer) ctx.ui.heads_page = -1;  // the layer moved: follow it
  const int page = std::clamp(ctx.ui.heads_page >= 0 ? ctx.ui.heads_page : s.lab.config.layer / per_page, 0, pages - 1);
  const int first = page * per_page, layers = std::min(per_page, all_layers - first);
  // The thumbnails' side: as wide as the panel allows, and short enough for all the layers to
  // fit the height left (at least 36 px: then the column scrolls).
  const ImGuiStyle& st = ImGui::GetStyle();
  const float line = ImGui::GetTextLineHeight();
  const float gap = st.ItemSpacing.x + 4.0f;
  const ImVec2 avail = ImGui::GetContentRegionAvail();

  const float caption_h = ImGui::CalcTextSize(L(tr::kHeadsCaption), nullptr, false, avail.x - 2 * st.WindowPadding.x).y;
  const float by_width = (avail.x - 2 * st.WindowPadding.x - gap * (heads - 1)) / heads;
  // The caption when there is room for it (a phone's tab scrolls; a laptop's column is short):
  // otherwise it is the panel's tooltip.
  const float chrome_bare = 2 * st.WindowPadding.y + 2 * ImGui::GetTextLineHeightWithSpacing() +  // title, separator
                            (pages > 1 ? ImGui::GetFrameHeightWithSpacing() : 0.0f);                // the pager
  const float row_extra = st.ItemSpacing.y;  // the label is written inside the thumbnail's foot
  const bool caption = (avail.y - chrome_bare - caption_h - st.ItemSpacing.y) / layers - row_extra >= 44.0f;
  const float chrome = chrome_bare + (caption ? caption_h + st.ItemSpacing.y : 0.0f);
  const float by_height = (avail.y - chrome) / layers - row_extra;
  const float side = std::min({110.0f, by_width, std::max(40.0f, by_height)});
  const float panel_h = chrome + layers * (side + row_extra);
  if (BeginPanel(ctx, L(tr::kHeadsTitle), "heads", ImVec2(0, panel_h))) {
    if (caption) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
      ImGui::TextWrapped("%s", L(tr::kHeadsCaption));
      ImGui::PopStyleColor();
    } else if (ImGui::IsWindowHovered() && ImGui::GetIO().MousePos.y < ImGui::GetCursorScreenPos().y) {
      ImGui::SetTooltip("%s", L(tr::kHeadsCaption));  // over the title
    }
    if (pages > 1) {  // ◀ layers 0–1 of 12 ▶
      auto go = [&](int to) {
        ctx.ui.heads_page = std::clamp(to, 0, pages - 1);
        ctx.ui.heads_page_layer = s.lab.config.layer;
      };
      if (ImGui::ArrowButton("heads_prev", ImGuiDir_Left)) go(page - 1);
      ImGui::SameLine();
      char shown[64];
      std::snprintf(shown, sizeof shown, L(tr::kHeadsPage), first, first + layers - 1, all_layers);
      ImGui::TextUnformatted(shown);
      ImGui::SameLine();
      if (ImGui::ArrowButton("heads_next", ImGuiDir_Right)) go(page + 1);
    }
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const int n = static_cast<int>(m.ids.size());
    for (int l = first; l < first + layers; ++l) {
      for (int h = 0; h < heads; ++h) {
        const int k = l * heads + h;
        const attn::MatF& w = m.acts.blocks[static_cast<std::size_t>(l)].attn.heads[static_cast<std::size_t>(h)].weights;
        ctx.heatmap.Upload(gfx::HeatmapSlot::kModelHeads, k, attn::ToRowMajor(w), n, n);
        if (h) ImGui::SameLine(0, gap);
        ImGui::BeginGroup();
        const ImVec2 a = ImGui::GetCursorScreenPos();
        ImGui::PushID(k);
        if (ImGui::InvisibleButton("thumb", ImVec2(side, side)) && !Locked(ctx, "weights"))
          app::ApplyPatch(s, attn::api::Obj({{"layer", l}, {"head", h}}));
        const bool hovered = ImGui::IsItemHovered();
        ImGui::PopID();
        const ImVec2 b(a.x + side, a.y + side);
        ctx.heatmap.Draw(dl, gfx::HeatmapSlot::kModelHeads, k, a, b, kMin, kMax);
        const bool chosen = l == s.lab.config.layer && h == s.lab.config.head;
        const app::LessonStep* step = app::CurrentLessonStep(s);
        if (step && step->point.head == h && l == s.lab.config.layer)  // the lesson points at it
          dl->AddRect(ImVec2(a.x - 5, a.y - 5), ImVec2(b.x + 5, b.y + 5), IM_COL32(120, 200, 255, 255), 0, 0, 2.0f);
        dl->AddRect(ImVec2(a.x - 2, a.y - 2), ImVec2(b.x + 2, b.y + 2),
                    chosen ? IM_COL32(245, 155, 40, 255) : hovered ? IM_COL32(220, 220, 230, 255) : IM_COL32(90, 90, 100, 255),
                    0, 0, chosen ? 2.5f : 1.0f);
        // grouped-query models: the key/value head this query head shares ("3.5 kv1")
        const attn::model::ModelConfig& mc = s.model.loaded->config();
        const int group = mc.heads / attn::model::KvHeads(mc);
        char name[32];
        if (group > 1) std::snprintf(name, sizeof name, "%d.%d kv%d", l, h, h / group);
        else std::snprintf(name, sizeof name, "%d.%d", l, h);
        dl->AddRectFilled(ImVec2(a.x, a.y), ImVec2(a.x + ImGui::CalcTextSize(name).x + 4, a.y + line + 2), IM_COL32(0, 0, 0, 150));
        dl->AddText(ImVec2(a.x + 2, a.y + 1), IM_COL32(255, 255, 255, 235), name);
        ctx.ui.head_thumbs.insert(ctx.ui.head_thumbs.end(), {a.x, a.y, side, side});
        // The label: what the analysis measured (heads.json). On a small thumbnail (40 px on a
        // phone) "prev 0.43" becomes "prev .43", then a smaller size (down to 70%) until it fits;
        // only then is it clipped. The tooltip has the full scores.
        std::string label = static_cast<int>(s.model.loaded->heads.size()) > k ? HeadLabel(s.model.loaded->heads[static_cast<std::size_t>(k)]) : "";
        float label_size = ImGui::GetFontSize();
        if (ImGui::CalcTextSize(label.c_str()).x + 4 > side) {
          const std::size_t zero = label.find(" 0.");
          if (zero != std::string::npos) label.erase(zero + 1, 1);
          const float wide = ImGui::CalcTextSize(label.c_str()).x;
          if (wide + 4 > side) label_size *= std::max(0.7f, (side - 4) / wide);
        }
        const ImVec2 c(a.x, b.y - label_size - 2);
        dl->PushClipRect(c, b, true);
        dl->AddRectFilled(c, b, IM_COL32(0, 0, 0, 160));
        dl->AddText(ImGui::GetFont(), label_size, ImVec2(c.x + 2, c.y + 1), IM_COL32(230, 230, 235, 255), label.c_str());
        dl->PopClipRect();
        if (hovered) {
          const auto& sc = static_cast<int>(s.model.loaded->heads.size()) > k ? s.model.loaded->heads[static_cast<std::size_t>(k)] : attn::model::HeadScores{};
          char scores[160];
          std::snprintf(scores, sizeof scores, L(tr::kHeadScoresTip), sc.previous, sc.first, sc.self, sc.induction,
                        sc.entropy);
          char shared[128] = "";
          if (group > 1)
            std::snprintf(shared, sizeof shared, L(tr::kHeadsSharedKv), h / group, (h / group) * group, (h / group) * group + group - 1);
          ImGui::SetTooltip("%s %d, %s %d%s\n%s", L(tr::kModelLayer), l, L(tr::kModelHead), h, shared, scores);
        }
        ImGui::EndGroup();
      }
    }
  }
  EndPanel();
  // Auto-height: with room, the thumbnails are as large as the width allows, the caption shown.
  SetNatural(ctx.ui, "heads", chrome_bare + caption_h + st.ItemSpacing.y + layers * (std::min(110.0f, by_width) + row_extra));
}

}  // namespace ui

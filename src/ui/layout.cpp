// Arranges the panels: a grid on a laptop or projector, tabs on a phone.
#include "app/lesson/lesson.h"
#include "text/i18n.h"
#include "text/refusal_message.h"
#include "ui/plot.h"
#include "ui/ui.h"
#include "text/prediction_strings.h"

#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string_view>

namespace ui {

namespace {

constexpr float kPhoneWidth = 820.0f;  // narrower than this (CSS px): one panel at a time, in tabs

void DrawHeader(Context& ctx, bool phone) {
  app::AppState& s = ctx.state;
  if (Hidden(ctx, "header")) {  // a lesson's embed without the header: refusals still show
    if (s.has_refusal) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.55f, 0.45f, 1.0f));
      ImGui::TextWrapped("%s: %s %s", L(tr::kRefused), RefusalMessage(s.refusal).c_str(), L(tr::kShowing));
      ImGui::PopStyleColor();
    }
    return;
  }
  ImGui::TextUnformatted(L(tr::kTitle));
  if (!phone) {
    ImGui::SameLine();
    ImGui::TextDisabled("%s", L(tr::kTagline));
  }
  // Share, the lesson's button (while it is closed), language switch and text size, right-aligned.
  const ImGuiStyle& st = ImGui::GetStyle();
  auto button_w = [&](const char* label) {
    return ImGui::CalcTextSize(label, nullptr, true).x + st.FramePadding.x * 2 + st.ItemSpacing.x;
  };
  const char* lesson = s.lab.lesson == 0 && !Hidden(ctx, "lesson") ? LessonEntryLabel() : nullptr;
  const bool share = !Hidden(ctx, "share");
  const float w = ImGui::CalcTextSize("EN RU A− A+").x + st.FramePadding.x * 8 + st.ItemSpacing.x * 3 +
                  (lesson ? button_w(lesson) : 0.0f) + (share ? button_w(L(tr::kShare)) : 0.0f);
  // On a narrow phone in Russian the buttons do not fit beside the title: they take their own line.
  ImGui::SameLine();
  const float right = ImGui::GetWindowContentRegionMax().x - w;
  if (ImGui::GetCursorPosX() > right) ImGui::NewLine();
  ImGui::SetCursorPosX(std::fmax(right, ImGui::GetWindowContentRegionMin().x));
  if (share) {
    DrawShareButton(ctx);
    ImGui::SameLine();
  }
  if (lesson) {
    LockScope lock(ctx, "lesson");
    if (ImGui::SmallButton(lesson)) app::GoToLesson(s, ctx.ui.last_lesson);
    ImGui::SameLine();
  }
  const bool ru = s.lab.lang == "ru";
  {
    LockScope lock(ctx, "header");  // the language is the lesson's too
    if (ImGui::SmallButton(ru ? "EN###lang_en" : "[EN]###lang_en")) app::ApplyPatch(s, attn::api::Obj({{"lang", "en"}}));
    ImGui::SameLine();
    if (ImGui::SmallButton(ru ? "[RU]###lang_ru" : "RU###lang_ru")) app::ApplyPatch(s, attn::api::Obj({{"lang", "ru"}}));
  }
  ImGui::SameLine();
  if (ImGui::SmallButton("A−###smaller")) ctx.ui.text_scale = std::fmax(0.8f, ctx.ui.text_scale - 0.2f);
  ImGui::SameLine();
  if (ImGui::SmallButton("A+###larger")) ctx.ui.text_scale = std::fmin(2.4f, ctx.ui.text_scale + 0.2f);
  if (phone) {  // the question, wrapped: on a phone it is wider than the screen in Russian
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    ImGui::TextWrapped("%s", L(tr::kTagline));
    ImGui::PopStyleColor();
  }

  if (s.has_refusal) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.55f, 0.45f, 1.0f));
    ImGui::TextWrapped("%s: %s %s", L(tr::kRefused), RefusalMessage(s.refusal).c_str(), L(tr::kShowing));
    ImGui::PopStyleColor();
  }
}


void DrawPredictionPhone(Context& ctx) { DrawPredictionPage(ctx, /*phone=*/true); }

// The settings panel, the heads' gallery (model mode) and, on a phone, the Positions panel and
// "Train it more" under them (on a laptop they are tabs beside the steps, so that the heatmap
// stays in view). "Train it more" last: it takes the rest of the column.
void DrawSettingsAndTune(Context& ctx, bool settings, bool tune) {
  if (settings) DrawSettingsPanel(ctx);
  if (!Hidden(ctx, "weights")) DrawHeadsPanel(ctx);  // model mode: every layer x head
  if (tune && PositionsShown(ctx)) {
    // (view "positions" scrolls to it once it is there, after the model's load; for a few
    // frames: the first one's scroll stops at the end of the last frame's content)
    if (ctx.ui.scroll_to_positions > 0) {
      ImGui::SetScrollHereY(0.0f);
      --ctx.ui.scroll_to_positions;
    }
    DrawPositionsPanel(ctx);
  }
  if (tune && TuneShown(ctx)) DrawModelTrainPanel(ctx);
}

// The steps, the information question, in model mode "Train it more", and the vectors when the
// column is too narrow for them beside the weights (whichever are not hidden): tabs when more
// than one is shown. "Train it more" before "What if" (model mode), so that the tabs before it
// keep their places.
template <typename Front>
void DrawAttentionBottom(Context& ctx, const Front& front, bool vectors) {
  struct Tab { const Text* name; const char* id; const char* view; bool shown; void (*draw)(Context&); };
  const Tab tabs[] = {{&tr::kSteps, "b_steps", "steps", !Hidden(ctx, "steps"), DrawStepsPanel},
                      {&tr::kVectors, "b_vectors", "vectors", vectors, DrawVectorsPanel},
                      {&tr::kInformation, "b_information", "information", !Hidden(ctx, "information"), DrawInformationPanel},
                      // (the default page's build has no model: no panel to keep)
                      {&tr::kTuneTitle, "b_tune", "", TuneShown(ctx), attn::model::ModelCodeInBuild() ? DrawModelTrainPanel : nullptr},
                      {&tr::kWhatIf, "b_whatif", "whatif", !Hidden(ctx, "whatif"), DrawWhatIfPanel},
                      // last, so that the tabs before it keep their places
                      {&tr::kPositionsTitle, "b_positions", "positions", PositionsShown(ctx),
                       attn::model::ModelCodeInBuild() ? DrawPositionsPanel : nullptr}};
  int count = 0;
  for (const Tab& t : tabs) count += t.shown;
  if (count == 1) {
    for (const Tab& t : tabs)
      if (t.shown) t.draw(ctx);
  } else if (count > 1 && ImGui::BeginTabBar("bottom_tabs")) {
    for (const Tab& t : tabs) {
      if (!t.shown || !ImGui::BeginTabItem(Label(*t.name, t.id), nullptr, front(t.view))) continue;
      ImGui::BeginChild(t.id, ImVec2(0, 0), false);
      t.draw(ctx);
      ImGui::EndChild();
      ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
  }
}

// The attention page on a laptop. Left: sentence and settings, full height. Right: weights |
// vectors on top; below them the steps or the information question, as tabs. A hidden panel
// gives its space to the others (hide: a column, a picture, a tab).
template <typename Front>
void DrawAttentionPage(Context& ctx, const Front& front) {
  const ImGuiStyle& st = ImGui::GetStyle();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const bool sentence = !Hidden(ctx, "sentence"), settings = !Hidden(ctx, "settings");
  const bool heatmap = !Hidden(ctx, "weights");
  bool vectors = !Hidden(ctx, "vectors");
  const bool top = heatmap || vectors;
  const bool bottom = !Hidden(ctx, "steps") || !Hidden(ctx, "information") || !Hidden(ctx, "whatif") || TuneShown(ctx);
  const bool left = sentence || settings, right = top || bottom;
  // As wide as at 1280 px without the lesson; narrower in a narrower lab (1 024 px beside the
  // lesson), and then the vectors move to the tabs below, so that the weights keep their room.
  const float left_w = !left || !right ? 0.0f : avail.x >= 1000.0f ? std::fmax(365.0f, avail.x * 0.29f) : std::fmax(320.0f, avail.x * 0.36f);
  const bool vectors_below = heatmap && vectors && bottom && avail.x - left_w < 480.0f;
  if (vectors_below) vectors = false;
  if (left) {
    ImGui::BeginChild("col_input", ImVec2(left_w, 0), false);
    if (sentence) DrawSentencePanel(ctx);
    DrawSettingsAndTune(ctx, settings, /*tune=*/false);
    ImGui::EndChild();
    if (right) ImGui::SameLine();
  }
  if (!right) return;
  ImGui::BeginChild("col_main", ImVec2(0, 0), false);
  if (top) {
    const float top_h = bottom ? std::fmax(260.0f, ImGui::GetContentRegionAvail().y * 0.59f) : 0.0f;
    const float half_w = heatmap && vectors ? (ImGui::GetContentRegionAvail().x - st.ItemSpacing.x) * 0.5f : 0.0f;
    if (heatmap) {
      ImGui::BeginChild("col_heatmap", ImVec2(half_w, top_h), false);
      DrawHeatmapPanel(ctx);
      ImGui::EndChild();
    }
    if (heatmap && vectors) ImGui::SameLine();
    if (vectors) {
      ImGui::BeginChild("col_vectors", ImVec2(0, top_h), false);
      DrawVectorsPanel(ctx);
      ImGui::EndChild();
    }
  }
  if (bottom) DrawAttentionBottom(ctx, front, vectors_below);
  ImGui::EndChild();
}

}  // namespace

bool Hidden(const Context& ctx, const char* part) { return app::IsHidden(ctx.state.lab, part); }
bool Locked(const Context& ctx, const char* part) { return app::IsLocked(ctx.state.lab, part); }

// "Train it more" is shown: model mode with the model loaded, and not hidden by a lesson.
bool PositionsShown(const Context& ctx) {
  const app::AppState& s = ctx.state;
  return attn::model::ModelCodeInBuild() && s.lab.config.projection == attn::Projection::kModel && s.model.loaded &&
         !Hidden(ctx, "positions");
}

bool PredictionShown(const Context& ctx) {
  const app::AppState& s = ctx.state;
  return attn::model::ModelCodeInBuild() && s.lab.config.projection == attn::Projection::kModel && s.model.loaded &&
         s.attention.result.error.ok() && !Hidden(ctx, "prediction");
}

bool TuneShown(const Context& ctx) {
  const app::AppState& s = ctx.state;
  return attn::model::ModelCodeInBuild() && s.lab.config.projection == attn::Projection::kModel && s.model.loaded &&
         !Hidden(ctx, "tune");
}

LockScope::LockScope(const Context& ctx, const char* part) : locked_(Locked(ctx, part)) {
  if (locked_) ImGui::BeginDisabled();
}
LockScope::~LockScope() {
  if (locked_) ImGui::EndDisabled();
}

namespace {

// The panels begun and not yet ended (EndPanel measures the innermost): its id, and the UiState
// to record its natural height in (null: the panel is not visible, nothing to measure).
struct OpenPanel {
  const char* id;
  UiState* ui;
};
OpenPanel g_open_panels[8];
int g_open_count = 0;

}  // namespace

bool BeginPanel(Context& ctx, const char* title, const char* id, ImVec2 size, const PanelExport& export_menu) {
  ImGui::PushID(id);
  const bool open = ImGui::BeginChild("panel", size, true);
  if (g_open_count < 8) g_open_panels[g_open_count] = {id, open ? &ctx.ui : nullptr};
  ++g_open_count;
  if (open) ctx.ui.panels_drawn.push_back(id);
  // The lesson's step points at this panel (its "point"): the title marked, the frame outlined.
  const app::LessonStep* step = app::CurrentLessonStep(ctx.state);
  const std::string_view part = std::string_view(id) == "heatmap" ? "weights" : id;
  if (step && !step->point.panel.empty() && step->point.panel == part) {
    const ImGuiWindow* w = ImGui::GetCurrentWindow();
    ImGui::GetWindowDrawList()->AddRect(w->Pos, ImVec2(w->Pos.x + w->Size.x, w->Pos.y + w->Size.y),
                                        IM_COL32(245, 155, 40, 255), 0, 0, 2.0f);
    ImGui::TextColored(ImVec4(0.95f, 0.60f, 0.15f, 1.0f), "▶ %s", title);
  } else {
    ImGui::TextColored(ImVec4(0.55f, 0.8f, 1.0f, 1.0f), "%s", title);
  }
  if (open && export_menu.figure) ExportMenu(ctx.ui, export_menu.figure, export_menu.svg, export_menu.numbers);
  // A panel the lesson locked says so (its controls are drawn disabled).
  if (Locked(ctx, std::string_view(id) == "heatmap" ? "weights" : id)) {
    ImGui::SameLine();
    ImGui::TextDisabled("%s", L(tr::kLockedPanel));
  }
  ImGui::Separator();
  return open;
}

void EndPanel() {
  // Its content's height: where the next item would go, less the spacing before it, plus the
  // frame's padding below (local coordinates, scrolling included).
  const OpenPanel panel = --g_open_count < 8 ? g_open_panels[g_open_count] : OpenPanel{nullptr, nullptr};
  if (panel.ui) {
    const ImGuiStyle& st = ImGui::GetStyle();
    SetNatural(*panel.ui, panel.id, ImGui::GetCursorPosY() - st.ItemSpacing.y + st.WindowPadding.y);
  }
  ImGui::EndChild();
  ImGui::PopID();
}

void TextWrappedPieces(const std::vector<std::string>& pieces) {
  // Where ImGui's TextWrapped would wrap: the text wrap position when one is pushed, else the
  // window's work rectangle (its visible width; the content region can be wider in a panel that
  // scrolls sideways, so GetContentRegionAvail is not the edge).
  const ImGuiWindow* window = ImGui::GetCurrentWindow();
  const float wrap = window->DC.TextWrapPos;
  const float limit = wrap > 0.0f ? window->Pos.x - window->Scroll.x + wrap : window->WorkRect.Max.x;
  const float start = ImGui::GetCursorPosX();
  bool first = true;
  for (std::string piece : pieces) {
    const float w = ImGui::CalcTextSize(piece.c_str()).x;
    if (!first) {
      ImGui::SameLine(0, 0);
      const std::size_t text_at = piece.find_first_not_of(' ');
      if (ImGui::GetCursorScreenPos().x + w > limit && text_at != std::string::npos && text_at > 0) {
        ImGui::NewLine();  // the piece starts the next line, without its spaces
        ImGui::SetCursorPosX(start);
        piece.erase(0, text_at);
      }
    }
    ImGui::TextUnformatted(piece.c_str());
    first = false;
  }
}

void TextWrappedAtSpaces(const char* text) {
  const std::string all(text);
  std::vector<std::string> pieces;
  for (std::size_t at = 0; at < all.size();) {
    std::size_t end = all.find(' ', at + 1);
    if (end == std::string::npos) end = all.size();
    pieces.push_back(all.substr(at, end - at));  // " = 0.125": the space before a term
    at = end;
  }
  TextWrappedPieces(pieces);
}

bool CellGrid(const char* id, ImVec2 p0, float side, int n, int q, ImU32 query_col, ImU32 hover_col, int* i, int* j) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float cell = side / static_cast<float>(std::max(n, 1));
  if (q >= 0 && q < n)
    dl->AddRect(ImVec2(p0.x - 1, p0.y + cell * q - 1), ImVec2(p0.x + side + 1, p0.y + cell * (q + 1) + 1), query_col, 0, 0, 2.5f);
  ImGui::SetCursorScreenPos(p0);
  ImGui::InvisibleButton(id, ImVec2(side, side));
  if (!ImGui::IsItemHovered() || n <= 0) return false;
  const ImVec2 m = ImGui::GetIO().MousePos;
  *i = std::clamp(static_cast<int>((m.y - p0.y) / cell), 0, n - 1);
  *j = std::clamp(static_cast<int>((m.x - p0.x) / cell), 0, n - 1);
  dl->AddRect(ImVec2(p0.x + cell * *j, p0.y + cell * *i), ImVec2(p0.x + cell * (*j + 1), p0.y + cell * (*i + 1)), hover_col, 0, 0, 2.0f);
  return true;
}

const char* Num(float v, int decimals) {
  static char buf[16][64];
  static int next = 0;
  char* out = buf[next];
  next = (next + 1) % 16;
  char tmp[48];
  std::snprintf(tmp, sizeof tmp, "%.*f", decimals, static_cast<double>(v));
  if (tmp[0] == '-') {
    // "−" (U+2212) reads better than a hyphen in maths; "-0.000" is shown as "0.000".
    bool all_zero = true;
    for (const char* p = tmp + 1; *p; ++p)
      if (*p >= '1' && *p <= '9') all_zero = false;
    if (all_zero) std::snprintf(out, sizeof buf[0], "%s", tmp + 1);
    else std::snprintf(out, sizeof buf[0], "\xE2\x88\x92%s", tmp + 1);
  } else {
    std::snprintf(out, sizeof buf[0], "%s", tmp);
  }
  return out;
}

std::string VectorText(const attn::VecF& v, int max_entries, int decimals) {
  std::string out = "[";
  const int n = static_cast<int>(v.size());
  for (int i = 0; i < n && i < max_entries; ++i) {
    if (i) out += ", ";
    out += Num(v(i), decimals);
  }
  if (n > max_entries) out += ", …";
  return out + "]";
}

std::string FitText(const std::string& text, float width) {
  if (ImGui::CalcTextSize(text.c_str()).x <= width) return text;
  std::string cut = text;
  while (!cut.empty()) {
    // Drop the last whole UTF-8 character: its continuation bytes, then its lead byte.
    while (!cut.empty() && (static_cast<unsigned char>(cut.back()) & 0xC0) == 0x80) cut.pop_back();
    if (!cut.empty()) cut.pop_back();
    if (ImGui::CalcTextSize((cut + "…").c_str()).x <= width) return cut + "…";
  }
  return "…";
}

void DrawLab(Context& ctx) {
  app::AppState& s = ctx.state;
  SetLang(LangFromCode(s.lab.lang));
  ctx.ui.figures.clear();
  ctx.ui.export_menus.clear();
  SetPlotUi(&ctx.ui);  // plots record themselves as exportable figures
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(vp->WorkPos);
  ImGui::SetNextWindowSize(vp->WorkSize);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
  ImGui::Begin("Attention Lab###lab", nullptr, flags);
  // A new `view` (setState, URL) brings its tab to the front once; then the learner's clicks rule.
  // (For a few frames: a tab selected inside another tab can only be selected once the outer
  // one is open, a frame later.)
  // A hidden view is never the one shown (app::ShownView: the first visible one instead).
  UiState& ui = ctx.ui;
  const std::string shown = app::ShownView(s.lab);
  const int layout = vp->WorkSize.x < kPhoneWidth ? 1 : 0;
  // The phone and the laptop layouts have different tab bars: after a resize or a rotation the
  // new bar shows the state's view too (a setState just before the resize is not lost).
  // (the Prediction tab exists once the model is loaded: until then its view waits to be brought)
  if (shown == "prediction" && !PredictionShown(ctx)) ui.shown_view.clear();
  if (ui.shown_view != shown || ui.layout != layout) {
    ui.shown_view = shown;
    ui.layout = layout;
    ui.bring_frames = 3;
    ui.scroll_to_positions = shown == "positions" ? 3 : 0;
  }
  const bool bring = ui.bring_frames > 0;
  if (bring) --ui.bring_frames;
  auto front = [&](const char* view) {
    return bring && shown == view ? ImGuiTabItemFlags_SetSelected : ImGuiTabItemFlags_None;
  };
  const bool phone = vp->WorkSize.x < kPhoneWidth;
  DrawHeader(ctx, phone);

  // The lesson (lesson > 0): a card above the tabs on a phone, a column on the left otherwise.
  const bool lesson = s.lab.lesson > 0 && !Hidden(ctx, "lesson");
  ui.wanted_height = WantedHeight(ctx, phone, lesson, ImGui::GetCursorPosY());  // the last frame's panels
  if (lesson && phone) {
    // Unfolded: as tall as its text, up to half the screen (then it scrolls).
    const float half = std::floor(ImGui::GetContentRegionAvail().y * 0.5f);
    const float card_h = ui.lesson_folded ? ImGui::GetFrameHeightWithSpacing() * 2.2f : std::fmin(half, Natural(ui, "lesson", half));
    if (ImGui::SmallButton(ui.lesson_folded ? "▸###lesson_fold" : "▾###lesson_fold")) ui.lesson_folded = !ui.lesson_folded;
    ImGui::SameLine();
    DrawLessonPanel(ctx, ImVec2(0, card_h));
  } else if (lesson) {
    const float col_w = std::floor(std::fmin(480.0f, std::fmax(330.0f, ImGui::GetContentRegionAvail().x * 0.29f)));
    DrawLessonPanel(ctx, ImVec2(col_w, 0));
    ImGui::SameLine();
    ImGui::BeginChild("lab_col", ImVec2(0, 0), false);
  }

  if (phone) {
    if (ImGui::BeginTabBar("tabs", ImGuiTabBarFlags_FittingPolicyScroll)) {
      struct Tab { const Text* name; const char* id; const char* view; void (*draw)(Context&); };
      static const Tab kTabs[] = {{&tr::kSentence, "t_sentence", "sentence", nullptr},
                                  {&tr::kSteps, "t_steps", "steps", DrawStepsPanel},
                                  {&tr::kHeatmap, "t_heatmap", "weights", DrawHeatmapPanel},
                                  {&tr::kVectors, "t_vectors", "vectors", DrawVectorsPanel},
                                  {&tr::kInformation, "t_information", "information", DrawInformationPanel},
                                  {&tr::kWhatIf, "t_whatif", "whatif", DrawWhatIfPanel},
                                  {&tr::kTraining, "t_training", "training", DrawTrainingPanel},
                                  {&tr::kNormalization, "t_normalization", "normalization", DrawNormalizationPanel},
                                  // model mode only (the default page's build draws nothing)
                                  {&tr::kPredictionTab, "t_prediction", "prediction", DrawPredictionPhone}};
      constexpr int kCount = static_cast<int>(sizeof kTabs / sizeof kTabs[0]);
      for (int i = 0; i < kCount; ++i) {
        if (!app::ViewVisible(s.lab, kTabs[i].view)) continue;  // hidden: absent from the tab bar
        if (kTabs[i].draw == DrawPredictionPhone && !PredictionShown(ctx)) continue;
        // (the Positions panel sits in the first tab, under the gallery)
        const ImGuiTabItemFlags bring_tab = front(kTabs[i].view) | (i == 0 ? front("positions") : ImGuiTabItemFlags_None);
        if (ImGui::BeginTabItem(Label(*kTabs[i].name, kTabs[i].id), nullptr, bring_tab)) {
          ui.phone_tab = i;
          ImGui::BeginChild("tab_body", ImVec2(0, 0), false);
          if (kTabs[i].draw) {
            kTabs[i].draw(ctx);
          } else {
            if (!Hidden(ctx, "sentence")) DrawSentencePanel(ctx);
            DrawSettingsAndTune(ctx, !Hidden(ctx, "settings"), /*tune=*/true);
          }
          ImGui::EndChild();
          ImGui::EndTabItem();
        }
      }
      ImGui::EndTabBar();
    }
  } else {
    // Three pages: the attention of one sentence (the default), learning, normalization; the
    // tab bar only when more than one is shown.
    const bool attention = app::ViewVisible(s.lab, "steps") || app::ViewVisible(s.lab, "weights") ||
                           app::ViewVisible(s.lab, "vectors") || app::ViewVisible(s.lab, "information") ||
                           app::ViewVisible(s.lab, "whatif") ||
                           app::ViewVisible(s.lab, "sentence");
    const bool training = app::ViewVisible(s.lab, "training");
    const bool normalization = app::ViewVisible(s.lab, "normalization");
    const bool prediction = PredictionShown(ctx);
    auto training_page = [&]() {
      ImGui::BeginChild("page_training", ImVec2(0, 0), false);
      DrawTrainingPanel(ctx);
      ImGui::EndChild();
    };
    auto normalization_page = [&]() {
      ImGui::BeginChild("page_normalization", ImVec2(0, 0), false);
      DrawNormalizationPanel(ctx);
      ImGui::EndChild();
    };
    auto prediction_page = [&]() {
      ImGui::BeginChild("page_prediction", ImVec2(0, 0), false);
      DrawPredictionPage(ctx, /*phone=*/false);
      ImGui::EndChild();
    };
    if (attention + training + normalization + prediction == 1) {
      if (attention) DrawAttentionPage(ctx, front);
      if (training) training_page();
      if (normalization) normalization_page();
      if (prediction) prediction_page();
    } else if (attention + training + normalization + prediction > 1 && ImGui::BeginTabBar("main_tabs")) {
      const bool attention_view = shown != "training" && shown != "normalization" && shown != "prediction";
      const ImGuiTabItemFlags attention_front = bring && attention_view ? ImGuiTabItemFlags_SetSelected : ImGuiTabItemFlags_None;
      if (attention && ImGui::BeginTabItem(Label(tr::kAttentionTab, "m_attention"), nullptr, attention_front)) {
        DrawAttentionPage(ctx, front);
        ImGui::EndTabItem();
      }
      if (training && ImGui::BeginTabItem(Label(tr::kTraining, "m_training"), nullptr, front("training"))) {
        training_page();
        ImGui::EndTabItem();
      }
      if (normalization && ImGui::BeginTabItem(Label(tr::kNormalization, "m_normalization"), nullptr, front("normalization"))) {
        normalization_page();
        ImGui::EndTabItem();
      }
      if (prediction && ImGui::BeginTabItem(Label(tr::kPredictionTab, "m_prediction"), nullptr, front("prediction"))) {
        prediction_page();
        ImGui::EndTabItem();
      }
      ImGui::EndTabBar();
    }
  }
  if (lesson && !phone) ImGui::EndChild();
  ImGui::End();
}

}  // namespace ui

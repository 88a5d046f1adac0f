// The lab's interface: one function per panel, each reading the engine's result from AppState and
// writing settings only through app::ApplyPatch. No maths here: every number comes from the engine.
#pragma once

#include "app/app.h"
#include "gfx/heatmap_renderer.h"
#include "text/i18n.h"

#include <imgui.h>

#include <string>
#include <vector>

namespace ui {

// The interface's text lives in src/text/ (namespace text, its tables in text::tr); the panels
// write it as before, tr::kX, L(...), Text, in the current language (text::SetLang).
using namespace ::text;

// A picture that can be exported (issue 11.5), recorded by its panel in every drawn frame: the
// platform renders its rectangle at 2x for a PNG; the app writes its SVG, CSV or JSON.
struct Figure {
  std::string id;       // "weights", "vectors", "loss", "variance"... (the page API's `what`)
  ImVec2 min, max;      // on screen, in window (CSS) pixels
  bool svg = false;     // also as SVG: the heatmap and the plots
  bool numbers = false; // also as CSV and JSON: the weights
};
struct ExportMenuRect { // where an export menu's button and open items are (the page's tests)
  std::string id;       // the figure, or "<figure>.<format>" for an item of the open menu
  ImVec2 min, max;
};
struct ExportClick {    // a choice in an export menu, taken by the platform after the frame
  std::string what, format;
};

struct Fonts {
  ImFont* text = nullptr;  // DejaVu Sans: Latin, Cyrillic, Greek, maths signs
  ImFont* mono = nullptr;  // DejaVu Sans Mono: numbers that line up in tables
};

// Interface-only state: how the lab is shown, never what it computes. Not part of the page's
// state (URL, setState), not seen by the app layer, reset when the page reloads.
struct UiState {
  int phone_tab = 0;          // the tab the phone layout showed last
  std::string shown_view;     // lab.view as last brought to the front (tabs follow changes)
  int bring_frames = 0;       // frames left in which lab.view's tabs are being selected
  int scroll_to_positions = 0;  // view "positions" on a phone: frames left to scroll to the panel once it is drawn
  int layout = -1;            // the layout of the last frame: 1 phone, 0 laptop (-1: none yet)
  int hovered_key = -1;       // token under the mouse in the steps panel or heatmap, or -1
  float text_scale = 1.0f;    // 1 on a laptop; larger on a projector ("teacher mode", A−/A+)
  app::FrameWork frame_work;  // what the last Tick ran (training steps, tune units) and its time
  bool log_loss = true;       // training panel: the loss curve on a log scale
  int bp_head = 0;            // training panel: the head whose query row the backprop tables show
  int curve_metric = 0;       // normalization panel's curves: 0 loss, 1 accuracy, 2 attention
                              // on the right key
  int last_lesson = 1;         // the lesson's step when it was closed (the header's button resumes)
  bool lesson_folded = false; // phone: the lesson card shows its title only
  std::vector<std::string> panels_drawn;  // ids of the panels visible in this frame (cleared
                                          // before DrawLab; the page's tests read them)
  std::vector<Figure> figures;            // the exportable pictures drawn in this frame (idem)
  std::vector<ExportClick> export_clicks; // export menus' choices (the platform takes them)
  std::vector<ExportMenuRect> export_menus;  // this frame's menu buttons and items
  std::string svg_wanted;                 // a plot whose SVG the platform asked for this frame
  std::string svg_out;                    // ... written by Plot() as it draws that plot
  // Share / embed (panel_share.cpp). The platform layer fills page_url (the lab's address; "" in
  // the desktop window) and copy_status (the answer to a copy: 1 copied, -1 not permitted, the
  // page then selects the text for the learner to copy by hand).
  // Another model (desktop): the platform says whether it can open a folder by its path, and
  // draws the Open dialog (platform/open_model_dialog.cpp) once the settings' button asks.
  bool can_open_model = false;
  bool open_model_wanted = false;
  // A checkpoint on its way (the page): its Cancel, and "Forget downloaded models" with the space
  // the downloads take in the browser's storage (bytes; the page says, web_checkpoint.cpp).
  bool cancel_model_wanted = false;
  bool forget_models_wanted = false;
  double model_cache_bytes = 0;
  bool share_open = false;
  std::string page_url;
  int copy_status = 0;
  int copied_what = 0;  // 1 the link, 2 the snippet: which Copy button the status is for
  // Model mode's head gallery (panel_heads.cpp): the thumbnails drawn in this frame, as
  // {x, y, w, h} in CSS pixels, layer-major (the page's tests read them: getModelStatus()).
  std::vector<float> head_thumbs;
  // More than 24 heads (GPT-2 small has 144): the gallery shows a page of layers, the chosen
  // layer's unless ◀ ▶ chose another (heads_page; -1: follow the chosen layer, which it does
  // again once the layer changes).
  int heads_page = -1;
  int heads_page_layer = -1;
  float model_settings_h = 0;  // the settings panel's content height in model mode (last frame)
  // Auto-height (layout.cpp): each panel's natural height, measured at its end in the last frame
  // it was drawn (its content, not the space it was given), and the height the lab would like
  // from what is shown (CSS px; the page posts it to the course page as attentionLab:height).
  struct Natural {
    const char* id = nullptr;  // the panel's id (a literal)
    float h = 0;
  };
  Natural natural[24];
  float wanted_height = 0;
  // What if (panel_whatif.cpp, the chips' menu, panel_vectors.cpp): the token and the word being
  // typed before the learner applies them, and the value being dragged.
  int whatif_token = -1;       // the what-if panel's chosen token (-1: the query's)
  std::string whatif_word;     // the what-if panel's word box
  std::string chip_word;       // the chip menu's word box
  int drag_value = -1;         // the token whose value the mouse drags in the vectors view, or -1
  float drag_from[2] = {0, 0}; // valueA, valueB when the drag began
  float drag_mouse[2] = {0, 0};  // the mouse when the drag began
  // The Prediction tab (panel_prediction*.cpp): the boxes being typed in, the head whose source
  // words are listed (-1: the largest part's), a chip's, generation's settings.
  std::string answer_box, foil_box, corrupted_box;
  int prediction_head = -1, step_head = -1;
  std::string prediction_key;  // the attribution prediction_head was chosen on
  app::GenerateOptions generate;
  float drag_scale = 1;        // the picture's pixels per plane unit when the drag began (kept
                               // while dragging: the picture refits, the mouse's meaning does not)
};

struct Context {
  app::AppState& state;
  UiState& ui;
  gfx::HeatmapRenderer& heatmap;
  const Fonts& fonts;
};

// style.cpp: colours and fonts. Fonts are rasterized at `pixel_ratio` so text stays sharp on
// HiDPI screens; call again (and rebuild the font texture) when the ratio or text_scale changes.
void ApplyStyle();
Fonts LoadFonts(float pixel_ratio, float text_scale);

void DrawLab(Context& ctx);  // layout.cpp: arranges the panels for a laptop or a phone

// panel_heads.cpp: the trained model's mode. DrawHeadsPanel: every layer x head as a thumbnail,
// labelled with what the head analysis measured; a click follows that head. ModelPendingPanel:
// in model mode before the model is there (loading, failed) draws panel `id` with the progress
// bar or the message (Retry, Back to identity) and returns true: the caller draws nothing else.
// Shown: the settings the panels show (the model's own in model mode, else the state's).
void DrawHeadsPanel(Context& ctx);
bool ModelPendingPanel(Context& ctx, const char* title, const char* id);
// model_loading.cpp: the model's name, a checkpoint on its way (bytes, Cancel), why the last one
// was not opened; "Forget downloaded models" (the page's build with the model's code; nothing
// elsewhere).
void DrawModelLoadStatus(Context& ctx);
void DrawForgetModels(Context& ctx);
const attn::LabConfig& Shown(const Context& ctx);
bool ModelMode(const Context& ctx);  // projection "model" with its result computed

void DrawSentencePanel(Context& ctx);  // panel_sentence.cpp: text box and token chips
void DrawSettingsPanel(Context& ctx);  // panel_settings.cpp: projection, scaling, T, sizes
void DrawStepsPanel(Context& ctx);     // panel_steps.cpp: the step table and the formula
void DrawPositionsPanel(Context& ctx); // panel_positions.cpp: the RoPE scene (model mode)
void DrawHeatmapPanel(Context& ctx);   // panel_heatmap.cpp: the N x N weights
void DrawVectorsPanel(Context& ctx);   // panel_vectors.cpp: PCA view, hull, A
void DrawInformationPanel(Context& ctx);  // panel_information.cpp: is information lost in the sum?
void DrawWhatIfPanel(Context& ctx);       // panel_whatif.cpp: an edited run against the plain one
void DrawModelWhatIf(Context& ctx);       // panel_whatif_model.cpp: its model-mode half
void DrawWordChoice(Context& ctx, const std::vector<attn::Token>& words, const char* id);  // panel_whatif.cpp

void DrawTrainingPanel(Context& ctx);     // panel_training.cpp: a model learns the pattern, live
void DrawNormalizationPanel(Context& ctx);  // panel_normalization.cpp: why softmax and ÷√d_k
void DrawModelTrainPanel(Context& ctx);     // panel_model_train.cpp: "Train it more" (model mode)
void DrawLessonPanel(Context& ctx, ImVec2 size);  // panel_lesson.cpp: the guided lesson (lesson > 0)
const char* LessonEntryLabel();                   // panel_lesson.cpp: the header's "Lesson" button

// panel_prediction*.cpp: the Prediction tab (model mode; issue 40): the logit lens, the
// attribution, activation patching, generation; the default page's build draws nothing
// (panel_prediction_absent.cpp). `phone`: one column.
void DrawPredictionPage(Context& ctx, bool phone);

void DrawShareButton(Context& ctx);    // panel_share.cpp: the header's Share button and its popup

// A lab configured for a lesson: app::IsHidden / IsLocked on the state (the one rule: a part or
// a part that holds it is named).
bool Hidden(const Context& ctx, const char* part);
bool Locked(const Context& ctx, const char* part);
// The controls drawn in its scope are disabled while `part` is locked (ImGui::BeginDisabled).
class LockScope {
 public:
  LockScope(const Context& ctx, const char* part);
  ~LockScope();
  LockScope(const LockScope&) = delete;
  LockScope& operator=(const LockScope&) = delete;

 private:
  bool locked_;
};

// Shared helpers (layout.cpp).
// A framed panel with its title; `id` ("steps", "normalization"...) is recorded in
// ctx.ui.panels_drawn when the panel is visible.
// `export_menu`: the panel's picture can be exported; its "↓" menu sits at the title's right end.
struct PanelExport {
  const char* figure = nullptr;  // the Figure id, or none
  bool svg = false, numbers = false;
};
bool BeginPanel(Context& ctx, const char* title, const char* id, ImVec2 size, const PanelExport& export_menu = {});
void EndPanel();  // records the panel's natural height (its content's) in ctx.ui.natural
// A panel whose content fills the space it is given (a picture) says what it would need instead,
// after EndPanel: its natural height for auto-height.
void SetNatural(UiState& ui, const char* id, float h);
// auto_height.cpp: a panel's natural height as last recorded (`guess` before it was drawn), and
// the height the lab would like from what is shown (the header ends at `top`), never from the
// space it has now, so that resizing the iframe to it cannot feed back.
float Natural(const UiState& ui, const char* id, float guess);
float WantedHeight(const Context& ctx, bool phone, bool lesson, float top);
bool TuneShown(const Context& ctx);  // layout.cpp: "Train it more" is shown (model mode, loaded, not hidden)
bool PositionsShown(const Context& ctx);  // layout.cpp: the Positions panel (model mode, loaded, not hidden)
bool PredictionShown(const Context& ctx);  // layout.cpp: the Prediction tab (model mode, loaded, not hidden)
// export_menu.cpp: records a picture as exportable, and the small "↓" menu at the right end of
// the current line (PNG, and SVG / CSV / JSON where the figure has them).
void AddFigure(UiState& ui, const char* id, ImVec2 min, ImVec2 max, bool svg, bool numbers);
// `top_right`: where the button's top-right corner goes (else the current line's right end).
void ExportMenu(UiState& ui, const char* id, bool svg, bool numbers, const ImVec2* top_right = nullptr);
const char* Num(float v, int decimals = 3);
// An n × n map of square cells (side / n px each, from p0) as one invisible button `id` (layout.cpp):
// outlines the query's row q (when it is a row) in `query_col`; under the mouse, outlines the
// cell in `hover_col` and returns true with its row *i and column *j. The button stays the last
// item, so IsItemClicked() asks whether it was clicked.
bool CellGrid(const char* id, ImVec2 p0, float side, int n, int q, ImU32 query_col, ImU32 hover_col, int* i, int* j);
// Text that wraps only between pieces (layout.cpp): each piece after the first carries its
// separator (" = 0.125", ",  «pp» 0.103"); one that does not fit starts the next line without
// its leading spaces. ImGui's TextWrapped also breaks after '.' and ',', i.e. inside a number
// ("0." / "125" on a phone). TextWrappedAtSpaces: the pieces are the text's space-separated terms.
void TextWrappedPieces(const std::vector<std::string>& pieces);
void TextWrappedAtSpaces(const char* text);  // "−0.125" with a real minus sign, rotating buffer
std::string VectorText(const attn::VecF& v, int max_entries, int decimals = 3);
// The text as it fits in `width` pixels: whole, or its start with "…" (a label keeps its index
// and the word's beginning rather than being clipped at the left).
std::string FitText(const std::string& text, float width);

}  // namespace ui

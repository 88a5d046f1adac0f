// The guided lesson (app/lesson.h): the seed's claim, the verdict, the prediction, then the answer
// with the engine's numbers. Every move goes through the app (GoToLesson, AnswerLesson, ...), which
// applies patches; this file only draws. Keys while the panel has focus: N / → next, B / ← back,
// 1-6 answer (Russian layout: Т and И are the same keys as N and B). The lesson is a document
// (app/lesson/lesson_doc.h): a step may have no quote, no verdict or no question.
#include "app/lesson/lesson.h"
#include "text/i18n.h"
#include "ui/ui.h"

#include <imgui_internal.h>  // NavMoveRequestCancel: the lesson's arrow keys are not navigation

#include <cstdio>
#include <string>

namespace ui {

namespace {

constexpr int kNumberedSteps = 12;  // more steps than this: only Back and Next

const char* T(const app::LessonText& t) { return t.In(CurrentLang() == Lang::kRu).c_str(); }

// Greyed text that wraps (TextDisabled does not).
void HintWrapped(const char* text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
  ImGui::TextWrapped("%s", text);
  ImGui::PopStyleColor();
}

ImVec4 VerdictColour(app::Verdict v) {
  switch (v) {
    case app::Verdict::kRight: return ImVec4(0.45f, 0.85f, 0.45f, 1.0f);
    case app::Verdict::kPartlyRight: return ImVec4(0.95f, 0.80f, 0.35f, 1.0f);
    case app::Verdict::kImprecise: return ImVec4(1.0f, 0.60f, 0.35f, 1.0f);
    case app::Verdict::kNone: break;
  }
  return ImVec4(1, 1, 1, 1);
}

const Text& VerdictName(app::Verdict v) {
  return v == app::Verdict::kRight         ? tr::kLessonRight
         : v == app::Verdict::kPartlyRight ? tr::kLessonPartly
                                           : tr::kLessonImprecise;
}

// Keys while the lesson has focus (and no text box is being typed in).
void HandleKeys(app::AppState& s, bool pinned) {  // pinned: the keys do not move between steps
  ImGuiIO& io = ImGui::GetIO();
  if (!ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows) || io.WantTextInput) return;
  const int step = s.lab.lesson;
  int go = 0, answer = -1;
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow), false)) go = 1;
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_LeftArrow), false)) go = -1;
  for (ImWchar c : io.InputQueueCharacters) {
    if (c == 'n' || c == 'N' || c == 0x0442 || c == 0x0422) go = 1;       // т Т
    else if (c == 'b' || c == 'B' || c == 0x0438 || c == 0x0418) go = -1;  // и И
    else if (c >= '1' && c < '1' + app::kMaxChoices) answer = c - '1';
  }
  const app::LessonStep* shown = app::CurrentLessonStep(s);
  if (!shown || answer >= static_cast<int>(shown->choices.size())) answer = -1;  // no such choice
  if (answer >= 0 && !app::LessonRevealed(s)) app::AnswerLesson(s, answer);
  else if (pinned || go == 0) return;
  else if (go > 0 && step < s.lab.lesson_steps) app::GoToLesson(s, step + 1);
  else if (go < 0 && step > 1) app::GoToLesson(s, step - 1);
  // The key went to the lesson (at its first or last step too): ImGui's keyboard navigation must
  // not also move its highlight with it. The move it scored this frame is dropped before the
  // next frame applies it, and so is the "go to the first item" it asks for when nothing has
  // the highlight yet.
  ImGui::NavMoveRequestCancel();
  ImGuiContext& g = *ImGui::GetCurrentContext();
  g.NavInitRequest = g.NavInitRequestFromMove = false;
  g.NavInitResultId = 0;
  g.NavDisableHighlight = true;
}

void DrawNavigation(Context& ctx) {
  app::AppState& s = ctx.state;
  const int step = s.lab.lesson;
  ImGui::BeginDisabled(step <= 1);
  if (ImGui::SmallButton(Label(tr::kLessonBack, "lesson_back"))) app::GoToLesson(s, step - 1);
  ImGui::EndDisabled();
  // The numbered steps when the row has room for them beside Next and the close button.
  const ImGuiStyle& st = ImGui::GetStyle();
  auto button_w = [&](const char* label) { return ImGui::CalcTextSize(label, nullptr, true).x + st.FramePadding.x * 2; };
  float row_w = ImGui::GetItemRectSize().x + 2 * st.ItemSpacing.x + button_w(Label(tr::kLessonNext, "n")) + button_w("×");
  for (int k = 1; k <= s.lab.lesson_steps; ++k) row_w += button_w(k < 10 ? "0" : "00") + 3;
  const bool numbered = s.lab.lesson_steps <= kNumberedSteps && row_w <= ImGui::GetContentRegionAvail().x;  // the cursor is back at the line start
  for (int k = 1; numbered && k <= s.lab.lesson_steps; ++k) {
    ImGui::SameLine(0, 3);
    char id[48];
    std::snprintf(id, sizeof id, "%d###lesson_go%d", k, k);
    const bool here = k == step;
    if (here) ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.95f, 0.60f, 0.15f, 1.0f));
    if (ImGui::SmallButton(id)) app::GoToLesson(s, k);
    if (here) ImGui::PopStyleColor();
  }
  ImGui::SameLine();
  ImGui::BeginDisabled(step >= s.lab.lesson_steps);
  if (ImGui::SmallButton(Label(tr::kLessonNext, "lesson_next"))) app::GoToLesson(s, step + 1);
  ImGui::EndDisabled();
  ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - button_w("×"));
  if (ImGui::SmallButton(Label(tr::kLessonClose, "lesson_close"))) {
    ctx.ui.last_lesson = step;
    app::GoToLesson(s, 0);
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", L(tr::kLessonCloseTip));
}

void DrawPrediction(app::AppState& s, const app::LessonStep& st) {
  if (!st.has_question) return;
  ImGui::TextColored(ImVec4(0.55f, 0.8f, 1.0f, 1.0f), "%s", L(tr::kLessonPredict));
  ImGui::TextWrapped("%s", T(st.question));
  const int chosen = app::LessonPrediction(s.lab, s.lab.lesson);
  for (int i = 0; i < static_cast<int>(st.choices.size()); ++i) {
    ImGui::PushID(i);
    char label[16];
    std::snprintf(label, sizeof label, "%d", i + 1);
    if (chosen < 0) {
      if (ImGui::Button(label)) app::AnswerLesson(s, i);
      ImGui::SameLine();
      ImGui::TextWrapped("%s", T(st.choices[i]));
    } else {
      const bool right = i == st.right, mine = i == chosen;
      const ImVec4 colour = right ? ImVec4(0.45f, 0.85f, 0.45f, 1.0f)
                                  : mine ? ImVec4(1.0f, 0.55f, 0.45f, 1.0f) : ImVec4(0.6f, 0.6f, 0.6f, 1.0f);
      ImGui::PushStyleColor(ImGuiCol_Text, colour);
      std::string note;
      if (mine) note += std::string(" (") + L(tr::kLessonYours) + (right ? std::string(", ") + L(tr::kLessonCorrect) : "") + ")";
      else if (right) note += std::string(" (") + L(tr::kLessonCorrect) + ")";
      ImGui::TextWrapped("%s. %s%s", label, T(st.choices[i]), note.c_str());
      ImGui::PopStyleColor();
    }
    ImGui::PopID();
  }
}

void DrawAnswer(app::AppState& s, const app::LessonStep& st) {
  if (st.has_question) {
    ImGui::Separator();
    ImGui::TextColored(ImVec4(0.55f, 0.8f, 1.0f, 1.0f), "%s", L(tr::kLessonAnswer));
    ImGui::TextWrapped("%s", T(st.explanation));
  }
  const std::vector<app::LessonLine> lines = app::LessonReadout(s);
  if (!lines.empty()) {
    ImGui::Spacing();
    HintWrapped(L(tr::kLessonNumbers));
    const bool ru = CurrentLang() == Lang::kRu;
    for (const app::LessonLine& line : lines) ImGui::TextWrapped("%s", (ru ? line.ru : line.en).c_str());
  }
  ImGui::Spacing();
  if (st.has_extra && ImGui::Button(T(st.extra_label))) app::ShowLessonExtra(s);
  if (ImGui::Button(Label(tr::kLessonRestore, "lesson_restore"))) app::RestoreLessonStep(s);
  if (!st.try_this.empty()) HintWrapped((std::string(L(tr::kLessonTry)) + T(st.try_this)).c_str());
}

}  // namespace

void DrawLessonPanel(Context& ctx, ImVec2 size) {
  app::AppState& s = ctx.state;
  const app::LessonStep* st = app::CurrentLessonStep(s);
  if (!st) return;
  char title[96];
  std::snprintf(title, sizeof title, L(tr::kLessonStepOf), s.lab.lesson, s.lab.lesson_steps);
  if (BeginPanel(ctx, title, "lesson", size)) {
    // lock=lesson: the course page chose the step; the learner still answers its prediction.
    const bool pinned = Locked(ctx, "lesson");
    HandleKeys(s, pinned);
    st = app::CurrentLessonStep(s);  // a key may have closed or moved the lesson
    if (st) {
      LockScope lock(ctx, "lesson");
      DrawNavigation(ctx);
      st = app::CurrentLessonStep(s);
    }
    if (st) {
      ImGui::Spacing();
      ImGui::TextColored(ImVec4(0.95f, 0.75f, 0.40f, 1.0f), "%s", T(st->title));
      if (!st->quote.empty()) {
        HintWrapped(L(tr::kLessonSeedSays));
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.78f, 0.78f, 0.85f, 1.0f));
        ImGui::TextWrapped("«%s»", T(st->quote));
        ImGui::PopStyleColor();
      }
      if (st->verdict != app::Verdict::kNone)
        ImGui::TextColored(VerdictColour(st->verdict), "%s", L(VerdictName(st->verdict)));
      if (!st->verdict_text.empty()) ImGui::TextWrapped("%s", T(st->verdict_text));
      ImGui::Separator();
      DrawPrediction(s, *st);
      if (app::LessonRevealed(s)) DrawAnswer(s, *st);
      ImGui::Spacing();
      ImGui::Spacing();
      char keys[160];
      std::snprintf(keys, sizeof keys, L(tr::kLessonKeys), static_cast<int>(st->choices.size()));
      HintWrapped(st->has_question ? keys : L(tr::kLessonKeysNoQuestion));
    }
  }
  EndPanel();
}

const char* LessonEntryLabel() { return Label(tr::kLesson, "lesson_open"); }

}  // namespace ui

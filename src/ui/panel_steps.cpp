// The seed's account, row by row: for the query q, each token's score q·kᵢ, the scaled score,
// exp, scale(i) = αᵢ and scale(i)·vᵢ, then their sum A; beside it, the formula with the numbers.
#include "text/i18n.h"
#include "ui/ui.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace ui {

namespace {

// The column that holds each normalizer's numerator (weight = numerator / denominator).
const Text& NumeratorHeader(attn::Normalizer n) {
  switch (n) {
    case attn::Normalizer::kSparsemax: return tr::kColNumSparsemax;
    case attn::Normalizer::kReluNorm: return tr::kColNumRelu;
    case attn::Normalizer::kSigmoid: return tr::kColNumSigmoid;
    case attn::Normalizer::kNone: return tr::kColNumNone;
    case attn::Normalizer::kHardmax: return tr::kColNumHardmax;
    case attn::Normalizer::kSoftmax: break;
  }
  return tr::kColExp;
}

void DrawTable(Context& ctx, float width, float max_height) {
  app::AppState& s = ctx.state;
  const attn::StepTable& st = s.attention.result.steps;
  const int dv = s.attention.result.trace.d_v;
  const int shown = dv <= 4 ? dv : 3;  // entries of αᵢ·vᵢ that fit; the tooltip has them all
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY |
                                ImGuiTableFlags_SizingFixedFit;
  // As tall as its rows (header, N tokens, the sums), scrolling beyond the space there is.
  const float rows_h = (static_cast<float>(st.rows.size()) + 2.0f) * (ImGui::GetTextLineHeight() + 2 * ImGui::GetStyle().CellPadding.y) + 4.0f;
  const float h = std::min(rows_h, max_height);
  if (!ImGui::BeginTable("steps", 7, flags, ImVec2(width, h))) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("i");
  ImGui::TableSetupColumn(L(tr::kColToken));
  ImGui::TableSetupColumn(L(tr::kColScore));
  ImGui::TableSetupColumn(L(tr::kColScaled));
  ImGui::TableSetupColumn(L(NumeratorHeader(Shown(ctx).normalizer)));
  ImGui::TableSetupColumn(L(tr::kColWeight));
  ImGui::TableSetupColumn(L(tr::kColWeighted), ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableHeadersRow();
  ImGui::PushFont(ctx.fonts.mono);
  for (int i = 0; i < static_cast<int>(st.rows.size()); ++i) {
    const attn::StepRow& r = st.rows[i];
    ImGui::TableNextRow();
    if (i == st.query) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, IM_COL32(120, 80, 20, 110));
    if (r.masked) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TableNextColumn(); ImGui::Text("%d", i);
    ImGui::TableNextColumn(); ImGui::TextUnformatted(r.token.c_str());
    if (ImGui::IsItemHovered()) ctx.ui.hovered_key = i;
    ImGui::TableNextColumn(); ImGui::TextUnformatted(Num(r.score));
    ImGui::TableNextColumn(); ImGui::TextUnformatted(Num(r.scaled));
    ImGui::TableNextColumn(); ImGui::TextUnformatted(r.masked ? L(tr::kMasked) : Num(r.exp, 4));
    ImGui::TableNextColumn(); ImGui::TextUnformatted(Num(r.weight, 4));
    ImGui::TableNextColumn(); ImGui::TextUnformatted(VectorText(r.weighted, shown).c_str());
    if (ImGui::IsItemHovered() && dv > shown) ImGui::SetTooltip("%s", VectorText(r.weighted, dv).c_str());
    if (r.masked) ImGui::PopStyleColor();
  }
  // The sums: the denominator (Σ exp for softmax); Σ αᵢ (1 when normalized); Σ αᵢ·vᵢ = A.
  ImGui::TableNextRow();
  ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, IM_COL32(40, 70, 110, 140));
  ImGui::TableNextColumn(); ImGui::TextUnformatted(L(tr::kSum));
  ImGui::TableNextColumn(); ImGui::TextUnformatted("");
  ImGui::TableNextColumn(); ImGui::TextUnformatted("");
  ImGui::TableNextColumn(); ImGui::TextUnformatted("");
  ImGui::TableNextColumn(); ImGui::TextUnformatted(Num(st.exp_sum, 4));
  ImGui::TableNextColumn(); ImGui::TextUnformatted(Num(st.weight_sum, 4));
  ImGui::TableNextColumn(); ImGui::Text("A = %s", VectorText(st.output, shown).c_str());
  if (ImGui::IsItemHovered() && dv > shown) ImGui::SetTooltip("%s", VectorText(st.output, dv).c_str());
  ImGui::PopFont();
  ImGui::EndTable();
}

template <class... Args>
void FormulaLine(const char* fmt, Args... args) {
  char buf[640];
  std::snprintf(buf, sizeof buf, fmt, args...);
  TextWrappedAtSpaces(buf);
}

// Model mode: the chosen layer's activations, when the query is one of their rows (else null).
const attn::model::BlockActs<float>* QueryBlock(const app::AppState& s) {
  const auto* chosen = attn::model::ChosenBlock(s.attention.model_result.acts, s.lab.config.layer);
  const int q = s.lab.config.query;
  return chosen && q >= 0 && q < chosen->x.rows() ? chosen : nullptr;
}

// Model mode: the chosen head's attention biases (all null for a model without them).
attn::model::HeadBiases Biases(const app::AppState& s) {
  return s.model.loaded ? attn::model::ChosenHeadBiases(*s.model.loaded, s.lab.config.layer, s.lab.config.head)
                        : attn::model::HeadBiases{};
}

// The Llama family's version (model.h): RMSNorm, q before and after its rotation (the run keeps
// both: BlockActs::q_unrotated, the trace's Q), the formulas with the biases or Qwen3's q/k norm
// the model has, and the key/value head this query head shares.
void DrawRotaryBefore(Context& ctx, const attn::model::BlockActs<float>& block, int q,
                      const attn::model::HeadBiases& bias, const attn::model::ModelConfig& mc) {
  const app::AppState& s = ctx.state;
  const int head = s.lab.config.head, dh = attn::model::HeadDim(mc);
  const std::size_t h = static_cast<std::size_t>(head);
  if (h >= block.q_unrotated.size()) return;
  const attn::VecF ln = block.ln1.row(q).transpose();
  const attn::VecF raw = block.q_unrotated[h].row(q).transpose();
  const attn::VecF turned = s.attention.result.trace.Q.row(q).transpose();
  // the formulas as the model computes them
  std::string qf = "W_Q·RMSNorm(x)", kf = "W_K·RMSNorm(xᵢ)", vf = "W_V·RMSNorm(xᵢ)";
  if (bias.q) qf += " + b_Q", kf += " + b_K", vf += " + b_V";
  if (mc.qk_norm) qf = "q_norm(" + qf + ")", kf = "k_norm(" + kf + ")";
  char buf[1400];
  ImGui::PushFont(ctx.fonts.mono);
  std::snprintf(buf, sizeof buf, L(tr::kModelStepsRms), s.lab.config.layer, VectorText(ln, 4).c_str());
  TextWrappedAtSpaces(buf);
  std::snprintf(buf, sizeof buf, L(tr::kModelStepsQRope), qf.c_str(), dh, VectorText(raw, 4).c_str(), q, dh / 2, q, dh,
                mc.rope_theta, VectorText(turned, 4).c_str());
  TextWrappedAtSpaces(buf);
  ImGui::PopFont();
  std::snprintf(buf, sizeof buf, L(tr::kModelStepsKVRope), kf.c_str(), vf.c_str());
  TextWrappedAtSpaces(buf);
  const int kv = attn::model::KvHeads(mc), group = mc.heads / kv;
  if (group > 1) {
    std::snprintf(buf, sizeof buf, L(tr::kModelStepsShared), head / group, (head / group) * group,
                  (head / group) * group + group - 1, mc.heads, kv);
    TextWrappedAtSpaces(buf);
  }
}

// Model mode, before the table: the real computation of the query's q (row q) from the
// residual stream of the chosen layer (`block`). A model with attention biases (GPT-2) has them
// in its formulas, their numbers the weights' (ChosenHeadBiases); the run's q includes b_Q.
void DrawModelBefore(Context& ctx, const attn::model::BlockActs<float>& block, int q,
                     const attn::model::HeadBiases& bias) {
  const app::AppState& s = ctx.state;
  // (ModelCodeInBuild first: the default page, which opens no checkpoint, carries none of it)
  if (attn::model::ModelCodeInBuild() && s.model.loaded && s.model.loaded->config().rotary)
    return DrawRotaryBefore(ctx, block, q, bias, s.model.loaded->config());
  const attn::VecF ln = block.ln1.row(q).transpose();
  const attn::VecF qv = s.attention.result.trace.Q.row(q).transpose();
  char buf[1024];
  ImGui::PushFont(ctx.fonts.mono);
  std::snprintf(buf, sizeof buf, L(tr::kModelStepsLn), s.lab.config.layer, VectorText(ln, 4).c_str());
  TextWrappedAtSpaces(buf);
  if (bias.q)
    std::snprintf(buf, sizeof buf, L(tr::kModelStepsQBias), static_cast<int>(qv.size()), VectorText(qv, 4).c_str(),
                  VectorText(*bias.q, 4).c_str());
  else
    std::snprintf(buf, sizeof buf, L(tr::kModelStepsQ), static_cast<int>(qv.size()), VectorText(qv, 4).c_str());
  TextWrappedAtSpaces(buf);
  ImGui::PopFont();
  if (bias.k) {
    std::snprintf(buf, sizeof buf, L(tr::kModelStepsKVBias), VectorText(*bias.k, 4).c_str(), VectorText(*bias.v, 4).c_str());
    TextWrappedAtSpaces(buf);
  } else {
    ImGui::TextWrapped("%s", L(tr::kModelStepsKV));
  }
}

// Model mode, after the formula: where A goes (W_O, b_O when the model has it, the residual stream).
void DrawModelAfter(const attn::model::BlockActs<float>& block, int q, const attn::model::HeadBiases& bias) {
  const int heads = static_cast<int>(block.attn.heads.size());
  const int width = static_cast<int>(block.attn.concat.cols());
  const int d_model = static_cast<int>(block.x.cols());
  const attn::VecF res = block.res1.row(q).transpose();
  char buf[1024];
  if (bias.o)
    std::snprintf(buf, sizeof buf, L(tr::kModelStepsNextBias), heads, width, width, d_model, VectorText(*bias.o, 4).c_str(),
                  VectorText(res, 4).c_str());
  else
    std::snprintf(buf, sizeof buf, L(tr::kModelStepsNext), heads, width, width, d_model, VectorText(res, 4).c_str());
  TextWrappedAtSpaces(buf);
  ImGui::Spacing();
}

void DrawFormula(Context& ctx) {
  app::AppState& s = ctx.state;
  const attn::StepTable& st = s.attention.result.steps;
  const attn::AttentionTrace<float>& t = s.attention.result.trace;
  const auto& tok = s.attention.result.tokens;
  ImGui::TextColored(ImVec4(0.55f, 0.8f, 1.0f, 1.0f), "%s", L(tr::kFormula));
  char buf[512];
  if (Shown(ctx).scaled)
    std::snprintf(buf, sizeof buf, L(tr::kScaleIs), Num(t.scale, 4), t.d_k, Num(t.temperature, 3), Num(st.row_max));
  else
    std::snprintf(buf, sizeof buf, L(tr::kScaleIsUnscaled), Num(t.temperature, 3), Num(st.row_max));
  TextWrappedAtSpaces(buf);
  const attn::Normalizer norm = Shown(ctx).normalizer;
  switch (norm) {
    case attn::Normalizer::kSoftmax: std::snprintf(buf, sizeof buf, "%s", L(tr::kRuleSoftmax)); break;
    case attn::Normalizer::kSparsemax: std::snprintf(buf, sizeof buf, L(tr::kRuleSparsemax), Num(st.row_max, 4)); break;
    case attn::Normalizer::kReluNorm: std::snprintf(buf, sizeof buf, "%s", L(tr::kRuleRelu)); break;
    case attn::Normalizer::kSigmoid: std::snprintf(buf, sizeof buf, L(tr::kRuleSigmoid), Num(st.weight_sum, 4)); break;
    case attn::Normalizer::kNone: std::snprintf(buf, sizeof buf, L(tr::kRuleNone), Num(st.weight_sum, 4)); break;
    case attn::Normalizer::kHardmax: std::snprintf(buf, sizeof buf, "%s", L(tr::kRuleHardmax)); break;
  }
  TextWrappedAtSpaces(buf);
  ImGui::PushFont(ctx.fonts.mono);
  const int n = static_cast<int>(st.rows.size());
  const int listed = n <= 12 ? n : 12;
  for (int i = 0; i < listed; ++i) {
    const attn::StepRow& r = st.rows[i];
    if (r.masked)
      ImGui::TextDisabled("α⟨%s⟩ = 0 (%s)", r.token.c_str(), L(tr::kMasked));
    else if (norm == attn::Normalizer::kSoftmax)
      FormulaLine("α⟨%s⟩ = exp(%s − %s) / %s = %s / %s = %s", r.token.c_str(), Num(r.scaled),
                         Num(st.row_max), Num(st.exp_sum, 4), Num(r.exp, 4), Num(st.exp_sum, 4), Num(r.weight, 4));
    else
      FormulaLine("α⟨%s⟩ = %s / %s = %s", r.token.c_str(), Num(r.exp, 4), Num(st.exp_sum, 4), Num(r.weight, 4));
  }
  if (listed < n) ImGui::TextDisabled("… (%d)", n - listed);
  std::string sum = "A = ";
  for (int i = 0; i < n; ++i) {
    if (i) sum += " + ";
    if (i == listed) { sum += "…"; break; }
    sum += std::string(Num(st.rows[i].weight, 3)) + "·v⟨" + st.rows[i].token + "⟩";
  }
  TextWrappedAtSpaces(sum.c_str());
  TextWrappedAtSpaces(("  = " + VectorText(st.output, 8)).c_str());
  ImGui::PopFont();
  ImGui::Spacing();
  if (ModelMode(ctx))
    if (const auto* block = QueryBlock(ctx.state)) DrawModelAfter(*block, ctx.state.lab.config.query, Biases(ctx.state));
  ImGui::TextWrapped("%s", L(tr::kWhereInfo));
  (void)tok;
}

}  // namespace

void DrawStepsPanel(Context& ctx) {
  if (ModelPendingPanel(ctx, L(tr::kSteps), "steps")) return;
  app::AppState& s = ctx.state;
  char title[256];
  const int q = s.attention.result.steps.query;  // the run's index (an edit can move the query)
  int used = std::snprintf(title, sizeof title, L(tr::kStepsFor), s.attention.result.tokens[q].text.c_str(), q);
  if (ModelMode(ctx) && used > 0 && used < static_cast<int>(sizeof title)) {
    used += std::snprintf(title + used, sizeof title - used, " · %s %d, %s %d", L(tr::kModelLayer), s.lab.config.layer,
                          L(tr::kModelHead), s.lab.config.head);
  } else if (s.lab.config.heads > 1 && used > 0 && used < static_cast<int>(sizeof title)) {
    std::snprintf(title + used, sizeof title - used, " · ");
    used += 4;  // " · " is 4 bytes in UTF-8
    std::snprintf(title + used, sizeof title - used, L(tr::kHeadOf), s.lab.config.head, s.lab.config.heads - 1);
  }
  if (BeginPanel(ctx, title, "steps", ImVec2(0, 0))) {
    if (ModelMode(ctx))
      if (const auto* block = QueryBlock(ctx.state)) DrawModelBefore(ctx, *block, ctx.state.lab.config.query, Biases(ctx.state));
    const float avail = ImGui::GetContentRegionAvail().x;
    if (avail > 1000.0f) {  // wide: table and formula side by side
      const float table_w = avail * 0.56f;
      ImGui::BeginChild("steps_table", ImVec2(table_w, 0), false);
      DrawTable(ctx, table_w, ImGui::GetContentRegionAvail().y);
      ImGui::EndChild();
      ImGui::SameLine();
      ImGui::BeginChild("steps_formula", ImVec2(0, 0), false);
      DrawFormula(ctx);
      ImGui::EndChild();
    } else {  // narrow: the formula under the table
      DrawTable(ctx, 0, ImGui::GetContentRegionAvail().y * 0.5f);
      ImGui::BeginChild("steps_formula", ImVec2(0, 0), false);
      DrawFormula(ctx);
      ImGui::EndChild();
    }
  }
  EndPanel();
}

}  // namespace ui

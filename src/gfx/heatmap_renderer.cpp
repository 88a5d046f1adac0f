#include "gfx/heatmap_renderer.h"

#include "attn_assets.h"  // generated: shaders embedded at build time
#include "gfx/gl.h"

namespace gfx {

namespace {

GLuint Compile(GLenum type, const char* prelude, const char* body, std::string* error) {
  const char* sources[3] = {ATTNLAB_GLSL_PREAMBLE, prelude, body};
  GLuint s = glCreateShader(type);
  glShaderSource(s, 3, sources, nullptr);
  glCompileShader(s);
  GLint ok = 0;
  glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[1024] = {0};
    glGetShaderInfoLog(s, sizeof log, nullptr, log);
    *error = std::string("heatmap shader: ") + log;
    glDeleteShader(s);
    return 0;
  }
  return s;
}

}  // namespace

bool HeatmapRenderer::Init(const std::string& colormap_glsl, std::string* error) {
  GLuint vs = Compile(GL_VERTEX_SHADER, "", reinterpret_cast<const char*>(kAsset_heatmap_vert), error);
  GLuint fs = Compile(GL_FRAGMENT_SHADER, colormap_glsl.c_str(), reinterpret_cast<const char*>(kAsset_heatmap_frag), error);
  if (!vs || !fs) return false;
  program_ = glCreateProgram();
  glAttachShader(program_, vs);
  glAttachShader(program_, fs);
  glLinkProgram(program_);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = 0;
  glGetProgramiv(program_, GL_LINK_STATUS, &ok);
  if (!ok) {
    char log[1024] = {0};
    glGetProgramInfoLog(program_, sizeof log, nullptr, log);
    *error = std::string("heatmap program: ") + log;
    glDeleteProgram(program_);
    program_ = 0;
    return false;
  }
  loc_projection_ = glGetUniformLocation(program_, "u_projection");
  loc_rect_ = glGetUniformLocation(program_, "u_rect");
  loc_range_ = glGetUniformLocation(program_, "u_range");
  loc_mode_ = glGetUniformLocation(program_, "u_mode");
  loc_map_ = glGetUniformLocation(program_, "u_map");
  loc_values_ = glGetUniformLocation(program_, "u_values");
  glGenVertexArrays(1, &vao_);  // core profiles draw nothing without a bound VAO
  // The ramp reads no texture, but a sampler must still be bound to something complete.
  const float zero = 0.0f;
  glGenTextures(1, &ramp_texture_);
  glBindTexture(GL_TEXTURE_2D, ramp_texture_);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, 1, 1, 0, GL_RED, GL_FLOAT, &zero);
  return true;
}

void HeatmapRenderer::Shutdown() {
  for (Texture& t : textures_)
    if (t.id) glDeleteTextures(1, &t.id);
  textures_.clear();
  if (ramp_texture_) glDeleteTextures(1, &ramp_texture_);
  if (vao_) glDeleteVertexArrays(1, &vao_);
  if (program_) glDeleteProgram(program_);
  program_ = vao_ = ramp_texture_ = 0;
}

bool HeatmapRenderer::Recreate(const std::string& colormap_glsl, std::string* error) {
  program_ = vao_ = ramp_texture_ = 0;  // the lost context took them with it
  for (Texture& t : textures_) {
    t.id = 0;
    t.data.clear();  // forces a re-upload
  }
  return Init(colormap_glsl, error);
}

int HeatmapRenderer::TextureIndex(HeatmapSlot slot, int head) {
  const int s = static_cast<int>(slot);
  if (s < 0 || s >= static_cast<int>(HeatmapSlot::kCount) || head < 0 || head >= kHeatmapHeadsPerSlot) return -1;
  return s * kHeatmapHeadsPerSlot + head;
}

void HeatmapRenderer::Upload(HeatmapSlot picture, int head, const std::vector<float>& values, int rows, int cols) {
  const int slot = TextureIndex(picture, head);
  if (slot < 0 || rows <= 0 || cols <= 0 || values.size() != static_cast<size_t>(rows) * cols) return;
  if (static_cast<int>(textures_.size()) <= slot) textures_.resize(slot + 1);
  Texture& t = textures_[slot];
  if (t.id && t.rows == rows && t.cols == cols && t.data == values) return;
  if (!t.id) glGenTextures(1, &t.id);
  glBindTexture(GL_TEXTURE_2D, t.id);
  // R32F is not filterable in WebGL2 without an extension; cells are sharp anyway.
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  // Row-major data: texel (x = col, y = row) holds m(row, col); row 0 is drawn at the top.
  glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, cols, rows, 0, GL_RED, GL_FLOAT, values.data());
  t.rows = rows;
  t.cols = cols;
  t.data = values;
}

void HeatmapRenderer::Draw(ImDrawList* dl, HeatmapSlot picture, int head, ImVec2 p0, ImVec2 p1, float vmin, float vmax,
                           Colormap map) {
  const int slot = TextureIndex(picture, head);
  if (!program_ || slot < 0 || slot >= static_cast<int>(textures_.size()) || !textures_[slot].id) return;
  Queue(dl, Request{this, textures_[slot].id, {p0.x, p0.y, p1.x, p1.y}, {vmin, vmax}, 0, static_cast<int>(map)});
}

void HeatmapRenderer::DrawRamp(ImDrawList* dl, ImVec2 p0, ImVec2 p1, float vmin, float vmax, Colormap map) {
  if (!program_) return;
  Queue(dl, Request{this, ramp_texture_, {p0.x, p0.y, p1.x, p1.y}, {vmin, vmax}, 1, static_cast<int>(map)});
}

void HeatmapRenderer::Queue(ImDrawList* dl, const Request& r) {
  requests_.push_back(r);
  dl->AddCallback(&HeatmapRenderer::Callback, &requests_.back());
  dl->AddCallback(ImDrawCallback_ResetRenderState, nullptr);  // give the GL state back to ImGui
}

void HeatmapRenderer::Callback(const ImDrawList*, const ImDrawCmd* cmd) {
  const Request& r = *static_cast<const Request*>(cmd->UserCallbackData);
  const HeatmapRenderer& self = *r.self;
  // The same orthographic projection as ImGui's backend uses for this frame.
  const ImDrawData* dd = ImGui::GetDrawData();
  const float L = dd->DisplayPos.x, R = dd->DisplayPos.x + dd->DisplaySize.x;
  const float T = dd->DisplayPos.y, B = dd->DisplayPos.y + dd->DisplaySize.y;
  const float ortho[16] = {2.0f / (R - L), 0, 0, 0,  0, 2.0f / (T - B), 0, 0,  0, 0, -1.0f, 0,
                           (R + L) / (L - R), (T + B) / (B - T), 0, 1.0f};
  // ImGui's backend sets the scissor for its own commands only: clip to this one's rectangle.
  const ImVec2 sc = dd->FramebufferScale;
  const float fb_height = dd->DisplaySize.y * sc.y;
  const float x0 = (cmd->ClipRect.x - L) * sc.x, y0 = (cmd->ClipRect.y - T) * sc.y;
  const float x1 = (cmd->ClipRect.z - L) * sc.x, y1 = (cmd->ClipRect.w - T) * sc.y;
  if (x1 <= x0 || y1 <= y0) return;
  glEnable(GL_SCISSOR_TEST);
  glScissor(static_cast<GLint>(x0), static_cast<GLint>(fb_height - y1),
            static_cast<GLsizei>(x1 - x0), static_cast<GLsizei>(y1 - y0));
  glUseProgram(self.program_);
  glUniformMatrix4fv(self.loc_projection_, 1, GL_FALSE, ortho);
  glUniform4fv(self.loc_rect_, 1, r.rect);
  glUniform2fv(self.loc_range_, 1, r.range);
  glUniform1i(self.loc_mode_, r.mode);
  glUniform1i(self.loc_map_, r.map);
  glUniform1i(self.loc_values_, 0);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, r.texture);
  glBindVertexArray(self.vao_);
  glDisable(GL_BLEND);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

}  // namespace gfx

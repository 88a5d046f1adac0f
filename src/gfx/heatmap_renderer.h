// Draws matrices as colour pictures on the GPU: each matrix is uploaded once per change as an
// R32F texture and coloured by shaders/heatmap.frag through an ImDrawList callback, so a 64x64
// heatmap costs one quad, not 4096 ImGui rectangles.
#pragma once

#include <imgui.h>

#include <deque>
#include <string>
#include <vector>

namespace gfx {

// The pictures the lab keeps on the GPU. Each slot holds one texture per head (index 0 when the
// picture has a single one), up to kHeatmapHeadsPerSlot.
enum class HeatmapSlot {
  kLab,       // the weights panel: the chosen head, large
  kLabHeads,  // the weights panel: every head, small, side by side
  kTrainA,    // the training panel: run A's example, one picture per head
  kTrainB,    // the training panel: run B's example, one picture per head
  kModelHeads,  // model mode's head gallery: layer l, head h is picture l * H + h
  kWhatIf,      // the what-if panel: Δα of the chosen head (0), of every head small (1 + h)
  kPrediction,  // the Prediction tab: the lens, the attribution map, patching, a step's map
  kCount
};
// How values become colours: viridis (weights, 0..1) or the diverging map of a difference (Δα: the
// range is symmetric, zero is the middle's light grey).
enum class Colormap { kViridis, kDiverging };

constexpr int kHeatmapHeadsPerSlot = 64;  // the model gallery holds L x H pictures (the shipped model: 24)

class HeatmapRenderer {
 public:
  // Compiles the shaders; false (and a message) if the GL driver refuses them. `colormap_glsl`
  // defines `vec3 viridis(float t)` and `vec3 diverging(float t)` for shaders/heatmap.frag
  // (app::ColormapGlsl(): the tables that the exported SVG uses too; gfx does not include app,
  // the platform hands it over).
  bool Init(const std::string& colormap_glsl, std::string* error);
  void Shutdown();
  // After a lost WebGL context: forget the old objects (they are gone) and build new ones.
  bool Recreate(const std::string& colormap_glsl, std::string* error);
  bool ready() const { return program_ != 0; }

  // Uploads a (rows, cols) matrix given row-major: values[r * cols + c] as picture `head` of
  // `slot`; uploading the same data twice is skipped, a head outside the slot is ignored.
  void Upload(HeatmapSlot slot, int head, const std::vector<float>& values, int rows, int cols);

  // Queues picture `head` of `slot` into the current window's draw list, filling [p0, p1].
  void Draw(ImDrawList* dl, HeatmapSlot slot, int head, ImVec2 p0, ImVec2 p1, float vmin, float vmax,
            Colormap map = Colormap::kViridis);
  // A horizontal colour ramp from vmin (left) to vmax (right).
  void DrawRamp(ImDrawList* dl, ImVec2 p0, ImVec2 p1, float vmin, float vmax, Colormap map = Colormap::kViridis);

  // Forgets the per-frame draw requests; call once per frame before drawing the UI.
  void BeginFrame() { requests_.clear(); }

 private:
  struct Texture {
    unsigned id = 0;
    int rows = 0, cols = 0;
    std::vector<float> data;
  };
  struct Request {  // lives until the frame is rendered (ImGui keeps only a pointer)
    HeatmapRenderer* self;
    unsigned texture;
    float rect[4];
    float range[2];
    int mode;
    int map;
  };
  static void Callback(const ImDrawList* dl, const ImDrawCmd* cmd);
  static int TextureIndex(HeatmapSlot slot, int head);  // -1 when outside the slot
  void Queue(ImDrawList* dl, const Request& r);

  unsigned program_ = 0, vao_ = 0, ramp_texture_ = 0;
  int loc_projection_ = -1, loc_rect_ = -1, loc_range_ = -1, loc_mode_ = -1, loc_map_ = -1, loc_values_ = -1;
  std::vector<Texture> textures_;
  std::deque<Request> requests_;  // deque: pointers stay valid while we append
};

}  // namespace gfx

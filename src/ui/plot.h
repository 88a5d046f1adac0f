// A small line-plot widget on ImGui's draw list for the training and normalization panels:
// axes with ticks (linear or log), several series with optional shaded bands, vertical marks,
// a legend and a hover read-out. It draws the numbers it is given; it computes none (a long
// series is thinned to one min-max stroke per pixel column, which only chooses what to draw).
#pragma once

#include <imgui.h>

#include <cstddef>
#include <string>
#include <vector>

namespace ui {

struct PlotSeries {
  std::string label;                // legend text ("" = not in the legend)
  ImU32 colour = IM_COL32(255, 255, 255, 255);
  const double* y = nullptr;        // (count), `stride` bytes apart (a field of a struct array)
  int count = 0;
  std::size_t stride = sizeof(double);  // also used for lo and hi
  const double* x = nullptr;        // (count); null: x_i = x0 + i * dx
  double x0 = 1, dx = 1;
  const double* lo = nullptr;       // (count) optional shaded band lo..hi
  const double* hi = nullptr;
  float thickness = 1.8f;
  bool markers = false;             // a dot at every point
  bool dashed = false;
  bool highlight = false;           // drawn thicker, and bold in the legend
};

struct PlotMark {
  double x = 0;
  std::string label;
  ImU32 colour = IM_COL32(245, 155, 40, 220);
};

struct PlotSpec {
  std::string title;
  std::string x_label, y_label;
  bool log_x = false, log_y = false;
  double x_min = 0, x_max = 0;      // x_min == x_max: from the data
  double y_min = 0, y_max = 0;      // y_min == y_max: from the data
  bool y_from_zero = false;         // with an automatic range: include 0
  std::vector<PlotMark> marks;      // vertical lines
  std::vector<double> hlines;       // horizontal reference lines (dotted)
  std::string figure;               // exportable as PNG and SVG under this id ("" = not)
};

struct UiState;
// The UiState that Plot() records its figures in and writes a requested SVG to (DrawLab sets it).
void SetPlotUi(UiState* ui);

// Draws the plot into a box of `size` at the cursor (it advances like a widget).
void Plot(const char* id, ImVec2 size, const PlotSpec& spec, const std::vector<PlotSeries>& series);

// One signed horizontal bar of `width` at the cursor (a widget one text line high): zero in the
// middle (or at the left when `from_left`), `scale` = the value that fills the half (or the
// whole) width; the number is printed over it.
// A number in at most ~7 characters: "0.125", "−3.210", "8.4e−6" (real minus signs).
std::string ShortNumber(double v);

void SignedBar(double value, double scale, float width, ImU32 positive, ImU32 negative, bool from_left = false);

}  // namespace ui

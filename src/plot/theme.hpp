// Colours of the light and dark themes (PNG, SVG and the HTML report use the same).
#pragma once
#include <array>
#include <string>

namespace inferperf::plot {

struct Theme {
  std::string name;
  std::string background;
  std::string foreground;  // text, axes
  std::string grid;
  std::string panel;                   // report tables and cards
  std::array<std::string, 8> palette;  // series colours, NVIDIA green first
};

// "light" or "dark"; throws PlotError (exit 2) for anything else.
const Theme& theme_named(const std::string& name);

}  // namespace inferperf::plot

#include "plot/theme.hpp"

#include "plot/plot_error.hpp"

namespace inferperf::plot {

namespace {

// NVIDIA green, then colours that stay apart from each other and from both backgrounds.
constexpr std::array<const char*, 8> kLightPalette = {"#76b900", "#1f6fc5", "#e8710a", "#8f3fbf",
                                                      "#d62728", "#0f9d9a", "#8c564b", "#555555"};
constexpr std::array<const char*, 8> kDarkPalette = {"#76b900", "#4ea1ff", "#ff9a3c", "#c58bff",
                                                     "#ff6b6b", "#2ed3c6", "#d9a27f", "#bbbbbb"};

Theme make(const char* name, const char* bg, const char* fg, const char* grid, const char* panel,
           const std::array<const char*, 8>& pal) {
  Theme t{name, bg, fg, grid, panel, {}};
  for (std::size_t i = 0; i < pal.size(); ++i) t.palette[i] = pal[i];
  return t;
}

}  // namespace

const Theme& theme_named(const std::string& name) {
  static const Theme light =
      make("light", "#ffffff", "#1a1a1a", "#d9d9d9", "#f4f6f2", kLightPalette);
  static const Theme dark = make("dark", "#161616", "#e8e8e8", "#3a3a3a", "#222222", kDarkPalette);
  if (name == "light") return light;
  if (name == "dark") return dark;
  throw input_error("inferperf plot: --theme " + name + ": expected light or dark");
}

}  // namespace inferperf::plot

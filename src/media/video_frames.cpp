// The pictures a synthetic video is made of, one RGB frame at a time.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "media/video.hpp"

namespace inferperf::media {

namespace {

struct VfColour {
  std::uint8_t r, g, b;
};

constexpr double kVfPi = 3.14159265358979323846;
constexpr int kVfGridStep = 32;
constexpr VfColour kVfGridColour{64, 64, 64};

void vf_put(RgbImage& img, int x, int y, VfColour c) {
  std::uint8_t* p = img.rgb.data() + (static_cast<std::size_t>(y) * img.width + x) * 3;
  p[0] = c.r;
  p[1] = c.g;
  p[2] = c.b;
}

// `v` wrapped into [0, n).
int vf_wrap(int v, int n) {
  return ((v % n) + n) % n;
}

double vf_wrap_coord(double v, double n) {
  return v - n * std::floor(v / n);
}

// A shape that leaves one edge re-enters at the opposite one: the box around it is walked in
// unwrapped coordinates and each pixel lands where it wraps to.
void vf_disc(RgbImage& img, double cx, double cy, double radius, VfColour c) {
  const int x0 = static_cast<int>(std::floor(cx - radius));
  const int x1 = static_cast<int>(std::ceil(cx + radius));
  const int y0 = static_cast<int>(std::floor(cy - radius));
  const int y1 = static_cast<int>(std::ceil(cy + radius));
  for (int y = y0; y <= y1; ++y) {
    for (int x = x0; x <= x1; ++x) {
      if (std::hypot(x + 0.5 - cx, y + 0.5 - cy) <= radius) {
        vf_put(img, vf_wrap(x, img.width), vf_wrap(y, img.height), c);
      }
    }
  }
}

void vf_square(RgbImage& img, double cx, double cy, double half, VfColour c) {
  const int x0 = static_cast<int>(std::lround(cx - half));
  const int y0 = static_cast<int>(std::lround(cy - half));
  const int side = std::max(1, static_cast<int>(std::lround(2 * half)));
  for (int y = y0; y < y0 + side; ++y) {
    for (int x = x0; x < x0 + side; ++x) {
      vf_put(img, vf_wrap(x, img.width), vf_wrap(y, img.height), c);
    }
  }
}

// Start position and velocity as fractions of the frame (per second), size as a fraction of the
// shorter side: the motion looks the same at any resolution.
struct VfMover {
  double x, y, vx, vy, size;
  bool round;
  VfColour colour;
};

constexpr VfMover kVfMovers[] = {
    {0.25, 0.30, 0.35, 0.20, 0.125, true, {230, 40, 40}},
    {0.60, 0.50, -0.25, 0.30, 0.125, false, {40, 200, 60}},
    {0.40, 0.75, 0.15, -0.40, 0.100, true, {50, 80, 230}},
};

void vf_moving_shapes(RgbImage& img, double t) {
  const double w = img.width;
  const double h = img.height;
  const double side = std::min(w, h);
  for (const VfMover& m : kVfMovers) {
    const double cx = vf_wrap_coord((m.x + m.vx * t) * w, w);
    const double cy = vf_wrap_coord((m.y + m.vy * t) * h, h);
    if (m.round) {
      vf_disc(img, cx, cy, m.size * side, m.colour);
    } else {
      vf_square(img, cx, cy, m.size * side, m.colour);
    }
  }
}

// A hand from the centre at `turn` of a full circle clockwise from twelve o'clock, `thickness`
// pixels wide, drawn as every pixel within half the thickness of the segment.
void vf_hand(RgbImage& img, double turn, double length, double thickness, VfColour c) {
  const double cx = img.width / 2.0;
  const double cy = img.height / 2.0;
  const double dx = std::sin(2 * kVfPi * turn);
  const double dy = -std::cos(2 * kVfPi * turn);
  const double reach = length + thickness;
  const int x0 = std::max(0, static_cast<int>(std::floor(cx - reach)));
  const int x1 = std::min(img.width - 1, static_cast<int>(std::ceil(cx + reach)));
  const int y0 = std::max(0, static_cast<int>(std::floor(cy - reach)));
  const int y1 = std::min(img.height - 1, static_cast<int>(std::ceil(cy + reach)));
  for (int y = y0; y <= y1; ++y) {
    for (int x = x0; x <= x1; ++x) {
      const double px = x + 0.5 - cx;
      const double py = y + 0.5 - cy;
      const double along = std::clamp(px * dx + py * dy, 0.0, length);
      if (std::hypot(px - along * dx, py - along * dy) <= thickness / 2) vf_put(img, x, y, c);
    }
  }
}

void vf_grid_clock(RgbImage& img, int index, int frames) {
  for (int y = 0; y < img.height; ++y) {
    for (int x = 0; x < img.width; ++x) {
      if (x % kVfGridStep == 0 || y % kVfGridStep == 0) vf_put(img, x, y, kVfGridColour);
    }
  }
  const double side = std::min(img.width, img.height);
  const double minute_turn = static_cast<double>(index) / frames;
  vf_hand(img, minute_turn / 12.0, 0.25 * side, std::max(3.0, side / 40.0), {230, 190, 60});
  vf_hand(img, minute_turn, 0.40 * side, std::max(2.0, side / 64.0), {240, 240, 240});
}

}  // namespace

int VideoSpec::frame_count() const {
  const double n = std::floor(duration_s * fps);
  return n >= 1 ? static_cast<int>(n) : 1;
}

RgbImage video_frame(const VideoSpec& spec, int index, std::mt19937_64& rng) {
  if (spec.synth == VideoSynth::kNoise) return noise_image(spec.width, spec.height, rng);
  RgbImage img{spec.width, spec.height, {}};
  img.rgb.assign(static_cast<std::size_t>(std::max(0, spec.width)) * std::max(0, spec.height) * 3,
                 0);
  if (spec.width <= 0 || spec.height <= 0) return img;
  if (spec.synth == VideoSynth::kGridClock) {
    vf_grid_clock(img, index, spec.frame_count());
  } else {
    vf_moving_shapes(img, static_cast<double>(index) / std::max(1, spec.fps));
  }
  return img;
}

}  // namespace inferperf::media

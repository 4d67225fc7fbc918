#include "plot/discovery.hpp"

#include <algorithm>
#include <cctype>
#include <system_error>

#include "plot/plot_error.hpp"

namespace inferperf::plot {

namespace fs = std::filesystem;

namespace {

bool is_dir(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

// Sub-folders sorted so that run_0002 < run_0010 and c2 < c10: digit runs compare as numbers.
bool natural_less(const std::string& a, const std::string& b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const bool da = std::isdigit(static_cast<unsigned char>(a[i])) != 0;
    const bool db = std::isdigit(static_cast<unsigned char>(b[j])) != 0;
    if (da && db) {
      std::size_t ie = i, je = j;
      while (ie < a.size() && std::isdigit(static_cast<unsigned char>(a[ie]))) ++ie;
      while (je < b.size() && std::isdigit(static_cast<unsigned char>(b[je]))) ++je;
      const std::string na = a.substr(i, ie - i), nb = b.substr(j, je - j);
      const auto ta = na.find_first_not_of('0'), tb = nb.find_first_not_of('0');
      const std::string sa = ta == std::string::npos ? "" : na.substr(ta);
      const std::string sb = tb == std::string::npos ? "" : nb.substr(tb);
      if (sa.size() != sb.size()) return sa.size() < sb.size();
      if (sa != sb) return sa < sb;
      i = ie;
      j = je;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

std::vector<fs::path> sorted_subdirs(const fs::path& dir) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (is_dir(e.path())) out.push_back(e.path());
  std::sort(out.begin(), out.end(), [](const fs::path& a, const fs::path& b) {
    return natural_less(a.filename().string(), b.filename().string());
  });
  return out;
}

// The run folders of <dir>/profile_runs/, empty when there are none.
std::vector<fs::path> repeated_runs(const fs::path& dir) {
  std::vector<fs::path> runs;
  const fs::path pr = dir / artifacts::kProfileRunsFolderName;
  if (!is_dir(pr)) return runs;
  for (const auto& r : sorted_subdirs(pr))
    if (is_run_folder(r)) runs.push_back(r);
  return runs;
}

// A sweep whose trials each ran every point: <dir>/profile_runs/trial_NNNN/<point>/. The runs of
// one point across the trials are grouped into one point, in the order the points first appear.
std::vector<PointDirs> trials_of_points(const fs::path& dir) {
  std::vector<PointDirs> points;
  const fs::path pr = dir / artifacts::kProfileRunsFolderName;
  if (!is_dir(pr)) return points;
  for (const auto& trial : sorted_subdirs(pr)) {
    for (const auto& point : sorted_subdirs(trial)) {
      if (!is_run_folder(point)) continue;
      auto same = std::find_if(points.begin(), points.end(), [&](const PointDirs& p) {
        return p.dir.filename() == point.filename();
      });
      if (same == points.end()) {
        points.push_back({point, {point}});
      } else {
        same->runs.push_back(point);
      }
    }
  }
  return points;
}

}  // namespace

bool is_run_folder(const fs::path& dir) {
  std::error_code ec;
  return fs::is_regular_file(dir / kSummaryFile, ec);
}

Discovery discover_runs(const std::vector<fs::path>& paths) {
  Discovery d;
  for (const auto& p : paths) {
    std::error_code ec;
    if (!fs::exists(p, ec))
      throw input_error("inferperf plot: " + p.string() + ": no such file or folder");
    if (!is_dir(p))
      throw input_error("inferperf plot: " + p.string() +
                        ": not a folder (give a run folder or a folder of runs)");
    const std::size_t before = d.points.size();
    if (is_run_folder(p)) {
      d.points.push_back({p, {p}});
    } else if (auto runs = repeated_runs(p); !runs.empty()) {
      d.points.push_back({p, std::move(runs)});
    } else if (auto by_point = trials_of_points(p); !by_point.empty()) {
      for (auto& point : by_point) d.points.push_back(std::move(point));
    } else {
      for (const auto& sub : sorted_subdirs(p)) {
        if (is_run_folder(sub)) {
          d.points.push_back({sub, {sub}});
        } else if (auto sub_runs = repeated_runs(sub); !sub_runs.empty()) {
          d.points.push_back({sub, std::move(sub_runs)});
        } else {
          d.notes.push_back(sub.string() + ": no " + std::string(kSummaryFile) +
                            " and no profile_runs/, not a run");
        }
      }
    }
    if (d.points.size() == before)
      throw input_error("inferperf plot: " + p.string() + ": no run found (a run folder holds " +
                        kSummaryFile + "; looked in the folder, its profile_runs/ and its " +
                        "sub-folders)");
  }
  return d;
}

}  // namespace inferperf::plot

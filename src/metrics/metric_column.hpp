// One metric's values for its statistics, exact and compact, and bounded in memory: past the
// accumulator's budget the values held so far go to a scratch file and come back, in order, when
// the statistics are taken (docs/decisions.md, "Metric columns spill to a scratch file").
#pragma once
#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace inferperf::metrics {

// An unlinked file in the temporary folder (TMPDIR, else /tmp) that any number of columns append
// their spilled runs to: one descriptor however many columns and timeslices spill.
class ColumnScratch {
 public:
  ColumnScratch() = default;
  // In `folder` instead of the temporary folder.
  explicit ColumnScratch(std::filesystem::path folder) : folder_(std::move(folder)) {}
  ~ColumnScratch();
  ColumnScratch(const ColumnScratch&) = delete;
  ColumnScratch& operator=(const ColumnScratch&) = delete;
  // Writes `n` bytes after everything appended so far; the offset they start at, or nullopt when
  // the file cannot be made or written (a full disk). A failed append leaves the used length as it
  // was, so the next append writes over its partial bytes.
  std::optional<std::size_t> append(const void* data, std::size_t n);
  // Reads back `n` bytes appended at `offset`; throws std::runtime_error when that fails.
  void read(void* out, std::size_t n, std::size_t offset) const;

 private:
  std::optional<std::filesystem::path> folder_;
  int fd_ = -1;
  std::size_t end_ = 0;
};

// Values are held as 4-byte floats while every value converts to a float and back unchanged (token
// counts, most nanosecond latencies below 16.7 ms), as doubles from the first value that does not.
// They come back in the order pushed, exactly as given, whether they were spilled or not.
class MetricColumn {
 public:
  void reserve(std::size_t n);
  void push(double x);
  std::size_t size() const { return spilled_ + held_values(); }
  bool empty() const { return size() == 0; }
  // Values held in memory (not yet spilled).
  std::size_t held_values() const { return wide_ ? doubles_.size() : floats_.size(); }
  // Appends the values held in memory to `scratch` as one run (in their width) and frees them.
  // False when the scratch file cannot be written: the values then stay in memory, nothing is lost.
  bool spill(const std::shared_ptr<ColumnScratch>& scratch);
  // Calls fn(values, count) for every value in order (spilled runs first), a block at a time:
  // what a pass over a column too large to read back whole uses.
  void visit(const std::function<void(const double*, std::size_t)>& fn) const;
  // Every value, spilled runs first, in order.
  std::vector<double> values() const;
  double sum() const;  // of values(), in order, without copying them
  // Frees the storage (after values() was taken for the statistics).
  void clear();

 private:
  struct Run {
    std::size_t offset;  // in the scratch file
    std::size_t count;
    bool wide;  // doubles, else floats
  };
  // Calls fn(const double* values, std::size_t count) for each spilled run's values, in order.
  template <class Fn>
  void for_each_spilled(Fn&& fn) const;

  bool wide_ = false;
  std::vector<float> floats_;
  std::vector<double> doubles_;
  std::shared_ptr<ColumnScratch> scratch_;  // shared with the accumulator's other columns
  std::vector<Run> runs_;
  std::size_t spilled_ = 0;  // values in runs_
};

}  // namespace inferperf::metrics

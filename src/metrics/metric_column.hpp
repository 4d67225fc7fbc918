// One metric's values for its statistics, exact and compact, and bounded in memory: past the
// accumulator's budget the values held so far go to a scratch file and come back, in order, when
// the statistics are taken (docs/decisions.md, "Metric columns spill to a scratch file").
#pragma once
#include <cstddef>
#include <vector>

namespace inferperf::metrics {

// Values are held as 4-byte floats while every value converts to a float and back unchanged (token
// counts, most nanosecond latencies below 16.7 ms), as doubles from the first value that does not.
// They come back in the order pushed, exactly as given, whether they were spilled or not.
class MetricColumn {
 public:
  MetricColumn() = default;
  ~MetricColumn();
  MetricColumn(MetricColumn&& other) noexcept;
  MetricColumn& operator=(MetricColumn&& other) noexcept;
  MetricColumn(const MetricColumn&) = delete;
  MetricColumn& operator=(const MetricColumn&) = delete;

  void reserve(std::size_t n);
  void push(double x);
  std::size_t size() const { return spilled_ + held_values(); }
  // Values held in memory (not yet spilled).
  std::size_t held_values() const { return wide_ ? doubles_.size() : floats_.size(); }
  bool empty() const { return size() == 0; }
  // Bytes the values held in memory take (not counting spare capacity).
  std::size_t held_bytes() const { return wide_ ? doubles_.size() * 8 : floats_.size() * 4; }
  // Moves the values held in memory to the column's scratch file (an unlinked file in the temporary
  // folder, made on first use) and frees them. False when the file cannot be made or written (a
  // full disk): the values then stay in memory, nothing is lost.
  bool spill();
  // Every value, spilled ones first, in order.
  std::vector<double> values() const;
  double sum() const;  // of values(), in order, without copying them
  // Frees the storage (after values() was taken for the statistics).
  void clear();

 private:
  // Calls fn(const double* values, std::size_t count) for each spilled run, in order.
  template <class Fn>
  void for_each_spilled(Fn&& fn) const;

  bool wide_ = false;
  std::vector<float> floats_;
  std::vector<double> doubles_;
  int fd_ = -1;              // the scratch file, -1 before the first spill
  std::size_t spilled_ = 0;  // values in the scratch file
  std::size_t file_bytes_ = 0;
};

}  // namespace inferperf::metrics

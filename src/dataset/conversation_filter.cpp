// Dropping conversations from a loaded dataset without breaking the spawn links between them:
// the fixed-schedule offset filter and AIPerf 0.11's entry cap both keep root conversations and
// take each one's children along.
#include "dataset/custom_loader.hpp"

namespace inferperf::dataset {

void keep_conversations(Dataset& ds, std::vector<bool> keep) {
  auto& convs = ds.conversations;
  keep.resize(convs.size(), true);
  for (std::size_t i = 0; i < convs.size(); ++i)  // parents come before their children
    if (!keep[i])
      for (const auto& link : convs[i].spawns) keep[link.child] = false;
  std::vector<std::size_t> new_index(convs.size());
  std::size_t n = 0;
  for (std::size_t i = 0; i < convs.size(); ++i) {
    new_index[i] = n;
    if (keep[i]) {
      if (n != i) convs[n] = std::move(convs[i]);
      ++n;
    }
  }
  convs.resize(n);
  for (auto& c : convs)
    for (auto& link : c.spawns) link.child = new_index[link.child];
}

std::size_t keep_first_conversations(Dataset& ds, std::size_t n) {
  const auto& convs = ds.conversations;
  std::vector<bool> keep(convs.size(), true);
  std::size_t roots = 0;
  for (std::size_t i = 0; i < convs.size(); ++i) {
    if (convs[i].child) continue;  // decided by its parent
    keep[i] = roots < n;
    ++roots;
  }
  if (roots > n) keep_conversations(ds, std::move(keep));
  return roots;
}

}  // namespace inferperf::dataset

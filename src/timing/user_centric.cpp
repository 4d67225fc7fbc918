#include "timing/user_centric.hpp"

#include <algorithm>
#include <numeric>

namespace inferperf::timing {

std::vector<InitialUser> initial_users(int num_users, int session_turns) {
  // A session lasts `lifetime` turn gaps (first turn to last). User i is (n - i) / n of a
  // lifetime old, so the n users' remaining turns are spread evenly over 0..lifetime - 1.
  const int n = std::max(1, num_users);
  const int lifetime = std::max(1, session_turns - 1);
  // Start slots come from the users' ages modulo n; when n and lifetime share a factor those
  // collide, so the slots are then walked with the smallest step coprime with n instead.
  int step = 0;
  if (std::gcd(n, lifetime) > 1) {
    step = 1;
    for (int s = 2; s < n; ++s) {
      if (std::gcd(n, s) == 1) {
        step = s;
        break;
      }
    }
  }
  std::vector<InitialUser> users;
  users.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    const long long age = static_cast<long long>(n - i) * lifetime;
    const int turns_left = lifetime - static_cast<int>(age / n);
    if (turns_left <= 0) continue;  // finished before t = 0
    const int slot = step > 0 ? static_cast<int>((static_cast<long long>(i) * step) % n)
                              : static_cast<int>(age % n);
    users.push_back({n - slot, turns_left});
  }
  users.push_back({0, 0});
  return users;
}

}  // namespace inferperf::timing

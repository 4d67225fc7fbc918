// User-centric rate (docs/architecture.md, Credit flow): where the simulated users stand when the
// run starts. Instead of every user starting fresh at t = 0 (a cold cache and a ramp), users are
// given staggered ages so the run begins in steady state: some are about to leave, others have just
// arrived.
#pragma once
#include <vector>

namespace inferperf::timing {

struct InitialUser {
  int order = 0;  // fires at order / rate seconds after the phase starts
  int turns = 0;  // turns left to send; 0 = every turn of its conversation (a new user)
};

// One entry per user that still has turns to send, in user order, plus the new user who
// replaces the one whose session ended just before t = 0 (order 0, all turns).
std::vector<InitialUser> initial_users(int num_users, int session_turns);

}  // namespace inferperf::timing

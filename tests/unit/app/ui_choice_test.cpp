#include <gtest/gtest.h>

#include "app/profile/live_view.hpp"

namespace inferperf::app {
namespace {

using config::UiType;

// The dashboard asked for on a pipe falls back to simple (no escape codes in the pipe).
TEST(ChooseUi, AnExplicitChoiceWins) {
  for (bool tty : {false, true}) {
    for (bool verbose : {false, true}) {
      EXPECT_EQ(choose_ui(true, UiType::kDashboard, verbose, tty),
                tty ? UiType::kDashboard : UiType::kSimple);
      EXPECT_EQ(choose_ui(true, UiType::kSimple, verbose, tty), UiType::kSimple);
      EXPECT_EQ(choose_ui(true, UiType::kNone, verbose, tty), UiType::kNone);
    }
  }
}

TEST(ChooseUi, DefaultsFollowTheTerminalAndVerbosity) {
  EXPECT_EQ(choose_ui(false, UiType::kNone, false, false), UiType::kNone);
  EXPECT_EQ(choose_ui(false, UiType::kNone, true, false), UiType::kNone);
  EXPECT_EQ(choose_ui(false, UiType::kNone, true, true), UiType::kSimple);
  EXPECT_EQ(choose_ui(false, UiType::kNone, false, true), UiType::kDashboard);
}

}  // namespace
}  // namespace inferperf::app

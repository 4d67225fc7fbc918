// The live views with the real binaries. The dashboard runs inside a detached tmux session (a
// real terminal the test can read back with capture-pane and type into with send-keys); a run
// whose output goes to pipes must print no terminal escape codes at all. RUN_SERIAL: the screen
// is polled against wall-clock deadlines.
#include <gtest/gtest.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <array>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <regex>
#include <string>
#include <thread>

#include "process.hpp"

namespace inferperf::testing {
namespace {

using namespace std::chrono_literals;

// Runs a shell command and returns its stdout.
std::string shell(const std::string& cmd) {
  std::string out;
  std::FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return out;
  std::array<char, 4096> buf{};
  std::size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
  ::pclose(p);
  return out;
}

bool have_tmux() {
  return std::system("command -v tmux >/dev/null 2>&1") == 0;
}

// One tmux server of its own (-L, no config file), killed at the end whatever happened.
class Tmux {
 public:
  explicit Tmux(const std::string& command)
      : socket_("inferperf-ui-test-" + std::to_string(::getpid())) {
    shell(base() + " new-session -d -s ui -x 160 -y 50 '" + command + "'");
  }
  ~Tmux() { shell(base() + " kill-server 2>/dev/null"); }
  std::string capture() const { return shell(base() + " capture-pane -p -t ui"); }
  void keys(const std::string& k) const { shell(base() + " send-keys -t ui " + k); }
  std::string display(const std::string& format) const {
    std::string v = shell(base() + " display -p -t ui '" + format + "'");
    while (!v.empty() && (v.back() == '\n' || v.back() == '\r')) v.pop_back();
    return v;
  }
  // Polls the pane until `done(screen)` holds or `timeout` passes; returns the last screen.
  template <typename Pred>
  std::string wait_for(Pred done, std::chrono::seconds timeout) const {
    const auto end = std::chrono::steady_clock::now() + timeout;
    std::string screen;
    while (std::chrono::steady_clock::now() < end) {
      screen = capture();
      if (done(screen)) return screen;
      std::this_thread::sleep_for(100ms);
    }
    return screen;
  }
  // The screen once two captures 300 ms apart agree: tmux may take a frame's bytes in more than
  // one read, so the first capture showing a new title can still hold old counts further down
  // (seen under TSan, where frames are written slowly).
  std::string settle(std::string screen) const {
    const auto end = std::chrono::steady_clock::now() + 10s;
    while (std::chrono::steady_clock::now() < end) {
      std::this_thread::sleep_for(300ms);
      std::string again = capture();
      if (again == screen) break;
      screen = std::move(again);
    }
    return screen;
  }

 private:
  std::string base() const { return "tmux -f /dev/null -L " + socket_; }
  std::string socket_;
};

// The number after `label ` on the [profiling] line of a captured screen; -1 when absent.
long long on_screen(const std::string& screen, const std::string& label) {
  std::smatch m;
  const std::regex line_re("\\[profiling\\][^\\n]*");
  if (!std::regex_search(screen, m, line_re)) return -1;
  const std::string line = m.str();
  std::smatch v;
  if (!std::regex_search(line, v, std::regex(label + " ([0-9]+)"))) return -1;
  return std::stoll(v[1].str());
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// What a shell line in the pane wrote to `path`, once it is whole: the redirection creates the
// file before the command writes it, so existing is not enough. Empty after `timeout`.
std::string wait_for_written(const std::string& path, std::chrono::seconds timeout) {
  const auto end = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < end) {
    if (std::filesystem::exists(path)) {
      std::string text = read_file(path);
      if (!text.empty() && text.back() == '\n') return text;
    }
    std::this_thread::sleep_for(100ms);
  }
  return "";
}

std::string dashboard_command(const MockServerProcess& mock, const std::string& dir,
                              const std::string& load) {
  // The hermetic settings run_process() gives its children, a long last frame (the test closes
  // it with q), and the shell kept alive after the exit so the restored screen can be read.
  return std::string(
             "env AIPERF_SERVER_METRICS_COLLECTION_FLUSH_PERIOD=0 "
             "AIPERF_GPU_DEFAULT_DCGM_ENDPOINTS= INFERPERF_UI_LINGER_S=120 ") +
         INFERPERF_BIN + " profile -m mock-model -u " + mock.url() +
         " --streaming --isl 16 --osl 20 " + load + " --artifact-dir " + dir +
         " --ui-type dashboard; echo exit=$? > " + dir + "/exit_code; sleep 120";
}

TEST(Ui, DashboardShowsTheRunItsCountsMatchTheExportAndTheTerminalIsRestored) {
  if (!have_tmux()) GTEST_SKIP() << "tmux is not installed";
  MockServerProcess mock({"--ttft", "5", "--itl", "2", "--fault-rate", "10", "--random-seed", "7"});
  const std::string dir = make_temp_dir("ip-ui-dash-");
  Tmux tmux(dashboard_command(mock, dir, "--concurrency 4 --request-count 400"));

  // Every pane is there while the run goes.
  const std::string running = tmux.wait_for(
      [](const std::string& s) {
        return contains(s, "[profiling]") && contains(s, "Progress") &&
               contains(s, "Live metrics") && contains(s, "approximate") &&
               contains(s, "Time to First Token") && contains(s, "Inter Token Latency") &&
               contains(s, "Request Latency") && contains(s, "Throughput") &&
               contains(s, "Errors by type") && contains(s, "Client health") &&
               contains(s, "loop lag p99") && contains(s, "schedule lag p99") &&
               contains(s, "Telemetry") && contains(s, "Log");
      },
      60s);
  ASSERT_TRUE(contains(running, "Client health") && contains(running, "approximate")) << running;
  EXPECT_EQ(tmux.display("#{alternate_on}"), "1");

  // The last frame, kept up until q: the final counts (waited for whole: a capture can catch a
  // frame half drawn, its title new and its counts old).
  const std::string last = tmux.settle(tmux.wait_for(
      [](const std::string& s) {
        return contains(s, "[finished]") &&
               on_screen(s, "completed") + on_screen(s, "errors") == 400;
      },
      120s));
  ASSERT_TRUE(contains(last, "[finished]")) << last;
  const long long completed = on_screen(last, "completed");
  const long long errors = on_screen(last, "errors");
  EXPECT_TRUE(contains(last, "sent 400/400")) << last;
  tmux.keys("q");

  EXPECT_EQ(wait_for_written(dir + "/exit_code", 60s), "exit=0\n") << tmux.capture();

  // Back on the normal screen, where the report was printed.
  EXPECT_EQ(tmux.display("#{alternate_on}"), "0");
  const std::string after = tmux.capture();
  EXPECT_TRUE(contains(after, "JSON Export")) << after;
  EXPECT_FALSE(contains(after, "Live metrics")) << after;

  const auto j = nlohmann::json::parse(read_file(dir + "/profile_export_aiperf.json"));
  EXPECT_EQ(completed, summary_count(j, "request_count")) << last;
  EXPECT_EQ(errors, summary_count(j, "error_request_count")) << last;
  EXPECT_EQ(completed + errors, 400);
  EXPECT_GT(errors, 0) << "the mock injects faults; the errors pane and count are exercised";
  EXPECT_TRUE(std::filesystem::exists(dir + "/inferperf_records.jsonl"));
  EXPECT_TRUE(std::filesystem::exists(dir + "/profile_export.jsonl"));
  // The log file is written as without the dashboard.
  EXPECT_TRUE(contains(read_file(dir + "/logs/inferperf.log"), "profiling: concurrency 4"));
}

TEST(Ui, QStopsLikeTheFirstInterruptAndASecondQCancels) {
  if (!have_tmux()) GTEST_SKIP() << "tmux is not installed";
  // Replies of about 2 s: after the first q the requests in flight would take that long (within
  // the 30 s grace); the second q cancels them at once.
  MockServerProcess mock({"--ttft", "5", "--itl", "100"});
  const std::string dir = make_temp_dir("ip-ui-quit-");
  Tmux tmux(dashboard_command(mock, dir,
                              "--concurrency 2 --request-count 1000000 --num-dataset-entries 100"));
  const std::string running =
      tmux.wait_for([](const std::string& s) { return on_screen(s, "completed") >= 2; }, 60s);
  ASSERT_GE(on_screen(running, "completed"), 2) << running;
  tmux.keys("q");
  const std::string stopping = tmux.wait_for(
      [](const std::string& s) {
        return contains(s, "[stopping]") && contains(s, "q pressed: no more requests are sent");
      },
      30s);
  EXPECT_TRUE(contains(stopping, "[stopping]")) << stopping;
  EXPECT_TRUE(contains(stopping, "q: cancel requests in flight")) << stopping;
  const auto second_q = std::chrono::steady_clock::now();
  tmux.keys("q");
  std::string last =
      tmux.wait_for([](const std::string& s) { return contains(s, "[finished]"); }, 60s);
  const auto finished_at = std::chrono::steady_clock::now();
  ASSERT_TRUE(contains(last, "[finished]")) << last;
  last = tmux.settle(last);
  // Cancelled, not waited for: well under one reply's 2 s (sanitizer builds are too slow to say).
  if (!INFERPERF_SANITIZER_BUILD) {
    EXPECT_LT(finished_at - second_q, 1800ms);
  }
  EXPECT_TRUE(contains(last, "q pressed again: cancelling the requests in flight")) << last;
  const long long completed = on_screen(last, "completed");
  const long long errors = on_screen(last, "errors");
  tmux.keys("q");  // closes the last frame
  // As Ctrl-C.
  EXPECT_EQ(wait_for_written(dir + "/exit_code", 60s), "exit=130\n") << tmux.capture();
  EXPECT_EQ(tmux.display("#{alternate_on}"), "0");
  const auto j = nlohmann::json::parse(read_file(dir + "/profile_export_aiperf.json"));
  EXPECT_EQ(j["was_cancelled"], true);
  EXPECT_EQ(summary_count(j, "request_count"), completed);
  EXPECT_EQ(summary_count(j, "error_request_count"), errors);
  EXPECT_GE(completed, 2);
  EXPECT_GE(errors, 1) << "the requests in flight at the second q are cancelled";
}

TEST(Ui, ACrashStillRestoresTheTerminal) {
  if (!have_tmux()) GTEST_SKIP() << "tmux is not installed";
  MockServerProcess mock({"--ttft", "5", "--itl", "2"});
  const std::string dir = make_temp_dir("ip-ui-crash-");
  // In the background to learn its pid (stdin given back: a background job gets /dev/null);
  // after it dies, the shell reports whether the terminal echoes again.
  Tmux tmux(std::string("env AIPERF_SERVER_METRICS_COLLECTION_FLUSH_PERIOD=0 "
                        "AIPERF_GPU_DEFAULT_DCGM_ENDPOINTS= ") +
            INFERPERF_BIN + " profile -m mock-model -u " + mock.url() +
            " --streaming --isl 16 --osl 20 --concurrency 2 --request-count 1000000 "
            "--num-dataset-entries 100 "
            "--artifact-dir " +
            dir + " --ui-type dashboard </dev/tty & echo $! > " + dir +
            "/pid; wait $!; echo exit=$? > " + dir + "/exit_code; stty -a </dev/tty > " + dir +
            "/stty; sleep 120");
  const std::string running =
      tmux.wait_for([](const std::string& s) { return on_screen(s, "completed") >= 5; }, 60s);
  ASSERT_GE(on_screen(running, "completed"), 5) << running;
  ASSERT_EQ(tmux.display("#{alternate_on}"), "1");
  const pid_t pid = std::stoi(read_file(dir + "/pid"));
  ASSERT_EQ(::kill(pid, SIGSEGV), 0);
  // stty runs after the exit code is written: once its output is whole, both are.
  const std::string modes = wait_for_written(dir + "/stty", 30s);
  EXPECT_EQ(read_file(dir + "/exit_code"), "exit=139\n");  // 128 + SIGSEGV: the default action
  EXPECT_EQ(tmux.display("#{alternate_on}"), "0");
  EXPECT_TRUE(std::regex_search(modes, std::regex("(^|\\s)echo(\\s|$)"))) << modes;
  EXPECT_TRUE(std::regex_search(modes, std::regex("(^|\\s)icanon(\\s|$)"))) << modes;
}

TEST(Ui, OutputToPipesHasNoEscapeCodes) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-ui-pipe-");
  std::vector<std::string> base = {INFERPERF_BIN, "profile",         "-m",          "mock-model",
                                   "-u",          mock.url(),        "--streaming", "--isl",
                                   "16",          "--osl",           "10",          "--concurrency",
                                   "4",           "--request-count", "100"};
  // The default (no --ui-type) without a terminal: no live view at all.
  auto args = base;
  args.insert(args.end(), {"--artifact-dir", dir + "/default"});
  auto r = run_process(args, 120s);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("[profiling] "), std::string::npos) << r.out;
  // -v would pick simple on a terminal; not here.
  args = base;
  args.insert(args.end(), {"-v", "--artifact-dir", dir + "/verbose"});
  r = run_process(args, 120s);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << r.out;
  // simple, forced: whole lines, no redraws, the last one says done.
  args = base;
  args.insert(args.end(), {"--ui-type", "simple", "--artifact-dir", dir + "/simple"});
  r = run_process(args, 120s);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find('\r'), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[profiling] [####################] 100%  sent 100/100  completed 100  "
                       "in flight 0  errors 0"),
            std::string::npos)
      << r.out;
  // The dashboard asked for on a pipe falls back to simple: still no escape codes.
  args = base;
  args.insert(args.end(), {"--ui-type", "dashboard", "--artifact-dir", dir + "/dashboard"});
  r = run_process(args, 120s);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("needs a terminal on stdout"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("completed 100  in flight 0  errors 0"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace inferperf::testing

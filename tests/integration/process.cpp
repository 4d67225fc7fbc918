#include "process.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace inferperf::testing {

namespace {

pid_t spawn(const std::vector<std::string>& argv, int out_fd, const std::string& cwd,
            const std::vector<std::string>& env) {
  pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    setpgid(0, 0);
    dup2(out_fd, STDOUT_FILENO);
    dup2(out_fd, STDERR_FILENO);
    int devnull = open("/dev/null", O_RDONLY);
    dup2(devnull, STDIN_FILENO);
    if (!cwd.empty() && chdir(cwd.c_str()) != 0) _exit(126);
    // Hermetic runs: no 2 s server-metrics flush, no probing of a DCGM exporter that may happen
    // to listen on this machine's default ports. Tests that need them pass `env`.
    setenv("AIPERF_SERVER_METRICS_COLLECTION_FLUSH_PERIOD", "0", 0);
    setenv("AIPERF_GPU_DEFAULT_DCGM_ENDPOINTS", "", 0);
    for (const auto& kv : env) {
      const auto eq = kv.find('=');
      if (eq != std::string::npos) setenv(kv.substr(0, eq).c_str(), kv.substr(eq + 1).c_str(), 1);
    }
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  return pid;
}

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv, std::chrono::seconds timeout,
                          const std::string& cwd, const std::vector<std::string>& env) {
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
  // Sanitizer builds run everything several times slower (TSan up to ~20x on the tokenizer).
  if (INFERPERF_SANITIZER_BUILD) timeout *= 5;
  auto t0 = std::chrono::steady_clock::now();
  pid_t pid = spawn(argv, fds[1], cwd, env);
  close(fds[1]);
  ProcessResult r;
  char buf[65536];
  auto deadline = t0 + timeout;
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      kill(-pid, SIGKILL);
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    int n = poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (n > 0) {
      ssize_t got = read(fds[0], buf, sizeof buf);
      if (got <= 0) break;
      r.out.append(buf, static_cast<std::size_t>(got));
    }
  }
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (WIFEXITED(status))
    r.exit_code = WEXITSTATUS(status);
  else if (WIFSIGNALED(status))
    r.exit_code = 128 + WTERMSIG(status);
  return r;
}

MockServerProcess::MockServerProcess(const std::vector<std::string>& flags, int port) {
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
  std::vector<std::string> argv = {INFERPERF_MOCK_SERVER_BIN, "--port", std::to_string(port)};
  argv.insert(argv.end(), flags.begin(), flags.end());
  pid_ = spawn(argv, fds[1], "", {});
  close(fds[1]);
  std::string seen;
  char c;
  // The mock loads its tokenizer before it listens: many times slower under sanitizers.
  auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(INFERPERF_SANITIZER_BUILD ? 100 : 20);
  while (std::chrono::steady_clock::now() < deadline) {
    pollfd p{fds[0], POLLIN, 0};
    if (poll(&p, 1, 200) <= 0) continue;
    if (read(fds[0], &c, 1) != 1) break;
    if (c != '\n') {
      seen.push_back(c);
      continue;
    }
    const std::string marker = "inferperf-mock-server listening on ";
    if (seen.rfind(marker + "unix:", 0) == 0) {
      unix_socket_ = seen.substr(marker.size() + 5);
      break;
    }
    if (seen.rfind(marker, 0) == 0) {
      port_ = std::stoi(seen.substr(seen.rfind(':') + 1));
      break;
    }
    seen.clear();
  }
  // Keep draining the server's output in the background so it never blocks on a full pipe.
  std::thread([fd = fds[0]] {
    char b[4096];
    while (read(fd, b, sizeof b) > 0) {
    }
    close(fd);
  }).detach();
  if (port_ == 0 && unix_socket_.empty()) {
    kill(-pid_, SIGKILL);  // no destructor runs for a constructor that throws
    int status = 0;
    waitpid(pid_, &status, 0);
    throw std::runtime_error("mock server did not report its port: " + seen);
  }
}

MockServerProcess::~MockServerProcess() {
  if (pid_ > 0) {
    kill(pid_, SIGTERM);
    int status = 0;
    for (int i = 0; i < 50; ++i) {
      if (waitpid(pid_, &status, WNOHANG) == pid_) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    kill(-pid_, SIGKILL);
    waitpid(pid_, &status, 0);
  }
}

void MockServerProcess::kill_now() {
  if (pid_ <= 0) return;
  kill(-pid_, SIGKILL);
  int status = 0;
  waitpid(pid_, &status, 0);
  pid_ = -1;
}

BackgroundProcess::BackgroundProcess(const std::vector<std::string>& argv,
                                     const std::string& log_path) {
  const int fd = open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) throw std::runtime_error("cannot open " + log_path);
  pid_ = spawn(argv, fd, "", {});
  close(fd);
}

BackgroundProcess::~BackgroundProcess() {
  if (pid_ > 0) {
    kill(-pid_, SIGKILL);
    int status = 0;
    waitpid(pid_, &status, 0);
  }
}

void BackgroundProcess::signal(int sig) const {
  if (pid_ > 0) kill(pid_, sig);
}

int BackgroundProcess::wait(std::chrono::milliseconds timeout) {
  if (pid_ <= 0) return -1;
  if (INFERPERF_SANITIZER_BUILD) timeout *= 5;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  int status = 0;
  for (;;) {
    if (waitpid(pid_, &status, WNOHANG) == pid_) break;
    if (std::chrono::steady_clock::now() >= deadline) return -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  pid_ = -1;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : -1;
}

long long MockServerProcess::metric(const std::string& name) const {
  auto reply = http_get(port_, "/metrics");
  std::istringstream in(reply.body);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(name + " ", 0) == 0) return std::stoll(line.substr(name.size() + 1));
  }
  throw std::runtime_error("metric not found: " + name);
}

namespace {
HttpReply http_request(int port, boost::beast::http::verb verb, const std::string& target,
                       const std::string& body, const HttpHeaders& headers) {
  namespace beast = boost::beast;
  namespace http = beast::http;
  boost::asio::io_context io;
  beast::tcp_stream stream(io);
  stream.expires_after(std::chrono::seconds(10));
  stream.connect(boost::asio::ip::tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"),
                                                static_cast<unsigned short>(port)));
  http::request<http::string_body> req{verb, target, 11};
  req.set(http::field::host, "127.0.0.1");
  if (verb == http::verb::post) req.set(http::field::content_type, "application/json");
  for (const auto& [name, value] : headers) req.set(name, value);
  req.body() = body;
  req.prepare_payload();
  http::write(stream, req);
  beast::flat_buffer buf;
  http::response<http::string_body> res;
  http::read(stream, buf, res);
  return HttpReply{static_cast<int>(res.result_int()), res.body()};
}
}  // namespace

HttpReply http_get(int port, const std::string& target) {
  return http_request(port, boost::beast::http::verb::get, target, "", {});
}

HttpReply http_post(int port, const std::string& target, const std::string& json_body,
                    const HttpHeaders& headers) {
  return http_request(port, boost::beast::http::verb::post, target, json_body, headers);
}

std::string make_temp_dir(const std::string& prefix) {
  std::string tmpl = (std::filesystem::temp_directory_path() / (prefix + "XXXXXX")).string();
  if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
  return tmpl;
}

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::vector<std::string> read_lines(const std::string& path) {
  std::vector<std::string> out;
  std::istringstream in(read_file(path));
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(std::move(line));
  return out;
}

std::vector<nlohmann::json> read_jsonl(const std::string& path) {
  std::vector<nlohmann::json> out;
  for (const auto& line : read_lines(path)) out.push_back(nlohmann::json::parse(line));
  return out;
}

std::vector<std::string> small_profile_args(const std::string& inferperf_bin,
                                            const std::string& url, const std::string& dir,
                                            const std::vector<std::string>& more) {
  std::vector<std::string> args = {inferperf_bin,
                                   "profile",
                                   "-m",
                                   "mock-model",
                                   "-u",
                                   url,
                                   "--isl",
                                   "16",
                                   "--osl",
                                   "8",
                                   "--extra-inputs",
                                   "ignore_eos:true",
                                   "--artifact-dir",
                                   dir};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

std::vector<std::string> mock_profile_args(const std::string& inferperf_bin,
                                           const MockServerProcess& mock, const std::string& dir,
                                           const std::vector<std::string>& more) {
  return small_profile_args(inferperf_bin, mock.url(), dir, more);
}

int listen_loopback(int& port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(static_cast<std::uint16_t>(port));
  if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(fd, 16) != 0) {
    ::close(fd);
    return -1;
  }
  socklen_t len = sizeof a;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  port = ntohs(a.sin_port);
  return fd;
}

int unused_loopback_port() {
  int port = 0;
  ::close(listen_loopback(port));
  return port;
}

FakeHttpServer::FakeHttpServer(std::function<FakeHttpReply(const FakeHttpRequest&)> answer)
    : answer_(std::move(answer)), fd_(listen_loopback(port_)) {
  thread_ = std::thread([this] { run(); });
}

FakeHttpServer::~FakeHttpServer() {
  stop_ = true;
  thread_.join();
  ::close(fd_);
}

std::vector<FakeHttpRequest> FakeHttpServer::requests() const {
  std::lock_guard lock(mu_);
  return requests_;
}

void FakeHttpServer::run() {
  while (!stop_) {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, 50) <= 0) continue;
    const int c = ::accept(fd_, nullptr, nullptr);
    if (c < 0) continue;
    serve(c);
    ::close(c);
  }
}

void FakeHttpServer::serve(int c) {
  std::string in;
  char buf[65536];
  std::size_t need = std::string::npos;
  for (;;) {
    const auto head_end = in.find("\r\n\r\n");
    if (head_end != std::string::npos && need == std::string::npos) {
      std::string head = in.substr(0, head_end);
      for (auto& ch : head) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      const auto at = head.find("content-length: ");
      need = head_end + 4 + (at == std::string::npos ? 0 : std::stoul(head.substr(at + 16)));
    }
    if (need != std::string::npos && in.size() >= need) break;
    const ssize_t n = ::recv(c, buf, sizeof buf, 0);
    if (n <= 0) return;
    in.append(buf, static_cast<std::size_t>(n));
  }
  const std::string line = in.substr(0, in.find("\r\n"));
  FakeHttpRequest req;
  req.method = line.substr(0, line.find(' '));
  req.target = line.substr(line.find(' ') + 1, line.rfind(' ') - line.find(' ') - 1);
  req.body = in.substr(in.find("\r\n\r\n") + 4);
  const FakeHttpReply reply = answer_(req);
  {
    std::lock_guard lock(mu_);
    requests_.push_back(std::move(req));
  }
  const std::string text =
      "HTTP/1.1 " + std::to_string(reply.status) + (reply.status == 200 ? " OK" : " Error") +
      "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(reply.body.size()) +
      "\r\nConnection: close\r\n\r\n" + reply.body;
  ::send(c, text.data(), text.size(), MSG_NOSIGNAL);
}

std::vector<std::string> server_counted_profile_args(const MockServerProcess& mock,
                                                     const std::string& dir,
                                                     const std::vector<std::string>& extra) {
  std::vector<std::string> a = {INFERPERF_BIN,
                                "profile",
                                "-m",
                                "mock-model",
                                "-u",
                                mock.url(),
                                "--artifact-dir",
                                dir,
                                "--isl",
                                "16",
                                "--osl",
                                "8",
                                "--streaming",
                                "--use-server-token-count"};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

bool MockServerProcess::wait_for_requests(long long n, std::chrono::seconds limit) const {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    if (metric("inferperf_mock_requests_total") >= n) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

nlohmann::json load_summary(const std::string& dir) {
  return nlohmann::json::parse(read_file(dir + "/profile_export_aiperf.json"));
}

long long summary_count(const nlohmann::json& summary, const char* key) {
  return summary.contains(key) ? summary[key]["avg"].get<long long>() : 0;
}

ProcessResult make_test_certificates(const std::string& dir, const std::string& ca_name) {
  const std::string script =
      "set -e; cd '" + dir +
      "'; "
      "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes "
      "-keyout ca.key -out ca.pem -days 2 -subj '/CN=" +
      ca_name +
      "' "
      "-addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign; "
      "openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes "
      "-keyout server.key -out server.csr -subj '/CN=localhost'; "
      "printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\\nbasicConstraints=CA:FALSE\\n"
      "extendedKeyUsage=serverAuth\\n' > ext.cnf; "
      "openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial "
      "-out server.pem -days 2 -extfile ext.cnf";
  return run_process({"/bin/sh", "-c", script}, std::chrono::seconds(60));
}

}  // namespace inferperf::testing

// The Kubernetes manifests under deploy/kubernetes/ against the binary and the Dockerfile: every
// inferperf command they hold passes `--dry-run` with the pod's environment (each shard index of
// the Indexed Job), the Job's shape is what sharding needs, and the pods run as the image's user.
// Placeholders are filled as the walk-through fills them, then `$(VAR)` references are expanded
// from the container's env as the kubelet does.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "deploy_files.hpp"

namespace inferperf::deploy_test {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

const json* at(const json& j, const std::string& pointer) {
  const json::json_pointer p(pointer);
  return j.contains(p) ? &j.at(p) : nullptr;
}

std::string str_at(const json& j, const std::string& pointer) {
  const json* v = at(j, pointer);
  return v && v->is_string() ? v->get<std::string>() : "";
}

struct Pod {
  const YamlDoc* doc = nullptr;
  std::string kind, name;
  std::string spec;  // pointer to the pod spec
  const json& spec_json() const { return doc->value.at(json::json_pointer(spec)); }
  std::string where(const std::string& below = "") const { return doc->where(spec + below); }
};

struct Container {
  Pod pod;
  std::string ptr;  // pointer to the container
  const json& value() const { return pod.doc->value.at(json::json_pointer(ptr)); }
  std::string where(const std::string& below = "") const { return pod.doc->where(ptr + below); }
  std::vector<std::string> strings(const std::string& key) const {
    std::vector<std::string> out;
    if (const json* a = at(value(), "/" + key); a && a->is_array())
      for (const auto& x : *a) out.push_back(x.is_string() ? x.get<std::string>() : x.dump());
    return out;
  }
};

std::vector<Pod> pods() {
  std::vector<Pod> out;
  for (const auto& d : manifests().docs) {
    const std::string kind = str_at(d.value, "/kind");
    const std::string name = str_at(d.value, "/metadata/name");
    if (kind == "Job") out.push_back({&d, kind, name, "/spec/template/spec"});
    if (kind == "Pod") out.push_back({&d, kind, name, "/spec"});
  }
  return out;
}

std::vector<Container> containers(const Pod& p) {
  std::vector<Container> out;
  for (const char* list : {"initContainers", "containers"}) {
    const json* cs = at(p.doc->value, p.spec + "/" + list);
    if (!cs || !cs->is_array()) continue;
    for (std::size_t i = 0; i < cs->size(); ++i)
      out.push_back({p, p.spec + "/" + list + "/" + std::to_string(i)});
  }
  return out;
}

// The image's entrypoint (Dockerfile), which a container without `command` runs.
std::vector<std::string> image_entrypoint() {
  const auto e = final_entrypoint(dockerfile());
  return e ? e->argv : std::vector<std::string>{};
}

// An inferperf container: its command is the image's entrypoint (or absent, which means the same).
bool runs_inferperf(const Container& c) {
  const auto cmd = c.strings("command");
  return cmd.empty() || cmd == image_entrypoint();
}

std::string role(const Container& c) {
  const auto args = c.strings("args");
  return runs_inferperf(c) && !args.empty() ? args[0] : "";
}

std::vector<Container> containers_with_role(const std::string& r) {
  std::vector<Container> out;
  for (const auto& p : pods())
    for (const auto& c : containers(p))
      if (role(c) == r) out.push_back(c);
  return out;
}

// Kubernetes' $(VAR) expansion in env values, command and args: a defined VAR is replaced, an
// undefined one left as written, $$ is one $.
std::string expand(const std::string& s, const std::map<std::string, std::string>& env) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    if (s[i] == '$' && i + 1 < s.size() && s[i + 1] == '$') {
      out += '$';
      i += 2;
      continue;
    }
    if (s[i] == '$' && i + 1 < s.size() && s[i + 1] == '(') {
      const auto close = s.find(')', i + 2);
      if (close != std::string::npos) {
        const std::string name = s.substr(i + 2, close - i - 2);
        if (auto it = env.find(name); it != env.end()) {
          out += it->second;
          i = close + 1;
          continue;
        }
      }
    }
    out += s[i++];
  }
  return out;
}

// The container's environment as the kubelet builds it: env entries in order (each may refer to
// the ones before it), then JOB_COMPLETION_INDEX, which the Job controller adds to every
// container of an Indexed Job's pods.
std::map<std::string, std::string> pod_env(const Container& c, std::optional<int> index) {
  std::map<std::string, std::string> env;
  if (const json* e = at(c.value(), "/env"); e && e->is_array()) {
    for (const auto& kv : *e) {
      const std::string name = kv.value("name", "");
      if (kv.contains("value") && kv["value"].is_string())
        env[name] = expand(kv["value"].get<std::string>(), env);
      else
        env[name] = "from-" + name;  // valueFrom: some value the cluster gives
    }
  }
  if (index) env["JOB_COMPLETION_INDEX"] = std::to_string(*index);
  return env;
}

std::vector<std::string> expanded_args(const Container& c,
                                       const std::map<std::string, std::string>& env) {
  std::vector<std::string> out;
  for (const auto& a : c.strings("args")) out.push_back(expand(a, env));
  return out;
}

// The value of an option (--flag VALUE or --flag=VALUE) and its index in args.
std::optional<std::pair<std::string, std::size_t>> option(const std::vector<std::string>& args,
                                                          const std::set<std::string>& names) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (names.count(args[i]) && i + 1 < args.size()) return std::make_pair(args[i + 1], i + 1);
    const auto eq = args[i].find('=');
    if (eq != std::string::npos && names.count(args[i].substr(0, eq)))
      return std::make_pair(args[i].substr(eq + 1), i);
  }
  return std::nullopt;
}

const std::set<std::string> kArtifactDir = {"--artifact-dir", "--output-artifact-dir"};

// Is `path` the mount path or inside it?
bool under(const std::string& path, const std::string& mount) {
  const std::string m =
      mount.size() > 1 && mount.back() == '/' ? mount.substr(0, mount.size() - 1) : mount;
  return path == m || path.rfind(m + "/", 0) == 0;
}

struct ProcessResult {
  int exit_code = -1;
  std::string out;
};

// Runs argv with exactly `env` (plus PATH and a scratch HOME), as a pod would: nothing of the
// test's own environment leaks in. Killed after 60 s.
ProcessResult run(const std::vector<std::string>& argv,
                  const std::map<std::string, std::string>& env) {
  // One scratch HOME and working folder per test process, removed when it exits.
  struct ScratchHome {
    std::string path;
    ScratchHome() {
      path = (fs::temp_directory_path() / "inferperf-deploy-XXXXXX").string();
      if (!mkdtemp(path.data())) throw std::runtime_error("mkdtemp failed");
    }
    ~ScratchHome() {
      std::error_code ec;
      fs::remove_all(path, ec);
    }
  };
  static const ScratchHome scratch;
  const std::string& home = scratch.path;
  std::vector<std::string> envs = {
      "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME=" + home};
  for (const auto& [k, v] : env) envs.push_back(k + "=" + v);
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    setpgid(0, 0);
    dup2(fds[1], STDOUT_FILENO);
    dup2(fds[1], STDERR_FILENO);
    const int devnull = open("/dev/null", O_RDONLY);
    dup2(devnull, STDIN_FILENO);
    if (chdir(home.c_str()) != 0) _exit(126);
    std::vector<char*> a, e;
    for (const auto& s : argv) a.push_back(const_cast<char*>(s.c_str()));
    for (const auto& s : envs) e.push_back(const_cast<char*>(s.c_str()));
    a.push_back(nullptr);
    e.push_back(nullptr);
    execve(a[0], a.data(), e.data());
    _exit(127);
  }
  close(fds[1]);
  ProcessResult r;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  char buf[16384];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          deadline - std::chrono::steady_clock::now())
                          .count();
    if (left <= 0) {
      kill(-pid, SIGKILL);
      r.out += "\n[killed after 60 s]";
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(std::min<long long>(left, 1000))) > 0) {
      const ssize_t got = read(fds[0], buf, sizeof buf);
      if (got <= 0) break;
      r.out.append(buf, static_cast<std::size_t>(got));
    }
  }
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : " ") + x;
  return s;
}

std::optional<long> whole_number(const std::string& s) {
  if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  return std::stol(s);
}

std::optional<long> integer_at(const json& j, const std::string& pointer) {
  const json* v = at(j, pointer);
  if (!v || !v->is_number_integer()) return std::nullopt;
  return v->get<long>();
}

// The loadgen Job: the one Job whose container runs `inferperf profile`.
struct Loadgen {
  Container c;
  long shards = 0;
};
std::optional<Loadgen> loadgen() {
  const auto cs = containers_with_role("profile");
  if (cs.size() != 1 || cs[0].pod.kind != "Job") return std::nullopt;
  Loadgen l{cs[0], 0};
  const auto env = pod_env(l.c, 0);
  if (auto it = env.find("INFERPERF_SHARD_COUNT"); it != env.end())
    l.shards = whole_number(it->second).value_or(0);
  return l;
}

class Manifests : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const auto& e : manifests().errors) ADD_FAILURE() << e;
    if (!manifests().errors.empty()) GTEST_SKIP() << "the manifests did not load";
  }
};

TEST_F(Manifests, AreInTheDocumentedSubsetAndSayWhichItIs) {
  for (const auto& f : manifests().files) {
    const std::string text = read_text(source_path(f));
    EXPECT_NE(text.substr(0, 2000).find("Parseable subset"), std::string::npos)
        << f << ":1: the header comment must state the parseable subset (see the other manifests)";
  }
  for (const auto& d : manifests().docs) {
    EXPECT_FALSE(str_at(d.value, "/apiVersion").empty()) << d.where("") << ": no apiVersion";
    EXPECT_FALSE(str_at(d.value, "/kind").empty()) << d.where("") << ": no kind";
    EXPECT_FALSE(str_at(d.value, "/metadata/name").empty()) << d.where("") << ": no metadata.name";
  }
}

TEST_F(Manifests, PlaceholdersAreTheOnesTheWalkThroughFills) {
  const std::string readme = read_text(source_path("deploy/kubernetes/README.md"));
  for (const auto& [name, where] : manifests().placeholders)
    EXPECT_NE(readme.find("@" + name + "@"), std::string::npos)
        << where << ": placeholder @" << name
        << "@ is not filled anywhere in deploy/kubernetes/README.md's walk-through";
  EXPECT_TRUE(manifests().placeholders.count("START_AT"))
      << "the loadgen Job's START_AT should be a placeholder the walk-through fills";
}

TEST_F(Manifests, ResultsVolumeIsOneReadWriteManyClaimEveryPodMounts) {
  std::vector<const YamlDoc*> claims;
  for (const auto& d : manifests().docs)
    if (str_at(d.value, "/kind") == "PersistentVolumeClaim") claims.push_back(&d);
  ASSERT_EQ(claims.size(), 1u) << "expected one PersistentVolumeClaim under deploy/kubernetes/";
  const YamlDoc& pvc = *claims[0];
  const std::string claim = str_at(pvc.value, "/metadata/name");
  const std::string ns = str_at(pvc.value, "/metadata/namespace");
  const json* modes = at(pvc.value, "/spec/accessModes");
  EXPECT_TRUE(modes && modes->is_array() &&
              std::find(modes->begin(), modes->end(), "ReadWriteMany") != modes->end())
      << pvc.where("/spec/accessModes")
      << ": the shards on different nodes write the same volume: accessModes [ReadWriteMany]";
  for (const auto& p : pods()) {
    EXPECT_EQ(str_at(p.doc->value, "/metadata/namespace"), ns)
        << p.doc->where("/metadata/namespace") << ": " << p.kind << " " << p.name
        << " is not in the claim's namespace";
    bool mounted = false;
    if (const json* vols = at(p.spec_json(), "/volumes"); vols && vols->is_array()) {
      for (std::size_t i = 0; i < vols->size(); ++i) {
        if (const json* c = at((*vols)[i], "/persistentVolumeClaim/claimName")) {
          EXPECT_EQ(*c, claim) << p.where("/volumes/" + std::to_string(i))
                               << ": a claim other than " << claim;
          mounted = true;
        }
      }
    }
    EXPECT_TRUE(mounted) << p.where() << ": " << p.kind << " " << p.name
                         << " does not mount the results claim " << claim;
  }
}

TEST_F(Manifests, LoadgenIsAnIndexedJobOfOnePodPerShard) {
  const auto l = loadgen();
  ASSERT_TRUE(l) << "expected exactly one Job whose container runs `inferperf profile`";
  const YamlDoc& job = *l->c.pod.doc;
  const json& v = job.value;
  EXPECT_EQ(str_at(v, "/spec/completionMode"), "Indexed")
      << job.where("/spec/completionMode")
      << ": completionMode must be Indexed (JOB_COMPLETION_INDEX is the shard index)";
  EXPECT_GT(l->shards, 1) << l->c.where("/env")
                          << ": INFERPERF_SHARD_COUNT must be set to a whole number above 1";
  EXPECT_EQ(integer_at(v, "/spec/completions"), l->shards)
      << job.where("/spec/completions") << ": completions must equal INFERPERF_SHARD_COUNT ("
      << l->shards << ")";
  EXPECT_EQ(integer_at(v, "/spec/parallelism"), l->shards)
      << job.where("/spec/parallelism") << ": parallelism must equal INFERPERF_SHARD_COUNT ("
      << l->shards << "): every shard runs at once";
  EXPECT_EQ(integer_at(v, "/spec/backoffLimit"), 0)
      << job.where("/spec/backoffLimit") << ": backoffLimit must be 0 (a retried shard would send "
      << "its share twice)";
  EXPECT_EQ(str_at(l->c.pod.spec_json(), "/restartPolicy"), "Never")
      << l->c.pod.where("/restartPolicy") << ": restartPolicy must be Never";

  // One pod per node: required anti-affinity on the hostname against the pods' own labels.
  const json* labels = at(v, "/spec/template/metadata/labels");
  const json* terms =
      at(l->c.pod.spec_json(),
         "/affinity/podAntiAffinity/requiredDuringSchedulingIgnoredDuringExecution");
  bool spread = false;
  if (terms && terms->is_array() && labels && labels->is_object()) {
    for (const auto& t : *terms) {
      const json* match = at(t, "/labelSelector/matchLabels");
      if (t.value("topologyKey", "") != "kubernetes.io/hostname" || !match || !match->is_object() ||
          match->empty())
        continue;
      bool all = true;
      for (const auto& [k, val] : match->items())
        all = all && labels->contains(k) && (*labels)[k] == val;
      spread = spread || all;
    }
  }
  EXPECT_TRUE(spread)
      << l->c.pod.where("/affinity")
      << ": the shards need requiredDuringSchedulingIgnoredDuringExecution pod "
         "anti-affinity on kubernetes.io/hostname matching the pod template's labels";

  const auto raw = l->c.strings("args");
  EXPECT_TRUE(option(raw, {"--random-seed"}))
      << l->c.where("/args")
      << ": sharded runs need --random-seed (every shard builds one dataset)";
  const auto start = option(raw, {"--start-at"});
  ASSERT_TRUE(start) << l->c.where("/args") << ": no --start-at";
  EXPECT_EQ(start->first, "$(START_AT)")
      << l->c.where("/args/" + std::to_string(start->second))
      << ": --start-at should be $(START_AT), the env value the walk-through fills";
  const auto env = pod_env(l->c, 0);
  ASSERT_TRUE(env.count("START_AT")) << l->c.where("/env") << ": no START_AT env var";
  EXPECT_TRUE(std::regex_match(env.at("START_AT"), std::regex(R"([0-9]+(\.[0-9]+)?)")))
      << l->c.where("/env") << ": START_AT is '" << env.at("START_AT")
      << "' once the placeholders are filled; it should be a Unix time";
  EXPECT_FALSE(option(raw, {"--shard-index", "--shard-count"}))
      << l->c.where("/args")
      << ": leave --shard-index/--shard-count to JOB_COMPLETION_INDEX and INFERPERF_SHARD_COUNT";
}

TEST_F(Manifests, EveryPodRunsAsTheImageUserWithBoundedResources) {
  const auto user = final_user(dockerfile());
  ASSERT_TRUE(user && user->uid) << "Dockerfile: the final stage has no numeric USER";
  for (const auto& p : pods()) {
    const json& s = p.spec_json();
    EXPECT_EQ(at(s, "/securityContext/runAsNonRoot") ? *at(s, "/securityContext/runAsNonRoot")
                                                     : json(nullptr),
              json(true))
        << p.where("/securityContext") << ": runAsNonRoot: true";
    EXPECT_EQ(integer_at(s, "/securityContext/runAsUser"), user->uid)
        << p.where("/securityContext/runAsUser") << ": runAsUser must be the image's UID "
        << *user->uid << " (" << dockerfile().where(user->line) << ": USER " << user->spec << ")";
    if (user->gid) {
      EXPECT_EQ(integer_at(s, "/securityContext/runAsGroup"), user->gid)
          << p.where("/securityContext/runAsGroup") << ": runAsGroup must be the image's GID "
          << *user->gid << " (" << dockerfile().where(user->line) << ")";
      EXPECT_EQ(integer_at(s, "/securityContext/fsGroup"), user->gid)
          << p.where("/securityContext/fsGroup") << ": fsGroup must be the image's GID "
          << *user->gid << ", so the results volume is writable to it";
    }
    for (const auto& c : containers(p)) {
      const json& cv = c.value();
      EXPECT_EQ(at(cv, "/securityContext/allowPrivilegeEscalation")
                    ? *at(cv, "/securityContext/allowPrivilegeEscalation")
                    : json(nullptr),
                json(false))
          << c.where("/securityContext") << ": allowPrivilegeEscalation: false";
      if (const json* u = at(cv, "/securityContext/runAsUser")) {
        EXPECT_EQ(*u, *user->uid) << c.where("/securityContext/runAsUser")
                                  << ": a container runAsUser other than the image's UID";
      }
      for (const char* kind : {"requests", "limits"})
        for (const char* r : {"cpu", "memory"})
          EXPECT_TRUE(at(cv, std::string("/resources/") + kind + "/" + r))
              << c.where("/resources") << ": resources." << kind << "." << r << " is not set";
      EXPECT_EQ(str_at(cv, "/image"), placeholder_values().at("IMAGE"))
          << c.where("/image")
          << ": every container runs the image the walk-through builds (@IMAGE@)";
    }
  }
}

TEST_F(Manifests, InferperfContainersRunTheImageEntrypoint) {
  const auto entry = image_entrypoint();
  ASSERT_FALSE(entry.empty()) << "Dockerfile: no ENTRYPOINT in exec form";
  int seen = 0;
  for (const auto& p : pods()) {
    for (const auto& c : containers(p)) {
      const auto cmd = c.strings("command");
      const bool names_inferperf =
          !cmd.empty() && fs::path(cmd[0]).filename().string().rfind("inferperf", 0) == 0;
      if (names_inferperf) {
        EXPECT_EQ(cmd, entry) << c.where("/command") << ": command [" << joined(cmd)
                              << "] is not the image's ENTRYPOINT [" << joined(entry) << "]";
      }
      if (!runs_inferperf(c)) continue;
      ++seen;
      EXPECT_TRUE(role(c) == "profile" || role(c) == "merge")
          << c.where("/args") << ": an inferperf container whose args do not start with profile "
          << "or merge";
    }
  }
  EXPECT_GE(seen, 2) << "expected the loadgen (profile) and merge containers";
}

TEST_F(Manifests, ArtifactDirsAreOnTheResultsVolumeAndMergeReadsTheShards) {
  const auto l = loadgen();
  ASSERT_TRUE(l) << "expected exactly one Job whose container runs `inferperf profile`";
  const auto merges = containers_with_role("merge");
  ASSERT_EQ(merges.size(), 1u) << "expected exactly one container running `inferperf merge`";
  std::string run_dir;
  for (const Container& c : {l->c, merges[0]}) {
    const auto args = expanded_args(c, pod_env(c, 0));
    const auto dir = option(args, kArtifactDir);
    ASSERT_TRUE(dir) << c.where("/args") << ": no --artifact-dir";
    const std::string where = c.where("/args/" + std::to_string(dir->second));
    EXPECT_EQ(dir->first.find("$("), std::string::npos)
        << where << ": --artifact-dir " << dir->first << " refers to an undefined env var";
    EXPECT_TRUE(fs::path(dir->first).is_absolute()) << where << ": --artifact-dir is not absolute";
    // On a mount of the results claim.
    bool on_volume = false;
    std::vector<std::string> mounts;
    if (const json* vm = at(c.value(), "/volumeMounts"); vm && vm->is_array()) {
      for (const auto& m : *vm) {
        const std::string name = m.value("name", ""), path = m.value("mountPath", "");
        bool is_claim = false;
        if (const json* vols = at(c.pod.spec_json(), "/volumes"); vols && vols->is_array())
          for (const auto& v : *vols)
            is_claim =
                is_claim || (v.value("name", "") == name && v.contains("persistentVolumeClaim"));
        if (is_claim) {
          mounts.push_back(path);
          on_volume = on_volume || under(dir->first, path);
        }
      }
    }
    EXPECT_TRUE(on_volume) << where << ": --artifact-dir " << dir->first
                           << " is not under the results volume's mountPath (" << joined(mounts)
                           << ")";
    if (role(c) == "profile") run_dir = dir->first;
  }
  // merge DIR...: the run folder the shards write their shard-<i> folders into.
  const auto margs = expanded_args(merges[0], pod_env(merges[0], std::nullopt));
  std::vector<std::pair<std::string, std::size_t>> dirs;
  for (std::size_t i = 1; i < margs.size(); ++i) {
    if (kArtifactDir.count(margs[i])) {
      ++i;
      continue;
    }
    if (margs[i].rfind("-", 0) != 0) dirs.emplace_back(margs[i], i);
  }
  ASSERT_FALSE(dirs.empty()) << merges[0].where("/args") << ": merge names no DIR";
  for (const auto& [d, i] : dirs)
    EXPECT_EQ(d, run_dir) << merges[0].where("/args/" + std::to_string(i)) << ": merge reads " << d
                          << " but the shards write into " << run_dir << "/shard-<i> ("
                          << l->c.where("/args") << ")";
}

// What the dry run prints as the folder, when it prints one ("artifact folder: PATH").
std::optional<std::string> printed_folder(const std::string& out) {
  std::smatch m;
  static const std::regex re("(^|\n)artifact folder: ([^\n]*)");
  if (std::regex_search(out, m, re)) return m[2].str();
  return std::nullopt;
}

std::vector<std::string> command_line(const std::vector<std::string>& args) {
  std::vector<std::string> argv{INFERPERF_BIN};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.push_back("--dry-run");
  return argv;
}

TEST_F(Manifests, LoadgenCommandPassesDryRunOnEveryShard) {
  const auto l = loadgen();
  ASSERT_TRUE(l) << "expected exactly one Job whose container runs `inferperf profile`";
  ASSERT_GT(l->shards, 0) << l->c.where("/env") << ": INFERPERF_SHARD_COUNT is not a number";
  for (int i = 0; i < l->shards; ++i) {
    const auto env = pod_env(l->c, i);
    const auto args = expanded_args(l->c, env);
    for (std::size_t k = 0; k < args.size(); ++k)
      EXPECT_EQ(args[k].find("$("), std::string::npos)
          << l->c.where("/args/" + std::to_string(k)) << ": " << args[k]
          << " refers to an env var the container does not define";
    const auto r = run(command_line(args), env);
    EXPECT_EQ(r.exit_code, 0) << l->c.where("/args") << ": shard " << i
                              << " (JOB_COMPLETION_INDEX=" << i
                              << " INFERPERF_SHARD_COUNT=" << l->shards << "): `inferperf "
                              << joined(args) << " --dry-run` exited " << r.exit_code << ":\n"
                              << r.out;
    if (r.exit_code != 0) continue;
    const auto dir = option(args, kArtifactDir);
    if (auto printed = printed_folder(r.out); printed && dir) {
      EXPECT_EQ(*printed, dir->first + "/shard-" + std::to_string(i))
          << l->c.where("/args") << ": shard " << i << " would not write where merge reads:\n"
          << r.out;
    }
  }
}

// The check above can fail: a flag the binary does not know, and a shard index out of range
// (JOB_COMPLETION_INDEX reaches the binary), are refused with exit 2.
TEST_F(Manifests, DryRunRefusesAnUnknownFlagAndAnIndexOutOfRange) {
  const auto l = loadgen();
  ASSERT_TRUE(l) << "expected exactly one Job whose container runs `inferperf profile`";
  ASSERT_GT(l->shards, 0);
  auto env = pod_env(l->c, 0);
  auto args = expanded_args(l->c, env);
  args.push_back("--no-such-flag-for-the-deploy-test");
  EXPECT_EQ(run(command_line(args), env).exit_code, 2);

  env = pod_env(l->c, static_cast<int>(l->shards));
  const auto r = run(command_line(expanded_args(l->c, env)), env);
  EXPECT_EQ(r.exit_code, 2) << "JOB_COMPLETION_INDEX=" << l->shards
                            << " is past INFERPERF_SHARD_COUNT and should be refused:\n"
                            << r.out;
}

TEST_F(Manifests, MergeCommandPassesDryRun) {
  const auto merges = containers_with_role("merge");
  ASSERT_EQ(merges.size(), 1u) << "expected exactly one container running `inferperf merge`";
  const Container& c = merges[0];
  const auto env = pod_env(c, std::nullopt);
  const auto args = expanded_args(c, env);
  const auto r = run(command_line(args), env);
  EXPECT_EQ(r.exit_code, 0) << c.where("/args") << ": `inferperf " << joined(args)
                            << " --dry-run` exited " << r.exit_code << ":\n"
                            << r.out;
}

}  // namespace
}  // namespace inferperf::deploy_test

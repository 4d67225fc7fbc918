// The manifest reader itself: what the subset holds, and that anything outside it is refused with
// the file and line.
#include <gtest/gtest.h>

#include "yaml_subset.hpp"

namespace inferperf::deploy_test {
namespace {

using nlohmann::json;

TEST(YamlSubset, ReadsTheConstructsTheManifestsUse) {
  const std::string text =
      "# a comment\n"
      "apiVersion: batch/v1\n"
      "kind: Job\n"
      "metadata:\n"
      "  labels:\n"
      "    app.kubernetes.io/name: x\n"
      "spec:\n"
      "  completions: 4\n"
      "  ok: true\n"
      "  template:\n"
      "    spec:\n"
      "      containers:\n"
      "        - name: c\n"
      "          args: [\n"
      "            \"profile\",\n"
      "            # a comment inside\n"
      "            \"--url\", \"http://h:8000\"\n"
      "          ]\n"
      "          env:\n"
      "          - name: A\n"
      "            value: \"4\"\n"
      "      volumes:\n"
      "        - name: tmp\n"
      "          emptyDir: {}\n"
      "---\n"
      "kind: Namespace\n";
  const auto docs = parse_yaml_subset("t.yaml", text);
  ASSERT_EQ(docs.size(), 2u);
  const json& j = docs[0].value;
  EXPECT_EQ(j["spec"]["completions"], 4);
  EXPECT_EQ(j["spec"]["ok"], true);
  EXPECT_EQ(j["metadata"]["labels"]["app.kubernetes.io/name"], "x");
  const json& c = j["spec"]["template"]["spec"]["containers"][0];
  EXPECT_EQ(c["args"], json({"profile", "--url", "http://h:8000"}));
  EXPECT_EQ(c["env"][0]["value"], "4");
  EXPECT_EQ(j["spec"]["template"]["spec"]["volumes"][0]["emptyDir"], json::object());
  EXPECT_EQ(docs[1].value["kind"], "Namespace");
  const std::string args = "/spec/template/spec/containers/0/args";
  EXPECT_EQ(docs[0].where(args + "/0"), "t.yaml:15");
  EXPECT_EQ(docs[0].where(args + "/2"), "t.yaml:17");
  EXPECT_EQ(docs[0].where("/metadata/labels/app.kubernetes.io~1name"), "t.yaml:6");
  EXPECT_EQ(docs[0].where("/spec/template/spec/containers/0/env/0/value"), "t.yaml:21");
  EXPECT_EQ(docs[1].where("/kind"), "t.yaml:26");
}

TEST(YamlSubset, RefusesWhatIsOutsideItNamingTheLine) {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"a: 'single'\n", "t.yaml:1:"},
      {"a: b\nc: |\n  text\n", "t.yaml:2:"},
      {"a: b # trailing\n", "t.yaml:1:"},
      {"a: &anchor b\n", "t.yaml:1:"},
      {"a:\n  b: 1\n c: 2\n", "t.yaml:3:"},
      {"a: [\"x\",\n  \"y\",\n]\n", "t.yaml:1:"},
      {"a: [\"x\"\n", "t.yaml:1:"},
      {"a: b\na: c\n", "t.yaml:2:"},
      {"a: yes\n", "t.yaml:1:"},
      {"a: 1\n  b: 2\n", "t.yaml:2:"},
      {"just text\n", "t.yaml:1:"},
  };
  for (const auto& [text, where] : bad) {
    try {
      parse_yaml_subset("t.yaml", text);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const YamlError& e) {
      EXPECT_EQ(std::string(e.what()).rfind(where, 0), 0u) << text << " -> " << e.what();
    }
  }
}

}  // namespace
}  // namespace inferperf::deploy_test

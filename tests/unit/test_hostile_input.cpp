// Hostile input to the config and study loaders: each case is refused as a usage error (exit
// code 2) within a second, with a message that names the place; never a crash, a hang or a huge
// allocation. tests/fuzz/fuzz_config.cpp searches for the cases not listed here.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "io/vtk_writers.hpp"
#include "support.hpp"

using fhn::test::config_error;
using fhn::test::contains;
using fhn::test::run_cli;
using fhn::test::TempDir;
using fhn::test::write_text;

namespace {

// Runs `fhn ARGS...`, checks that it is refused as bad input within a second, and returns what
// it printed.
std::string refusal(const std::vector<std::string>& args) {
  const auto start = std::chrono::steady_clock::now();
  const fhn::test::CliResult r = run_cli(args);
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  INFO("fhn " << args.front() << ": " << r.err.substr(0, 500));
  CHECK(r.code == 2);
  CHECK(took.count() < 1.0);
  CHECK(r.err.size() < 4000);  // the message stays readable, whatever the input
  return r.err;
}

// Hostile files in a temporary folder, checked through the command line.
class Files {
 public:
  // What `fhn validate` says about a config file holding `text` (bad.yaml).
  std::string config(const std::string& text) {
    return refusal({"validate", write_text(dir_ / "bad.yaml", text)});
  }
  // What `fhn converge` says about a study file holding `text` (study.yaml).
  std::string study(const std::string& text) {
    return refusal({"converge", write_text(dir_ / "study.yaml", text)});
  }
  // Exit code of `fhn validate` on a config holding `text` (ok.yaml).
  int validate(const std::string& text) {
    return run_cli({"validate", write_text(dir_ / "ok.yaml", text)}).code;
  }
  std::filesystem::path operator/(const std::string& name) const { return dir_ / name; }

 private:
  TempDir dir_;
};

const std::string kStudyHead = "study: newton\nbase: base.yaml\n";
const std::string kNoVtk = "output: {vtk: false, spacetime: false}\n";  // valid in every build

// "Billion laughs": ten levels of nine aliases of the level below, 9^10 values once expanded.
std::string alias_bomb() {
  std::string text = "l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n";
  for (int level = 1; level < 10; ++level) {
    const std::string below = "*l" + std::to_string(level - 1);
    text += "l" + std::to_string(level) + ": &l" + std::to_string(level) + " [";
    for (int i = 0; i < 9; ++i) text += (i == 0 ? "" : ", ") + below;
    text += "]\n";
  }
  return text;
}

}  // namespace

TEST_CASE("malformed YAML is a syntax error at file:line:column") {
  Files files;
  CHECK(contains(files.config("model: {a: [1, 2\n"), "bad.yaml:2:1: YAML syntax error: end of sequence flow not found"));
  CHECK(contains(files.config("model:\n  a: 1\n b: 2\n"), "bad.yaml:3:2: YAML syntax error: end of map not found"));
  CHECK(contains(files.config("a: b: c\n"), "bad.yaml:1:5: YAML syntax error: illegal map value"));
  CHECK(contains(files.config("*nowhere\n"), "bad.yaml:1:1: YAML syntax error: the referenced anchor is not defined"));
  CHECK(contains(files.study(kStudyHead + "set: {time.dt: 0.1\n"), "study.yaml:4:1: YAML syntax error"));
}

TEST_CASE("binary garbage is refused as not UTF-8 text, at the first bad byte") {
  Files files;
  std::mt19937 rng(8);
  std::string noise(4096, '\0');
  for (char& byte : noise) byte = static_cast<char>(rng() & 0xFF);
  CHECK(contains(files.config(noise), "YAML input must be UTF-8 text (is this a binary file?)"));
  CHECK(contains(files.config(std::string("model:\n  a: 0.1\0\0\n", 19)), "bad.yaml:2:9: control character 0x00"));
  CHECK(contains(files.config("name: caf\xe9\n"), "bad.yaml:1:10: byte 0xe9; YAML input must be UTF-8 text"));
  CHECK(contains(files.config("name: \xc0\xaf\n"), "bad.yaml:1:7: byte 0xc0"));  // overlong '/'
  CHECK(contains(files.config("name: \xed\xa0\x80\n"), "bad.yaml:1:7: byte 0xed"));  // surrogate
  const std::string utf16("\xff\xfe" "n\0a\0m\0e\0", 10);
  CHECK(contains(files.config(utf16), "bad.yaml:1:1: byte 0xff"));
  CHECK(contains(files.config("model: {a: 0.1}\x1b[2J\n"), "bad.yaml:1:16: control character 0x1b"));
  CHECK(contains(files.study(kStudyHead + "name: \x01\n"), "study.yaml:3:7: control character 0x01"));
  // UTF-8 text beyond ASCII is fine (here in a comment).
  CHECK(files.validate("# Fitz\xc3\xa9-Nagumo, \xe2\x88\x82v/\xe2\x88\x82t\n" + kNoVtk) == 0);
}

TEST_CASE("alias bombs are refused before they expand") {
  Files files;
  const std::string bomb = files.config(alias_bomb());
  CHECK(contains(bomb, "bad.yaml:6:"));  // the level at which the expanded count passes 100000
  CHECK(contains(bomb, "the document holds more than 100000 values (an alias counts as all the values it repeats)"));
  CHECK(contains(files.study(kStudyHead + alias_bomb()), "study.yaml:8:"));

  // An alias inside its own anchor would make the document a cycle.
  CHECK(contains(files.config("a: &a [1, *a]\n"), "bad.yaml:1:11: an alias inside the node it refers to (a cycle)"));
  // A chain of aliases nests as deeply as it is long once expanded.
  std::string chain = "a0: &a0 [1]\n";
  for (int i = 1; i < 80; ++i)
    chain += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [*a" + std::to_string(i - 1) + "]\n";
  CHECK(contains(files.config(chain), "lists and mappings nested more than 64 levels deep"));

  // Aliases within the limits are ordinary YAML.
  CHECK(files.validate("stimulus:\n"
                       "  - &pulse {x_min: 0, x_max: 5, start: 0, duration: 1, amplitude: 1}\n"
                       "  - *pulse\n" +
                       kNoVtk) == 0);
}

TEST_CASE("enormous numbers name the limit they pass") {
  Files files;
  CHECK(contains(files.config("domain: {nodes: 1e15}\n"),
                 "bad.yaml:1:17: domain.nodes: value 1e15 is out of range; expected a whole number in [3, 2147483648]"));
  CHECK(contains(files.config("time: {end: 1e10, dt: 1e-10}\n"),
                 "bad.yaml:1:23: time.dt: time.end / time.dt = 1e+20 steps; at most 2^53 = 9007199254740992"));
  CHECK(contains(files.config("output: {every: 1e10}\ntime: {end: 1, dt: 1e-10}\n"),
                 "output.every: output.every / time.dt = 1e+20 steps; at most 2^53"));
  CHECK(contains(files.config("domain: {dx: 1e-300}\n"),
                 "bad.yaml:1:14: domain.dx: 1e-300 makes domain.length / dx = 1.9999999999999998e+302 cells; "
                 "at most 2147483647 (2147483648 nodes) are allowed"));
  CHECK(contains(files.config("model: {a: 1e400}\n"),
                 "bad.yaml:1:12: model.a: '1e400' is beyond the range of a double (about 1.8e308)"));
  CHECK(contains(files.config("domain: {nodes: -1e400}\n"), "domain.nodes: '-1e400' is beyond the range of a double"));
  CHECK(contains(files.config("output: {probes: [1, 1e999]}\n"), "output.probes[1]: '1e999' is beyond the range"));
  CHECK(contains(files.config("stimulus: [{x_min: 0, x_max: 1, start: 0, duration: 1, amplitude: 1, count: 1e18}]\n"),
                 "stimulus[0].count: value 1e18 is out of range"));
  CHECK(contains(files.study(kStudyHead + "newton: {steps: 1e400}\n"), "newton.steps: '1e400' is beyond the range"));
}

TEST_CASE("zero or negative steps and durations are refused") {
  Files files;
  CHECK(contains(files.config("time: {dt: 0}\n"), "bad.yaml:1:12: time.dt: value 0 is out of range; expected a number > 0"));
  CHECK(contains(files.config("time: {dt: -0.1}\n"), "time.dt: value -0.1 is out of range; expected a number > 0"));
  CHECK(contains(files.config("time: {end: 0}\n"), "time.end: value 0 is out of range"));
  CHECK(contains(files.config("time: {end: -5}\n"), "time.end: value -5 is out of range"));
  CHECK(contains(files.config("output: {every: 0}\n"), "output.every: value 0 is out of range"));
  CHECK(contains(files.config("domain: {dx: -0.5}\n"), "domain.dx: value -0.5 is out of range"));
  CHECK(contains(files.config("domain: {nodes: 0}\n"), "domain.nodes: value 0 is out of range"));
  CHECK(contains(files.config("time: {dt: 1e-400}\n"), "time.dt: value 1e-400 is out of range"));  // underflows to 0
  CHECK(contains(files.study(kStudyHead + "newton: {steps: 0}\n"), "newton.steps: value 0 is out of range"));
  CHECK(contains(files.study(kStudyHead + "newton: {steps: -3}\n"), "newton.steps: value -3 is out of range"));
}

TEST_CASE("NaN and infinity literals are refused as not finite") {
  Files files;
  for (const char* literal : {".nan", ".NaN", ".inf", "+.inf", "-.inf", "-.Inf"}) {
    CAPTURE(literal);
    const std::string value(literal);
    CHECK(contains(files.config("model: {gamma: " + value + "}\n"),
                   "bad.yaml:1:16: model.gamma: expected a finite number, got '" + value + "'"));
    CHECK(contains(files.config("domain: {nodes: " + value + "}\n"), "domain.nodes: expected a finite number"));
    CHECK(contains(files.config("output: {probes: [0, " + value + "]}\n"),
                   "output.probes[1]: expected a finite number, got '" + value + "'"));
  }
  CHECK(contains(files.study("study: stability\nbase: base.yaml\nsweep: {ratios: [1, .nan]}\n"),
                 "study.yaml:3:21: sweep.ratios[1]: expected a finite number, got '.nan'"));
}

TEST_CASE("deeply nested documents are refused before the parser recurses") {
  Files files;
  const std::string limit = "lists and mappings nested more than 64 levels deep";
  CHECK(contains(files.config(std::string(100000, '[')), limit));
  CHECK(contains(files.config(std::string(100000, '{')), limit));
  CHECK(contains(files.config("a: " + std::string(50000, '[') + std::string(50000, ']') + "\n"), limit));
  std::string block;  // a:\n b:\n  c: ... one level per line
  for (int level = 0; level < 100; ++level) block += std::string(level, ' ') + "k:\n";
  CHECK(contains(files.config(block), "bad.yaml:65:"));
  std::string dashes;  // - - - ... one level per dash
  for (int level = 0; level < 100; ++level) dashes += "- ";
  CHECK(contains(files.config(dashes + "x\n"), limit));
  CHECK(contains(files.study(kStudyHead + "set: " + std::string(100000, '[') + "\n"), limit));
  // A --set value is YAML too.
  TempDir dir;
  const std::string ok = write_text(dir / "ok.yaml", kNoVtk);
  const std::string deep = refusal({"validate", ok, "--set", "output.probes=" + std::string(100000, '[')});
  CHECK(contains(deep, "--set output.probes=[[[["));
  CHECK(contains(deep, limit));
}

TEST_CASE("very long keys, values and key lists give short messages") {
  Files files;
  const std::string long_key = files.config(std::string(1000, 'k') + ": 1\n");
  CHECK(contains(long_key, "bad.yaml:1:1: unknown key '" + std::string(60, 'k') + "... (1000 bytes)'"));
  CHECK(contains(files.config("scheme: {type: " + std::string(200000, 'x') + "}\n"),
                 "scheme.type: '" + std::string(60, 'x') + "... (200000 bytes)' is not allowed"));
  CHECK(contains(files.config("name: " + std::string(500, 'n') + "\n"), "is longer than 100 characters"));
  CHECK(contains(files.config("name: ../../etc\n"), "name: '../../etc' must be a file name"));
  CHECK(contains(files.study(kStudyHead + "name: ../outside\n"), "name: '../outside' must be a file name"));
  CHECK(contains(files.config("model: {a: 1" + std::string(100000, '0') + "}\n"),
                 "model.a: '1" + std::string(59, '0') + "... (100001 bytes)' is beyond the range"));
  std::string many_keys;
  for (int i = 0; i < 100; ++i) many_keys += "key" + std::to_string(i) + ": 1\n";
  if (!fhn::vtk_compiled()) many_keys += "output: {vtk: false, spacetime: false}\n";  // no 101st
  const std::string many = files.config(many_keys);
  CHECK(contains(many, "100 problems in the configuration"));
  CHECK(contains(many, "... and 80 more"));
  CHECK(contains(files.config(std::string(2000, 'k') + ": 1\n"), "YAML syntax error"));  // keys stop at 1024
  CHECK(contains(files.study(kStudyHead + "set: {[a, b]: 1}\n"), "set: keys must be config keys such as time.dt, got a list"));
}

TEST_CASE("empty, missing, directory, oversized and endless files are refused") {
  Files files;
  CHECK(contains(files.config(""), "bad.yaml: the config file is empty; expected a YAML mapping of keys to values"));
  CHECK(contains(files.config(" \n\t\n"), "bad.yaml: the config file is empty"));
  CHECK(contains(files.study(""), "study.yaml: the study file is empty"));
  CHECK(contains(files.config("model: {a: 0.1}\n---\nmodel: {a: 0.2}\n"),
                 "bad.yaml:2:1: a second YAML document starts here; a config is a single document"));

  std::filesystem::create_directory(files / "folder.yaml");
  const std::string folder = (files / "folder.yaml").string();
  CHECK(contains(refusal({"validate", folder}), "folder.yaml: is a directory, expected a YAML config file"));
  CHECK(contains(refusal({"converge", folder}), "folder.yaml: is a directory, expected a YAML study file"));
  write_text(files / "base.yaml", "");  // the study's base config is checked the same way
  CHECK(contains(files.study(kStudyHead), "base.yaml: the config file is empty"));

  // 100 MB (sparse: nothing is written), refused after reading 1 MiB of it.
  const std::string huge = write_text(files / "huge.yaml", "");
  std::filesystem::resize_file(huge, std::uintmax_t{100} << 20);
  CHECK(contains(refusal({"validate", huge}), "huge.yaml: larger than 1 MiB (1048576 bytes), the limit for YAML input"));
  CHECK(contains(refusal({"converge", huge}), "huge.yaml: larger than 1 MiB"));
  if (std::filesystem::exists("/dev/zero"))
    CHECK(contains(refusal({"validate", "/dev/zero"}),
                   "/dev/zero: cannot open config file (a character device, not a regular file)"));
  // Text given directly (load_config_text) has the same limit.
  CHECK(contains(config_error(std::string((1 << 20) + 1, '#')), "test.yaml: larger than 1 MiB"));
}

TEST_CASE("a list index beyond any list, in --set or as a sweep axis, is a config error naming the list") {
  Files files;
  const std::string config = write_text(files / "c.yaml", "stimulus: [{x_min: 0, x_max: 5, start: 0, duration: 1, "
                                                          "amplitude: 0.5}]\n" + kNoVtk);
  const std::string index = "99999999999999999999";  // beyond 2^64: was "internal error: stoull"
  CHECK(contains(refusal({"validate", config, "--set", "stimulus[" + index + "].amplitude=1"}),
                 "--set stimulus[" + index + "].amplitude=1: 'stimulus[" + index +
                     "]' does not exist ('stimulus' has 1 entry: indices 0 to 0)"));
  // As a sweep axis the members' configs are read on several threads: the error there was not a
  // ConfigError, left the parallel loop and aborted the process (SIGABRT).
  const std::string sweep = write_text(files / "s.yaml", "base: c.yaml\naxes: [{key: 'stimulus[" + index +
                                                             "].amplitude', values: [1, 2]}]\n");
  const std::string message = refusal({"sweep", sweep, "--quiet", "--output", (files / "o").string()});
  CHECK(contains(message, "s.yaml:2:8: member 0 (stimulus[" + index + "].amplitude=1) is not a valid config"));
  CHECK(contains(message, "'stimulus[" + index + "]' does not exist ('stimulus' has 1 entry: indices 0 to 0)"));
}

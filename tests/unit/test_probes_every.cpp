// output.probes_every: probes.csv sampled at its own cadence through the scheme's node reads
// (study/probes.hpp), independent of the frames. At the frames' cadence it is the file the frames
// wrote before, byte for byte; at every step its rows at the frames' steps are those rows; a
// restart continues it exactly; a cadence that is no whole number of steps is refused.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>

#include "core/error.hpp"
#include "core/format.hpp"
#include "io/probes_csv.hpp"
#include "run/checkpoint.hpp"
#include "support.hpp"

namespace fs = std::filesystem;
using fhn::test::contains;

namespace {

const char* kCable =
    "name: probes\n"
    "domain: {length: 40, nodes: 81}\n"
    "initial: {v: {type: gaussian, center: 20, width2: 4}}\n"
    "stimulus: [{x_min: 0, x_max: 2, start: 12, duration: 1, amplitude: 0.5}]\n"
    "time: {end: 20, dt: 0.05}\n"
    "output: {every: 0.5, probes: [0, 10.3, 20, 33.71, 40], vtk: false, spacetime: false}\n";

// A sheet with a hole (probes beside it read the tissue corners alone) and a box.
const char* kSheet =
    "name: probes\n"
    "domain: {length: [20, 12], dx: 0.5}\n"
    "tissue: [{shape: disc, center: [10, 6], radius: 2.2, op: remove}]\n"
    "initial: {v: {type: rectangle, x_min: 0, x_max: 3, value: 1}}\n"
    "time: {end: 10, dt: 0.05}\n"
    "output: {every: 0.5, probes: [[7.6, 6.1], [12.3, 5.05], [0, 0], [19.9, 11.7]], vtk: false}\n";
const char* kBox =
    "name: probes\n"
    "domain: {length: [10, 4, 3], dx: 0.5}\n"
    "initial: {v: {type: rectangle, x_min: 0, x_max: 2, value: 1}}\n"
    "time: {end: 6, dt: 0.04}\n"
    "output: {every: 0.4, probes: [[2.3, 1.1, 0.7], [5, 4, 3], [7.75, 2.2, 1.5]], vtk: false}\n";

// probes.csv as the frames wrote it before output.probes_every: FrameView::at at every frame.
class FrameProbes final : public fhn::FrameSink {
 public:
  FrameProbes(const fs::path& file, const fhn::Config& c)
      : positions_(c.output.probes),
        csv_(file, positions_, c.domain.dims, false),
        v_(positions_.size()),
        w_(positions_.size()) {}
  void write(const fhn::FrameView& f) override {
    for (std::size_t k = 0; k < positions_.size(); ++k) {
      v_[k] = f.at(f.v, positions_[k]);
      w_[k] = f.at(f.w, positions_[k]);
    }
    csv_.write(f.t, v_, w_);
  }

 private:
  std::vector<fhn::Point> positions_;
  fhn::ProbesCsv csv_;
  std::vector<fhn::real> v_, w_;
};

std::string from_frames(const fhn::Config& c, const fs::path& file) {
  {
    FrameProbes writer(file, c);
    fhn::test::run_with_sinks(c, {&writer});
  }
  return fhn::test::read_text(file);
}

// probes.csv's rows by their time's text.
std::map<std::string, std::string> rows_by_t(const fs::path& file) {
  std::map<std::string, std::string> rows;
  const auto csv = fhn::test::read_csv(file);
  for (std::size_t r = 1; r < csv.size(); ++r) {
    std::string row;
    for (const std::string& cell : csv[r]) row += cell + ",";
    rows[csv[r][0]] = row;
  }
  return rows;
}

}  // namespace

TEST_CASE("probes_every equal to output.every writes the frames' probes.csv byte for byte") {
  struct Case {
    const char* yaml;
    std::vector<std::string> overrides;
  };
  const std::vector<Case> cases{
      {kCable, {}},
      {kCable, {"scheme.type=crank_nicolson"}},
      {kCable, {"scheme.type=adaptive_explicit", "scheme.adaptive.regrid_every=7"}},
      {kSheet, {}},
      {kSheet, {"scheme.type=crank_nicolson", "scheme.crank_nicolson.formulation=adi"}},
      {kBox, {}}};
  for (const Case& k : cases) {
    CAPTURE(k.yaml);
    CAPTURE(k.overrides.empty() ? std::string() : k.overrides.front());
    fhn::test::TempDir dir;
    const fhn::Config c = fhn::test::config_from(k.yaml, k.overrides);
    CHECK(c.output.probes_every == c.output.every);
    CHECK(c.output.probes_every_steps == c.output.every_steps);
    fhn::test::run_config(c, dir / "run");
    const std::string expected = from_frames(c, dir / "frames.csv");
    CHECK(std::count(expected.begin(), expected.end(), '\n') > 10);
    CHECK(fhn::test::read_text(dir / "run" / "probes.csv") == expected);
    // Given explicitly, the same.
    auto same = k.overrides;
    same.push_back("output.probes_every=" + fhn::format_exact(c.output.every));
    fhn::test::run_config(fhn::test::config_from(k.yaml, same), dir / "explicit");
    CHECK(fhn::test::read_text(dir / "explicit" / "probes.csv") == expected);
  }
}

TEST_CASE("probes every step read at the frames' steps what the frames every 10 steps read") {
  for (const char* yaml : {kCable, kSheet, kBox}) {
    CAPTURE(yaml);
    fhn::test::TempDir dir;
    const fhn::Config every_step = fhn::test::config_from(yaml, {"output.probes_every=" +
                                                                 fhn::format_exact(fhn::test::config_from(yaml).time.dt)});
    fhn::test::run_config(every_step, dir / "run");
    const fhn::Config frames = fhn::test::config_from(yaml);
    REQUIRE(frames.output.every_steps == 10);
    from_frames(frames, dir / "frames.csv");
    const auto fine = rows_by_t(dir / "run" / "probes.csv");
    const auto coarse = rows_by_t(dir / "frames.csv");
    CHECK(fine.size() == static_cast<std::size_t>(every_step.time.steps + 1));
    CHECK(coarse.size() == static_cast<std::size_t>(frames.time.steps / 10 + 1));
    for (const auto& [t, row] : coarse) {
      CAPTURE(t);
      REQUIRE(fine.count(t) == 1);
      CHECK(fine.at(t) == row);
    }
  }
}

TEST_CASE("probes between the frames: a cadence of 3 steps against frames every 10") {
  fhn::test::TempDir dir;
  fhn::test::run_config(fhn::test::config_from(kCable, {"output.probes_every=0.15"}), dir / "run");
  const auto csv = fhn::test::read_csv(dir / "run" / "probes.csv");
  // Steps 0, 3, ..., 399 and the last, 400.
  REQUIRE(csv.size() == 1 + 134 + 1);
  CHECK(csv[1][0] == "0");
  CHECK(csv[2][0] == "0.15000000000000002");  // t = 3 dt, as TimeGrid counts it
  CHECK(csv[134][0] == fhn::format_exact(399 * 0.05));
  CHECK(csv[135][0] == "20");
}

TEST_CASE("the probe sampler reads what FrameView::at reads, from the stencils' nodes alone") {
  for (const char* yaml : {kCable, kSheet, kBox}) {
    CAPTURE(yaml);
    const fhn::Config c = fhn::test::config_from(yaml);
    const fhn::test::SchemeRun run = fhn::test::run_scheme(c, 37);
    fhn::test::check_probes_read_the_frame(c, *run.scheme, run.state);
    // The default read_nodes (a snapshot) and the host schemes' own give the same values.
    const std::vector<fhn::index_t> nodes{0, 5, 17};
    std::vector<fhn::real> v, w, v_default, w_default;
    run.scheme->read_nodes(nodes, v, w);
    run.scheme->Scheme::read_nodes(nodes, v_default, w_default);
    CHECK(v == v_default);
    CHECK(w == w_default);
    CHECK(v[2] == run.state.v[17]);
    CHECK(w[1] == run.state.w[5]);
  }
}

TEST_CASE("restart: probes.csv at its own cadence continues exactly") {
  fhn::test::TempDir dir;
  const std::vector<std::string> common{"output.probes_every=0.05", "output.checkpoint_every=5"};
  // The first run stops at t = 13, 60 steps past its checkpoint at t = 10; the second continues
  // from there.
  fhn::test::run_config(fhn::test::config_from(kCable, common), dir / "a");
  auto first = common;
  first.push_back("time.end=13");
  fhn::test::run_config(fhn::test::config_from(kCable, first), dir / "b");
  const fs::path checkpoint = fhn::checkpoint_path(dir / "b", "probes", 200);
  REQUIRE(fs::exists(checkpoint));
  fhn::test::run_config(fhn::test::config_from(kCable, common), dir / "b", checkpoint);
  for (const char* file : {"probes.csv", "restitution.csv", "cv.csv"}) {
    CAPTURE(file);
    CHECK(fhn::test::read_text(dir / "a" / file) == fhn::test::read_text(dir / "b" / file));
  }
  CHECK(contains(fhn::test::read_text(dir / "b" / "restitution.csv"), "\n0,0,0,"));
}

TEST_CASE("output.probes_every must be a whole number of steps, > 0") {
  CHECK(contains(fhn::test::config_error(kCable, {"output.probes_every=0.12"}),
                 "output.probes_every = 0.12 must be a whole multiple of time.dt = 0.05"));
  const std::string text =
      "name: probes\n"
      "domain: {length: 40, nodes: 81}\n"
      "time: {end: 20, dt: 0.05}\n"
      "output:\n"
      "  every: 1\n"
      "  probes_every: 0.12\n";
  CHECK(contains(fhn::test::config_error(text), "test.yaml:6:17: output.probes_every = 0.12 must "
                                                "be a whole multiple of time.dt = 0.05"));
  CHECK(contains(fhn::test::config_error(kCable, {"output.probes_every=0"}),
                 "output.probes_every"));
  CHECK(contains(fhn::test::config_error(kCable, {"output.probes_evry=1"}), "probes_every"));
}

TEST_CASE("without probes: no probes.csv, restitution.csv or cv.csv; the adaptive grid's grid.csv all the same") {
  fhn::test::TempDir dir;
  fhn::test::run_config(fhn::test::config_from(kCable, {"output.probes=[]", "scheme.type=adaptive_explicit"}),
                      dir / "run");
  CHECK(fs::exists(dir / "run" / "grid.csv"));
  for (const char* file : {"probes.csv", "restitution.csv", "cv.csv"}) {
    CAPTURE(file);
    CHECK_FALSE(fs::exists(dir / "run" / file));
  }
  CHECK_FALSE(contains(fhn::test::read_text(dir / "run" / "summary.json"), "restitution"));
}

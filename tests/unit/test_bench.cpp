// `fhn bench`: the statistics, the derived columns of the table and the CSV, the size syntax,
// and a small CPU run through the command line.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "bench/bench.hpp"
#include "bench/lapack.hpp"
#include "core/build_info.hpp"
#include "support.hpp"

using fhn::index_t;
using fhn::bench::BenchRow;
using fhn::test::contains;
using fhn::test::run_cli;
using fhn::test::TempDir;

namespace {

BenchRow row(const std::string& kernel, const std::string& variant, const std::string& device,
             index_t n, double median_ms, double bytes, const std::string& baseline = "") {
  BenchRow r;
  r.kernel = kernel;
  r.variant = variant;
  r.device = device;
  r.n = n;
  r.time = {median_ms, 0.5 * median_ms, 1.5 * median_ms, 5};
  r.bytes = bytes;
  r.baseline = baseline;
  return r;
}

// Hand-made rows; the numbers below are worked out by hand:
//   copy 2^11 (the cpu roofline, largest n): 32768 B / 0.002 ms = 16.384 GB/s
//   lapack dgtsv: 40960 B / 0.01 ms = 4.096 GB/s = 25% of copy
//   thomas:       40960 B / 0.005 ms = 8.192 GB/s = 50% of copy, speed-up 0.01 / 0.005 = 2
std::vector<BenchRow> hand_made_rows() {
  std::vector<BenchRow> rows;
  rows.push_back(row("tridiagonal", "lapack dgtsv", "cpu", 1024, 0.01, 40960));
  rows.push_back(row("tridiagonal", "thomas", "cpu", 1024, 0.005, 40960, "lapack dgtsv"));
  rows.back().check = 2e-16;
  rows.back().note = "two passes, 64 B/unknown";
  rows.push_back(row("tridiagonal", "broken", "cpu", 1024, 0.001, 40960, "lapack dgtsv"));
  rows.back().check = 0.5;
  rows.push_back(row("tridiagonal", "gpu solver", "Some GPU", 1024, 0.001, 40960, "cusparse"));
  rows.push_back(row("tridiagonal", "skipped", "cpu", 1024, 0.0, 40960));
  rows.back().time = {};
  rows.back().note = "not built in, see the README";
  rows.push_back(row("copy", "memcpy", "cpu", 1024, 0.001, 16384));
  rows.push_back(row("copy", "memcpy", "cpu", 2048, 0.002, 32768));
  return rows;
}

// The CSV as maps from column name to field, and its header (fields without quotes or commas).
std::vector<std::map<std::string, std::string>> read_csv(const std::string& path,
                                                         std::string* header_line = nullptr) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  if (header_line) *header_line = line;
  std::vector<std::string> header;
  std::stringstream columns(line);
  for (std::string name; std::getline(columns, name, ',');) header.push_back(name);
  std::vector<std::map<std::string, std::string>> rows;
  while (std::getline(in, line)) {
    std::map<std::string, std::string> fields;
    std::size_t column = 0;
    std::string field;
    bool quoted = false;
    for (std::size_t i = 0; i <= line.size(); ++i) {
      const char c = i < line.size() ? line[i] : ',';
      if (c == '"') {
        if (quoted && i + 1 < line.size() && line[i + 1] == '"') field += line[++i];
        else quoted = !quoted;
      } else if (c == ',' && !quoted) {
        fields[header.at(column++)] = field;
        field.clear();
      } else {
        field += c;
      }
    }
    rows.push_back(fields);
  }
  return rows;
}

const std::map<std::string, std::string>& find_row(
    const std::vector<std::map<std::string, std::string>>& rows, const std::string& variant) {
  for (const auto& r : rows)
    if (r.at("variant") == variant) return r;
  FAIL("no row for variant " << variant);
  return rows.front();
}

}  // namespace

TEST_CASE("summarize gives the median, min and max of odd and even counts") {
  std::vector<double> odd{3.0, 1.0, 7.0, 2.0, 5.0};
  const auto a = fhn::bench::summarize(odd);
  CHECK(a.median_ms == 3.0);
  CHECK(a.min_ms == 1.0);
  CHECK(a.max_ms == 7.0);
  CHECK(a.repetitions == 5);

  std::vector<double> even{4.0, 1.0, 3.0, 8.0};
  const auto b = fhn::bench::summarize(even);
  CHECK(b.median_ms == 3.5);
  CHECK(b.min_ms == 1.0);
  CHECK(b.max_ms == 8.0);
  CHECK(b.repetitions == 4);

  std::vector<double> none;
  CHECK(fhn::bench::summarize(none).repetitions == 0);
}

TEST_CASE("the table: GB/s, % of copy, speed-up and FAILED, grouped by kernel, n, device") {
  const auto rows = hand_made_rows();
  CHECK(fhn::bench::gigabytes_per_second(rows[1]) == doctest::Approx(8.192));
  std::ostringstream out;
  fhn::bench::print_table(out, rows);
  const std::string table = out.str();
  INFO(table);
  auto line_of = [&](const std::string& variant, const std::string& n = "2^10") {
    std::istringstream lines(table);
    for (std::string line; std::getline(lines, line);)
      if (contains(line, "  " + variant + "  ") && contains(line, "  " + n + "  ")) return line;
    return std::string();
  };
  auto position = [&](const std::string& variant, const std::string& n = "2^10") {
    return table.find(line_of(variant, n));
  };
  // Kernels in the order they first appear, then n, then devices in the order they appear.
  CHECK(position("lapack dgtsv") < position("thomas"));
  CHECK(position("skipped") < position("gpu solver"));
  CHECK(position("gpu solver") < position("memcpy"));
  CHECK(position("memcpy") < position("memcpy", "2^11"));

  CHECK(contains(line_of("thomas"), "  8.19  "));
  CHECK(contains(line_of("thomas"), "  50%  "));
  CHECK(contains(line_of("thomas"), "  2.00x  "));
  CHECK(contains(line_of("thomas"), "  2.0e-16"));
  CHECK(contains(line_of("thomas"), "  100%  "));  // spread (max - min) / median
  CHECK(contains(line_of("lapack dgtsv"), "  4.10  "));
  CHECK(contains(line_of("lapack dgtsv"), "  25%  "));
  CHECK(contains(line_of("broken"), "FAILED"));
  const std::string roofline = line_of("memcpy", "2^11");
  CHECK(contains(roofline, "  16.4  "));
  CHECK(std::count(roofline.begin(), roofline.end(), '%') == 2);  // spread, 100% of copy
  // No copy row and no baseline on that device: % of copy and speed-up blank, spread only.
  const std::string gpu = line_of("gpu solver");
  CHECK(std::count(gpu.begin(), gpu.end(), '%') == 1);
  CHECK_FALSE(contains(gpu, "x  "));
  CHECK(contains(table, "tridiagonal, thomas (cpu): two passes, 64 B/unknown"));
  CHECK(contains(table, "tridiagonal, skipped (cpu): not built in, see the README"));
}

TEST_CASE("the CSV: every field, the derived columns, quotes around commas") {
  TempDir dir;
  const std::string path = (dir / "bench.csv").string();
  fhn::bench::write_csv(path, hand_made_rows());
  std::string header;
  const auto rows = read_csv(path, &header);
  CHECK(header ==
        "kernel,variant,device,n,median_ms,min_ms,max_ms,repetitions,bytes,gb_per_s,"
        "percent_of_copy,speed_up,check,baseline,note");
  REQUIRE(rows.size() == 7);
  const auto thomas = find_row(rows, "thomas");
  CHECK(thomas.at("n") == "1024");
  CHECK(thomas.at("median_ms") == "0.005");
  CHECK(thomas.at("min_ms") == "0.0025");
  CHECK(thomas.at("repetitions") == "5");
  CHECK(std::stod(thomas.at("gb_per_s")) == doctest::Approx(8.192));
  CHECK(std::stod(thomas.at("percent_of_copy")) == doctest::Approx(50.0));
  CHECK(std::stod(thomas.at("speed_up")) == doctest::Approx(2.0));
  CHECK(thomas.at("baseline") == "lapack dgtsv");
  CHECK(thomas.at("note") == "two passes, 64 B/unknown");  // was quoted: it has a comma
  CHECK(contains(fhn::test::read_text(path), "\"two passes, 64 B/unknown\""));

  const auto gpu = find_row(rows, "gpu solver");
  CHECK(gpu.at("percent_of_copy").empty());
  CHECK(gpu.at("speed_up").empty());
  const auto skipped = find_row(rows, "skipped");
  CHECK(skipped.at("median_ms").empty());
  CHECK(skipped.at("gb_per_s").empty());
  CHECK(skipped.at("repetitions") == "0");
  CHECK(std::stod(find_row(rows, "broken").at("check")) == 0.5);
}

TEST_CASE("--sizes: n, 2^k and 2^a..2^b; what is wrong with a bad one") {
  std::vector<index_t> sizes;
  CHECK(fhn::bench::parse_sizes("4096", sizes).empty());
  CHECK(fhn::bench::parse_sizes("2^3", sizes).empty());
  CHECK(fhn::bench::parse_sizes("2^10..2^13", sizes).empty());
  CHECK(sizes == std::vector<index_t>{4096, 8, 1024, 2048, 4096, 8192});
  CHECK(fhn::bench::default_sizes() ==
        std::vector<index_t>{1 << 10, 1 << 12, 1 << 14, 1 << 16, 1 << 18, 1 << 20, 1 << 22,
                             1 << 24, 1 << 26});
  CHECK(contains(fhn::bench::parse_sizes("2^29", sizes), "'2^29' is too large"));
  CHECK(contains(fhn::bench::parse_sizes("1000..4096", sizes), "power of two"));
  CHECK(contains(fhn::bench::parse_sizes("2^12..2^10", sizes), "larger than its last"));
}

TEST_CASE("fhn bench --cpu-only: every CPU variant checked, timed and written to the CSV") {
  TempDir dir;
  const std::string csv = (dir / "bench.csv").string();
  const auto r =
      run_cli({"bench", "--sizes", "2^10", "--cpu-only", "--repetitions", "3", "--csv", csv});
  INFO(r.out, r.err);
  REQUIRE(r.code == 0);
  // The table comes last.
  CHECK(contains(r.out, "tridiagonal"));
  CHECK(r.out.find("csv: " + csv) < r.out.find("median ms"));

  double one[4] = {0.0, 1.0, 0.0, 1.0};
  std::string why_not;
  const bool lapack = fhn::bench::lapack_dgtsv(1, &one[0], &one[1], &one[2], &one[3], why_not);
  const auto rows = read_csv(csv);
  std::vector<std::string> measured{"memcpy", "thomas", "forward euler"};
  if (lapack) measured.push_back("lapack dgtsv");
  for (const std::string& variant : measured) {
    const auto row = find_row(rows, variant);
    INFO(variant);
    CHECK(row.at("device") == "cpu");
    CHECK(row.at("n") == "1024");
    CHECK(row.at("repetitions") == "3");
    CHECK(std::stod(row.at("median_ms")) > 0.0);
    CHECK(std::stod(row.at("check")) < 1e-12);
  }
  CHECK(find_row(rows, "forward euler").at("kernel") == "explicit step");
  if (lapack) {
    CHECK(!find_row(rows, "thomas").at("speed_up").empty());
  } else {
    CHECK(contains(find_row(rows, "lapack dgtsv").at("note"), "LAPACK was not found"));
  }
}

TEST_CASE("fhn bench --only: the kinds named and the copy, their baseline; unknown kinds refused") {
  TempDir dir;
  const std::string csv = (dir / "bench.csv").string();
  const auto r = run_cli({"bench", "--sizes", "2^10", "--cpu-only", "--repetitions", "3", "--only",
                          "explicit step", "--csv", csv});
  INFO(r.out, r.err);
  REQUIRE(r.code == 0);
  std::set<std::string> kinds;
  for (const auto& row : read_csv(csv)) kinds.insert(row.at("kernel"));
  CHECK(kinds == std::set<std::string>{"copy", "explicit step"});
  const auto bad = run_cli({"bench", "--cpu-only", "--only", "boxes"});
  CHECK(bad.code == 2);
  CHECK(contains(bad.err, "--only: boxes not in {copy,tridiagonal,"));
}

TEST_CASE("fhn bench: bad sizes are usage errors that name the value") {
  for (const char* bad : {"0", "-5", "abc", "2^29", "300000000", "2^x", "2^20..2^10"}) {
    INFO(bad);
    const auto r = run_cli({"bench", "--cpu-only", "--sizes", "2^10", bad});
    CHECK(r.code == 2);
    CHECK(contains(r.err, std::string("'") + bad + "'"));
  }
  const auto both = run_cli({"bench", "--cpu-only", "--gpu-only"});
  CHECK(both.code == 2);
  const auto max_n = run_cli({"bench", "--cpu-max-n", "2^40"});
  CHECK(max_n.code == 2);
  CHECK(contains(max_n.err, "'2^40' is too large"));
}

TEST_CASE("fhn bench --gpu-only without CUDA says why, exit code 5") {
  if (fhn::cuda_compiled()) return;  // would time the GPU: not a unit test
  const auto r = run_cli({"bench", "--gpu-only", "--sizes", "2^10"});
  CHECK(r.code == 5);
  CHECK(contains(r.out, "CUDA is not compiled"));
}

// The framework of `fhn bench`: statistics, the derived columns (GB/s, % of copy, speed-up),
// the table, the CSV and the driver. The measurements themselves are in cpu_bench.cpp and
// cuda/gpu_bench.cu.
#include "bench/bench.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <fstream>
#include <limits>
#include <ostream>
#include <sstream>
#include <thread>

#include "core/error.hpp"
#include "core/format.hpp"
#include "io/atomic_file.hpp"

namespace fhn::bench {

Timing summarize(std::vector<double>& times_ms) {
  Timing t;
  t.repetitions = static_cast<int>(times_ms.size());
  if (times_ms.empty()) return t;
  std::sort(times_ms.begin(), times_ms.end());
  const std::size_t mid = times_ms.size() / 2;
  t.median_ms =
      times_ms.size() % 2 == 1 ? times_ms[mid] : 0.5 * (times_ms[mid - 1] + times_ms[mid]);
  t.min_ms = times_ms.front();
  t.max_ms = times_ms.back();
  return t;
}

bool check_failed(const BenchRow& row) { return !(row.check <= kCheckTolerance); }  // NaN fails

namespace {

constexpr double kBlank = std::numeric_limits<double>::quiet_NaN();

bool measured(const BenchRow& row) { return row.time.repetitions > 0 && row.time.median_ms > 0.0; }

// GB/s, % of copy and speed-up of one row; NaN where the column stays blank.
struct Derived {
  double gb_per_s = kBlank;
  double percent_of_copy = kBlank;
  double speed_up = kBlank;
};

// The roofline of a device: the copy row with the largest n measured on it.
const BenchRow* copy_row(const std::vector<BenchRow>& rows, const std::string& device) {
  const BenchRow* best = nullptr;
  for (const BenchRow& r : rows)
    if (r.kernel == "copy" && r.device == device && measured(r) && (!best || r.n > best->n))
      best = &r;
  return best;
}

// The row `row` is compared with: variant == row.baseline, same device and n; a row of the same
// kernel first, else of another (a Newton iteration against one solve, a solve with transfers
// against the same solve without).
const BenchRow* baseline_row(const std::vector<BenchRow>& rows, const BenchRow& row) {
  if (row.baseline.empty()) return nullptr;
  const BenchRow* other_kernel = nullptr;
  for (const BenchRow& r : rows) {
    if (r.variant != row.baseline || r.device != row.device || r.n != row.n || !measured(r))
      continue;
    if (r.kernel == row.kernel) return &r;
    if (!other_kernel) other_kernel = &r;
  }
  return other_kernel;
}

std::vector<Derived> derive(const std::vector<BenchRow>& rows) {
  std::vector<Derived> derived(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const BenchRow& row = rows[i];
    if (!measured(row)) continue;
    Derived& d = derived[i];
    d.gb_per_s = gigabytes_per_second(row);
    if (const BenchRow* copy = copy_row(rows, row.device))
      d.percent_of_copy = 100.0 * d.gb_per_s / gigabytes_per_second(*copy);
    if (const BenchRow* base = baseline_row(rows, row))
      d.speed_up = base->time.median_ms / row.time.median_ms;
  }
  return derived;
}

std::string printf_text(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

// `digits` significant digits in fixed notation: 0.0000312, 1.23, 123.
std::string significant(double value, int digits) {
  if (std::isnan(value)) return "";
  if (value == 0.0) return "0";
  const int magnitude = static_cast<int>(std::floor(std::log10(std::abs(value))));
  const int decimals = std::clamp(digits - 1 - magnitude, 0, 9);
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

bool is_power_of_two(index_t n) { return n > 0 && (n & (n - 1)) == 0; }

// 2^k for powers of two, else the number.
std::string size_text(index_t n) {
  if (is_power_of_two(n)) {
    int k = 0;
    while ((index_t{1} << k) < n) ++k;
    return "2^" + std::to_string(k);
  }
  return std::to_string(n);
}

std::string check_text(const BenchRow& row) {
  if (!measured(row)) return "";
  if (check_failed(row)) return "FAILED (" + printf_text("%.1e", row.check) + ")";
  return row.check == 0.0 ? "0" : printf_text("%.1e", row.check);
}

// Rows in table order: by kernel, then n, then device (kernels and devices in the order they
// first appear); the variants of one group keep their order.
std::vector<std::size_t> table_order(const std::vector<BenchRow>& rows) {
  auto first_index = [&](auto field_of, const BenchRow& row) {
    std::size_t i = 0;
    while (field_of(rows[i]) != field_of(row)) ++i;
    return i;
  };
  auto kernel_of = [](const BenchRow& r) { return r.kernel; };
  auto device_of = [](const BenchRow& r) { return r.device; };
  std::vector<std::size_t> order(rows.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const BenchRow& x = rows[a];
    const BenchRow& y = rows[b];
    const std::size_t kx = first_index(kernel_of, x), ky = first_index(kernel_of, y);
    if (kx != ky) return kx < ky;
    if (x.n != y.n) return x.n < y.n;
    return first_index(device_of, x) < first_index(device_of, y);
  });
  return order;
}

// RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled.
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

std::string csv_number(double value) { return std::isnan(value) ? "" : format_exact(value); }

// "AMD EPYC, 2 hardware threads" where /proc/cpuinfo says so.
std::string cpu_description() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line, model;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos) {
      model = line.substr(line.find(':') + 2);
      break;
    }
  }
  const unsigned threads = std::thread::hardware_concurrency();
  std::string text = model.empty() ? "cpu" : model;
  if (threads > 0) text += ", " + std::to_string(threads) + " hardware threads";
  return text;
}

std::string sizes_text(const std::vector<index_t>& sizes) {
  std::string text;
  for (index_t n : sizes) text += (text.empty() ? "" : " ") + size_text(n);
  return text;
}

}  // namespace

std::vector<index_t> default_sizes() {
  std::vector<index_t> sizes;
  for (int k = 10; k <= 26; k += 2) sizes.push_back(index_t{1} << k);
  return sizes;
}

namespace {

// One size, "4096" or "2^12": "" when valid, else what is wrong with it.
std::string parse_size(const std::string& text, index_t& n) {
  const std::string quoted = "'" + text + "'";
  const std::string limit = "n must be at most 2^28 = " + std::to_string(kMaxBenchSize);
  const bool power = text.rfind("2^", 0) == 0;
  std::string digits = power ? text.substr(2) : text;
  const bool negative = !digits.empty() && digits[0] == '-';
  if (negative) digits.erase(0, 1);
  const auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
  if (digits.empty() || !std::all_of(digits.begin(), digits.end(), is_digit))
    return quoted + " is not a size: write n, 2^k or a range 2^a..2^b";
  if (negative) return quoted + " is negative: n must be at least 2";
  if (digits.size() > 12) return quoted + " is too large: " + limit;
  const long long value = std::stoll(digits);
  if (power && value > 28) return quoted + " is too large: " + limit;
  n = power ? index_t{1} << value : static_cast<index_t>(value);
  if (n < 2) return quoted + " is too small: n must be at least 2";
  if (n > kMaxBenchSize) return quoted + " is too large: " + limit;
  return "";
}

}  // namespace

std::string parse_sizes(const std::string& text, std::vector<index_t>& sizes) {
  const std::size_t dots = text.find("..");
  index_t first = 0, last = 0;
  if (dots == std::string::npos) {
    std::string error = parse_size(text, first);
    if (error.empty()) sizes.push_back(first);
    return error;
  }
  for (const auto& [part, n] : {std::pair{text.substr(0, dots), &first},
                                std::pair{text.substr(dots + 2), &last}}) {
    std::string error = parse_size(part, *n);
    if (!error.empty()) return "in the range '" + text + "': " + error;
  }
  if (!is_power_of_two(first) || !is_power_of_two(last))
    return "'" + text + "': a range runs from a power of two to a power of two (2^a..2^b)";
  if (first > last) return "'" + text + "': the range's first size is larger than its last";
  for (index_t n = first; n <= last; n *= 2) sizes.push_back(n);
  return "";
}

double gigabytes_per_second(const BenchRow& row) {
  return row.time.median_ms > 0.0 ? row.bytes / (row.time.median_ms * 1e6) : 0.0;
}

void print_table(std::ostream& out, const std::vector<BenchRow>& rows) {
  const std::vector<std::string> header{"kernel",   "variant", "device",    "n",
                                        "median ms", "spread", "GB/s",      "% of copy",
                                        "speed-up", "check"};
  const std::vector<bool> right{false, false, false, true, true, true, true, true, true, false};
  const std::vector<Derived> derived = derive(rows);
  const std::vector<std::size_t> order = table_order(rows);

  std::vector<std::vector<std::string>> cells;
  for (std::size_t i : order) {
    const BenchRow& r = rows[i];
    const Derived& d = derived[i];
    const bool m = measured(r);
    cells.push_back(
        {r.kernel, r.variant, r.device, size_text(r.n), m ? significant(r.time.median_ms, 3) : "-",
         m ? printf_text("%.0f%%", 100.0 * (r.time.max_ms - r.time.min_ms) / r.time.median_ms) : "",
         significant(d.gb_per_s, 3),
         std::isnan(d.percent_of_copy) ? "" : printf_text("%.0f%%", d.percent_of_copy),
         std::isnan(d.speed_up) ? "" : printf_text("%.2fx", d.speed_up), check_text(r)});
  }

  std::vector<std::size_t> width(header.size());
  for (std::size_t c = 0; c < header.size(); ++c) {
    width[c] = header[c].size();
    for (const auto& row : cells) width[c] = std::max(width[c], row[c].size());
  }
  auto print_line = [&](const std::vector<std::string>& line) {
    std::string text;
    for (std::size_t c = 0; c < line.size(); ++c) {
      const std::string pad(width[c] - line[c].size(), ' ');
      text += (c == 0 ? "" : "  ") + (right[c] ? pad + line[c] : line[c] + pad);
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out << text << "\n";
  };
  std::size_t total = 2 * (header.size() - 1);
  for (std::size_t w : width) total += w;
  const std::string rule(total, '-');

  print_line(header);
  for (std::size_t k = 0; k < cells.size(); ++k) {
    if (k == 0 || rows[order[k]].kernel != rows[order[k - 1]].kernel) out << rule << "\n";
    print_line(cells[k]);
  }
  out << rule << "\n";

  // Notes: each distinct one once, with the variants it belongs to.
  std::vector<std::pair<std::string, std::string>> notes;  // (who, note)
  for (std::size_t i : order) {
    const BenchRow& r = rows[i];
    if (r.note.empty()) continue;
    const std::string who = r.kernel + ", " + r.variant + " (" + r.device + ")";
    const bool seen = std::any_of(notes.begin(), notes.end(), [&](const auto& note) {
      return note.first == who && note.second == r.note;
    });
    if (!seen) notes.emplace_back(who, r.note);
  }
  out << "median ms: per call; spread: (max - min) / median; GB/s: the kernel's byte model / "
         "median; % of copy: of the\ncopy bandwidth on the same device at the largest n; "
         "speed-up: baseline median / median; check: max\nrelative difference from the reference "
         "(FAILED above "
      << format_exact(kCheckTolerance) << ").\n";
  for (const auto& [who, note] : notes) out << "  " << who << ": " << note << "\n";
}

void write_csv(const std::string& path, const std::vector<BenchRow>& rows) {
  const std::vector<Derived> derived = derive(rows);
  std::ostringstream csv;
  csv << "kernel,variant,device,n,median_ms,min_ms,max_ms,repetitions,bytes,gb_per_s,"
         "percent_of_copy,speed_up,check,baseline,note\n";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const BenchRow& r = rows[i];
    const Derived& d = derived[i];
    const bool m = measured(r);
    csv << csv_field(r.kernel) << ',' << csv_field(r.variant) << ',' << csv_field(r.device) << ','
        << r.n << ',' << csv_number(m ? r.time.median_ms : kBlank) << ','
        << csv_number(m ? r.time.min_ms : kBlank) << ',' << csv_number(m ? r.time.max_ms : kBlank)
        << ',' << r.time.repetitions << ',' << csv_number(r.bytes) << ','
        << csv_number(d.gb_per_s) << ',' << csv_number(d.percent_of_copy) << ','
        << csv_number(d.speed_up) << ',' << csv_number(m ? r.check : kBlank) << ','
        << csv_field(r.baseline) << ',' << csv_field(r.note) << '\n';
  }
  write_file_atomically(path, csv.str());
}

int run_bench(const BenchOptions& options, std::ostream& out) {
  // 1. Say what runs.
  out << "fhn bench: n = " << sizes_text(options.sizes) << "; up to " << options.repetitions
      << " repetitions; kinetics form " << kinetics_name(options.kinetics) << " ("
      << kinetics_parameters_text(options.kinetics) << ")\n";
  if (options.cpu)
    out << "  cpu: " << cpu_description() << "; single-threaded variants up to n = "
        << size_text(options.cpu_max_n) << "\n";
  out.flush();

  // 2. The CPU part, then the GPU part.
  std::vector<BenchRow> rows;
  if (options.cpu) run_cpu_benchmarks(options, rows);
  bool gpu_ran = false;
  std::exception_ptr gpu_error;
  if (options.gpu) {
    std::string why_not;
    try {
      gpu_ran = run_gpu_benchmarks(options, rows, why_not);
    } catch (const Error& e) {  // keep what was measured; report the error after the table
      why_not = e.what();
      gpu_error = std::current_exception();
    }
    if (!gpu_ran) out << "  gpu: not run: " << why_not << "\n";
  }

  // 3. The CSV, then the table last (also when the CSV cannot be written).
  std::exception_ptr csv_error;
  if (!options.csv.empty()) {
    try {
      write_csv(options.csv, rows);
      out << "  csv: " << options.csv << "\n";
    } catch (const Error&) {
      csv_error = std::current_exception();
    }
  }
  out << "\n";
  print_table(out, rows);

  // 4. The exit code: errors first, then failed checks, then "nothing could run".
  if (gpu_error) std::rethrow_exception(gpu_error);
  if (csv_error) std::rethrow_exception(csv_error);
  const auto failed = [](const BenchRow& r) { return measured(r) && check_failed(r); };
  if (std::any_of(rows.begin(), rows.end(), failed))
    return static_cast<int>(ExitCode::numerical);
  if (!options.cpu && !gpu_ran) return static_cast<int>(ExitCode::device);
  return 0;
}

}  // namespace fhn::bench

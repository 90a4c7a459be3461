#include "study/restitution.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "core/error.hpp"
#include "core/format.hpp"
#include "io/atomic_file.hpp"
#include "io/csv_resume.hpp"

namespace fhn {
namespace {

// The time where v reaches `level` between the samples (t0, v0) and (t1, v1), linear in time.
real crossing(real t0, real v0, real t1, real v1, real level) {
  return t0 + (level - v0) / (v1 - v0) * (t1 - t0);
}

// A time, or an empty field where there is none yet.
std::string field(real t) { return std::isnan(t) ? std::string() : format_exact(t); }

real distance(const Point& a, const Point& b) {
  real sum = 0.0;
  for (int i = 0; i < kMaxAxes; ++i) sum += (b[i] - a[i]) * (b[i] - a[i]);
  return std::sqrt(sum);
}

// DI_n = t_act,n+1 - t_rep,n (NaN for the last beat, or an unfinished one).
real diastolic_interval(const std::vector<Beat>& beats, std::size_t n) {
  return n + 1 < beats.size() ? beats[n + 1].activation - beats[n].repolarisation : kNoTime;
}

}  // namespace

void BeatDetector::add(real t, real v) {
  if (!started_) {
    started_ = true;
    v_min_ = v;
  } else if (!excited_) {
    if (v_prev_ < threshold_ && v >= threshold_) {
      beats_.push_back({crossing(t_prev_, v_prev_, t, v, threshold_), kNoTime, v_min_, v});
      excited_ = true;
    } else {
      v_min_ = std::min(v_min_, v);
    }
  } else {
    Beat& beat = beats_.back();
    beat.v_peak = std::max(beat.v_peak, v);
    const real v_rep = beat.v_peak - level_ * (beat.v_peak - beat.v_rest);
    if (v_prev_ >= v_rep && v < v_rep) {
      beat.repolarisation = crossing(t_prev_, v_prev_, t, v, v_rep);
      excited_ = false;
      v_min_ = v;
    }
  }
  t_prev_ = t;
  v_prev_ = v;
}

RestitutionTracker::RestitutionTracker(const std::vector<Point>& positions, int dims,
                                       real threshold, real level)
    : positions_(positions),
      dims_(dims),
      threshold_(threshold),
      level_(level),
      probes_(positions.size(), BeatDetector(threshold, level)) {}

void RestitutionTracker::add(real t, const std::vector<real>& v) {
  for (std::size_t k = 0; k < probes_.size(); ++k) probes_[k].add(t, v[k]);
}

// probes.csv's row: t, then v and w of each probe.
void RestitutionTracker::replay(const std::filesystem::path& probes_csv) {
  std::vector<real> v(probes_.size());
  for_each_row(probes_csv, [&](const std::string& row, real t) {
    std::size_t at = row.find(',');
    for (std::size_t k = 0; k < v.size(); ++k) {
      if (at == std::string::npos)
        throw IoError(probes_csv.string() + ": a row has fewer columns than the probes: " + row);
      v[k] = std::strtod(row.c_str() + at + 1, nullptr);
      at = row.find(',', row.find(',', at + 1) + 1);  // past w
    }
    add(t, v);
  });
}

void RestitutionTracker::write(const std::filesystem::path& dir) const {
  static const char* const kAxes[] = {"x", "y", "z"};
  std::string text = "probe";
  for (int a = 0; a < dims_; ++a) text += std::string(",") + kAxes[a];
  text += ",beat,activation,repolarisation,apd,di,v_rest,v_peak\n";
  for (std::size_t k = 0; k < probes_.size(); ++k) {
    std::string where;
    for (int a = 0; a < dims_; ++a) where += "," + format_exact(positions_[k][a]);
    const std::vector<Beat>& beats = probes_[k].beats();
    for (std::size_t n = 0; n < beats.size(); ++n) {
      const Beat& b = beats[n];
      text += std::to_string(k) + where + "," + std::to_string(n) + "," + field(b.activation) +
              "," + field(b.repolarisation) + "," + field(b.repolarisation - b.activation) + "," +
              field(diastolic_interval(beats, n)) + "," + format_exact(b.v_rest) + "," +
              format_exact(b.v_peak) + "\n";
    }
  }
  write_file_atomically(dir / "restitution.csv", text);

  std::string cv = "from,to,beat,distance,activation_from,activation_to,cv\n";
  for (std::size_t k = 0; k + 1 < probes_.size(); ++k) {
    const std::vector<Beat>& a = probes_[k].beats();
    const std::vector<Beat>& b = probes_[k + 1].beats();
    const real d = distance(positions_[k], positions_[k + 1]);
    for (std::size_t n = 0; n < std::min(a.size(), b.size()); ++n)
      cv += std::to_string(k) + "," + std::to_string(k + 1) + "," + std::to_string(n) + "," +
            format_exact(d) + "," + format_exact(a[n].activation) + "," +
            format_exact(b[n].activation) + "," +
            format_exact(d / (b[n].activation - a[n].activation)) + "\n";
  }
  write_file_atomically(dir / "cv.csv", cv);
}

void RestitutionTracker::add_summary(JsonObject& summary) const {
  std::vector<JsonObject> probes;
  for (std::size_t k = 0; k < probes_.size(); ++k) {
    const std::vector<Beat>& beats = probes_[k].beats();
    JsonObject p;
    p.add("probe", static_cast<index_t>(k)).add("beats", static_cast<index_t>(beats.size()));
    // The last beat with an APD, and the last DI (the interval before the last beat).
    real apd = kNoTime, di = kNoTime;
    for (std::size_t n = 0; n < beats.size(); ++n) {
      if (!std::isnan(beats[n].repolarisation))
        apd = beats[n].repolarisation - beats[n].activation;
      if (!std::isnan(diastolic_interval(beats, n))) di = diastolic_interval(beats, n);
    }
    p.add("last_apd", apd).add("last_di", di);
    probes.push_back(p);
  }
  std::vector<JsonObject> pairs;
  for (std::size_t k = 0; k + 1 < probes_.size(); ++k) {
    const std::vector<Beat>& a = probes_[k].beats();
    const std::vector<Beat>& b = probes_[k + 1].beats();
    const std::size_t both = std::min(a.size(), b.size());
    const real d = distance(positions_[k], positions_[k + 1]);
    JsonObject pair;
    pair.add("from", static_cast<index_t>(k))
        .add("to", static_cast<index_t>(k + 1))
        .add("distance", d)
        .add("beats", static_cast<index_t>(both))
        .add("last_cv", both > 0 ? d / (b[both - 1].activation - a[both - 1].activation) : kNoTime);
    pairs.push_back(pair);
  }
  JsonObject r;
  r.add("threshold", threshold_).add("level", level_).add("probes", probes).add("cv", pairs);
  summary.add("restitution", r);
}

}  // namespace fhn

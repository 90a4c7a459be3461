#include "io/newton_csv.hpp"

#include <cerrno>
#include <cstring>

#include "core/error.hpp"
#include "core/format.hpp"
#include "io/csv_resume.hpp"

namespace fhn {

NewtonCsvWriter::NewtonCsvWriter(const std::filesystem::path& file, bool append, bool stages)
    : path_(file),
      stages_(stages),
      out_(open_csv(file, stages ? "step,iteration,du_inf,residual_inf,stage\n"
                                 : "step,iteration,du_inf,residual_inf\n",
                    append)) {}

void NewtonCsvWriter::record(const NewtonIteration& it) {
  check(std::fprintf(out_.get(), "%lld,%lld,%s,%s", static_cast<long long>(it.step),
                     static_cast<long long>(it.iteration), format_exact(it.du_inf).c_str(),
                     format_exact(it.residual_inf).c_str()));
  check(stages_ ? std::fprintf(out_.get(), ",%d\n", it.stage) : std::fprintf(out_.get(), "\n"));
}

void NewtonCsvWriter::write(const FrameView&) { check(std::fflush(out_.get())); }

void NewtonCsvWriter::finish() { check(std::fflush(out_.get())); }
void NewtonCsvWriter::save(SchemeState&) { check(std::fflush(out_.get())); }

void NewtonCsvWriter::check(int status) {
  if (status < 0) throw IoError(path_.string() + ": write failed (" + std::strerror(errno) + ")");
}

}  // namespace fhn

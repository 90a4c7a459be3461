#include "io/resampled_sink.hpp"

#include <utility>

#include "grid/adaptive_grid.hpp"

namespace fhn {
namespace {

class ResamplingSink final : public FrameSink {
 public:
  ResamplingSink(std::unique_ptr<FrameSink> inner, std::vector<real> nodes)
      : inner_(std::move(inner)), nodes_(std::move(nodes)) {}

  void write(const FrameView& frame) override {
    const std::vector<real> v = interpolate_onto(frame.x, frame.v, frame.n, nodes_);
    const std::vector<real> w = interpolate_onto(frame.x, frame.w, frame.n, nodes_);
    FrameView resampled = frame;
    resampled.n = static_cast<index_t>(nodes_.size());
    resampled.x = nodes_.data();
    resampled.v = v.data();
    resampled.w = w.data();
    inner_->write(resampled);
  }
  void finish() override { inner_->finish(); }

 private:
  std::unique_ptr<FrameSink> inner_;
  std::vector<real> nodes_;
};

}  // namespace

std::unique_ptr<FrameSink> make_resampling_sink(std::unique_ptr<FrameSink> inner,
                                                std::vector<real> nodes) {
  return std::make_unique<ResamplingSink>(std::move(inner), std::move(nodes));
}

}  // namespace fhn

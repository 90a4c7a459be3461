#pragma once
// Building blocks of the CUDA schemes: the members of a sweep as kernels see them (Members), the
// solution fields on the device, the stimulus table on the device, and the NaN/Inf search.
#include <cstdint>
#include <string>
#include <vector>

#include "core/cuda/device_buffer.hpp"
#include "core/cuda/launch.hpp"
#include "model/problem.hpp"
#include "parallel/decomposition.hpp"
#include "schemes/cuda/device_activation.cuh"
#include "schemes/node_updates.hpp"
#include "schemes/scheme.hpp"

namespace fhn::cuda {

// The members of a sweep (schemes/cuda/member_batch_cuda.cuh) as the kernels see them: flat
// launches over members x pitch entries, thread g = m pitch + i (32-bit: a batch holds
// fewer than 2^31 entries, checked at construction).
struct Members {
  unsigned count = 0;  // members
  unsigned pitch = 0;  // entries per member (n rounded up to even)
  unsigned n = 0;      // nodes per member
  const NodeParams* params = nullptr;  // device, one per member
  StimulusTable stimuli;               // device table of count x stimuli.count entries

  __device__ unsigned member(unsigned g) const { return g / pitch; }
  __device__ StimulusTable stimuli_of(unsigned m) const {
    StimulusTable st = stimuli;
    st.table += static_cast<std::size_t>(m) * st.count;
    return st;
  }
};

// Name of the current device, for scheme descriptions and run.log.
std::string current_device_name();

// v and w on the device for the whole run; copied to the host only for frames and checks.
// Either the whole problem's nodes, or one rank's slab (parallel/decomposition.hpp): arrays of
// slab.array_nodes() values, owned planes and halo planes. Snapshots, checkpoints and the NaN
// search cover the owned nodes only (all of them for the whole problem). Besides, the problem's
// per-node parameter fields and node-type mask (model/parameter_fields.hpp), laid out like v and
// w, each uploaded once; a uniform field allocates nothing (the kernels read the scalars).
class DeviceFields {
 public:
  // The whole problem: v0 and w0.
  explicit DeviceFields(const Problem& problem);
  // Rank slab.rank's slab: the array planes inside the domain from the problem's v0 and w0
  // (owned and halo planes), those outside it (halos beyond the domain's ends) zero.
  DeviceFields(const Problem& problem, const Slab& slab);

  const Slab& slab() const { return slab_; }
  index_t owned_nodes() const { return slab_.owned_nodes(); }
  real* v() { return v_.data(); }
  real* w() { return w_.data(); }
  const real* v() const { return v_.data(); }
  const real* w() const { return w_.data(); }
  DeviceBuffer<real>& v_buffer() { return v_; }
  DeviceBuffer<real>& w_buffer() { return w_; }
  // The per-node values of D, of the p-th parameter of the run's form (its parameters() order)
  // and the node types; nullptr where uniform (every node tissue, for the mask).
  const real* diffusion_values() const { return diffusion_.data(); }
  const real* parameter_values(std::size_t p) const {
    return p < parameters_.size() ? parameters_[p].data() : nullptr;
  }
  const std::uint8_t* node_types() const { return node_types_.data(); }
  // Every node's quadrant byte (model/tissue.hpp) of a whole sheet whose fields are not uniform;
  // nullptr otherwise.
  const std::uint8_t* quadrants() const { return quadrants_.data(); }
  // What the heterogeneous sheet kernel reads (schemes/node_updates.hpp): the device copies of
  // the per-node arrays and `problem`'s constants (a whole sheet with fields).
  MediumView medium(const Problem& problem) const;

  // Copies the owned v and w to the host, with the problem's domain (synchronises).
  void download(const Problem& problem, index_t step, Snapshot& out) const;
  // Adds "v" and "w" to a checkpoint state / loads them back (synchronises).
  void save(SchemeState& state) const;
  void restore(const SchemeState& state);
  // The same for another array laid out like v and w (the slab's array nodes, e.g. the
  // leapfrog's previous w): its owned nodes as `name` (synchronises).
  void save_array(SchemeState& state, const std::string& name,
                  const DeviceBuffer<real>& array) const;
  void restore_array(const SchemeState& state, const std::string& name,
                     DeviceBuffer<real>& array) const;
  // Index of the first owned node with v or w not finite, or -1 (one reduction, 8 bytes back).
  index_t first_non_finite() const;
  // v and w at a few owned nodes (Scheme::read_nodes): the indices up, one gather kernel, 16
  // bytes a node back (synchronises).
  void read_nodes(const std::vector<index_t>& nodes, std::vector<real>& v,
                  std::vector<real>& w) const;

 private:
  // The owned nodes of an array laid out like v and w, on the host (synchronises).
  std::vector<real> owned_to_host(const DeviceBuffer<real>& array) const;

  Slab slab_;
  DeviceBuffer<real> v_, w_;
  mutable DeviceBuffer<unsigned long long> first_bad_;
  mutable DeviceBuffer<index_t> read_at_;    // read_nodes' indices and values, kept between calls
  mutable DeviceBuffer<real> read_values_;
  DeviceBuffer<real> diffusion_;
  std::vector<DeviceBuffer<real>> parameters_;  // one per kinetics field, empty where uniform
  DeviceBuffer<std::uint8_t> node_types_;
  DeviceBuffer<real> tensor_xx_, tensor_xy_, tensor_yy_;  // empty unless the fibre angle varies
  DeviceBuffer<std::uint8_t> quadrants_;
};

// A device array's content on the host (synchronises).
std::vector<real> to_host(const DeviceBuffer<real>& buffer);

// The stimulus table on the device, uploaded once; the kernels compute each step's currents from
// it (stimulus_current in model/stimulus.hpp).
class DeviceStimuli {
 public:
  explicit DeviceStimuli(const StimulusSchedule& schedule);
  // The table in device memory as the kernels read it (count 0 when there are no stimuli).
  StimulusTable view() const { return {table_.data(), count_, dt_, tolerance_}; }

 private:
  int count_ = 0;
  real dt_ = 0.0, tolerance_ = 0.0;
  DeviceBuffer<NodeStimulus> table_;
};

// What every device-resident scheme shares: the problem, v and w on the device, the stimulus
// table, the step counter, and the Scheme methods that need nothing else. A subclass implements
// name() and advance() (and keeps whatever else its state needs).
class DeviceScheme : public Scheme {
 public:
  explicit DeviceScheme(const Problem& problem)
      : problem_(problem), fields_(problem), stimuli_(problem.stimuli), device_name_(current_device_name()) {}
  // The scheme of one rank's slab: its Scheme methods cover the owned nodes (make_slab_scheme).
  DeviceScheme(const Problem& problem, const Slab& slab)
      : problem_(problem),
        fields_(problem, slab),
        stimuli_(problem.stimuli),
        device_name_(current_device_name()) {}

  index_t node_count() const override { return fields_.owned_nodes(); }
  index_t steps_done() const override { return step_; }
  void synchronize() const override;
  void snapshot(Snapshot& out) const override {
    fields_.download(problem_, step_, out);
    activation_.fill(fields_, out);
  }
  index_t first_non_finite() const override { return fields_.first_non_finite(); }
  void read_nodes(const std::vector<index_t>& nodes, std::vector<real>& v,
                  std::vector<real>& w) const override {
    fields_.read_nodes(nodes, v, w);
  }
  SchemeState save_state() const override {
    SchemeState state;
    state.step = step_;
    fields_.save(state);
    activation_.save(fields_, state);
    return state;
  }
  void restore_state(const SchemeState& state) override {
    fields_.restore(state);
    activation_.restore(fields_, state);
    step_ = state.step;
  }
  void record_activation(real threshold, bool keep_last) override {
    activation_.start(fields_, threshold, keep_last);
  }
  // On the whole sheet or box: one scan kernel (the test of straddling_cells), the cells (a
  // box's faces) and the count copied back (device_iso_cells.cu); a slab's, through the
  // snapshot (the default).
  void iso_cells(real v_iso, real w_iso, const std::uint8_t* skip, const std::uint8_t* outside,
                 std::vector<IsoCell>& cells, index_t& excited) const override;

 protected:
  Problem problem_;
  DeviceFields fields_;
  DeviceStimuli stimuli_;
  std::string device_name_;
  index_t step_ = 0;
  DeviceActivation activation_;  // the activation times, when recording

 private:
  // iso_cells' device side: the masks (uploaded at the first call with them), the cells found
  // and the counts (cells, then the excited nodes in slots).
  mutable DeviceBuffer<std::uint8_t> iso_skip_, iso_outside_;
  mutable DeviceBuffer<IsoCell> iso_found_;
  mutable DeviceBuffer<unsigned long long> iso_counts_;
};

}  // namespace fhn::cuda

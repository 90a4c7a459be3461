#pragma once
// The kinetics forms: the registry. Each form is one header in src/kinetics/ defining a struct
// with its parameters and host/device per-point functions (kinetics/cubic.hpp is the model to
// follow; docs/ARCHITECTURE.md section 4 lists what a form provides). A run picks its form once
// (model.form); the schemes and kernels are templates over the form, instantiated through
// with_kinetics, so no scheme or kernel is written per form.
//
// Adding a form: its header, one entry in `Kinetics` below, and its keys in configs/README.md.
// Nothing else sizes itself per form: the per-node parameter arrays are as many as the largest
// form's table (kMaxFormParameters), and a form without a closed-form trapezoidal w update gets
// the schemes' Newton recovery (schemes/trapezoidal_w_point.hpp).
#include <algorithm>
#include <string>
#include <variant>
#include <vector>

#include "kinetics/aliev_panfilov.hpp"
#include "kinetics/barkley.hpp"
#include "kinetics/cubic.hpp"
#include "kinetics/fitzhugh.hpp"

namespace fhn {

using Kinetics =
    std::variant<CubicKinetics, FitzHughKinetics, BarkleyKinetics, AlievPanfilovKinetics>;

// How many parameters the form K has: the entries of its parameters() table, counted at compile
// time (the table is constexpr; a visitor that counts).
struct CountParameters {
  int* count;
  FHN_HOST_DEVICE constexpr void operator()(const char*, const real&, const Interval&) const {
    ++*count;
  }
};
template <class K>
constexpr int parameter_count() {
  K k{};
  int count = 0;
  K::parameters(k, CountParameters{&count});
  return count;
}

// The most parameters a registered form has: the per-node parameter arrays a kernel carries
// (model/parameter_fields.hpp, kinetics_at). A form with more raises it; there is no other limit.
template <class... Forms>
constexpr int most_parameters(const std::variant<Forms...>*) {
  return std::max({parameter_count<Forms>()...});
}
constexpr int kMaxFormParameters = most_parameters(static_cast<const Kinetics*>(nullptr));

// Calls visit(form) with the run's form as its concrete type (a generic lambda instantiates the
// caller's loop or kernel launch for each form).
template <class Visit>
decltype(auto) with_kinetics(const Kinetics& kinetics, Visit&& visit) {
  return std::visit(std::forward<Visit>(visit), kinetics);
}
template <class Visit>
decltype(auto) with_kinetics(Kinetics& kinetics, Visit&& visit) {
  return std::visit(std::forward<Visit>(visit), kinetics);
}

// The name of the run's form (model.form), e.g. "cubic".
inline std::string kinetics_name(const Kinetics& kinetics) {
  return with_kinetics(kinetics, [](const auto& k) { return std::string(k.kName); });
}

// The form's parameters as a message names them: "a = 0.01, epsilon = 0.01, gamma = 2".
std::string kinetics_parameters_text(const Kinetics& kinetics);

// The names of every form, in registry order.
std::vector<std::string> kinetics_names();

// The form named `name` with its default parameters; false when no form has that name.
bool make_kinetics(const std::string& name, Kinetics& out);

}  // namespace fhn

#pragma once
// The kinetics forms: the registry. Each form is one header in src/kinetics/ defining a struct
// with its parameters and host/device per-point functions (kinetics/cubic.hpp is the model to
// follow; docs/ARCHITECTURE.md section 4 lists what a form provides). A run picks its form once
// (model.form); the schemes and kernels are templates over the form, instantiated through
// with_kinetics, so no scheme or kernel is written per form.
//
// Adding a form: its header, one entry in `Kinetics` below, and its keys in configs/README.md.
#include <string>
#include <variant>
#include <vector>

#include "kinetics/barkley.hpp"
#include "kinetics/cubic.hpp"
#include "kinetics/fitzhugh.hpp"

namespace fhn {

using Kinetics = std::variant<CubicKinetics, FitzHughKinetics, BarkleyKinetics>;

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

#pragma once
// Reading a YAML configuration into a validated Config.
//
// Strict by design: unknown keys, wrong types, out-of-range values, bad enum values and
// inconsistent combinations are all errors. Every message starts with where the value came
// from (file:line:column, or the --set option that supplied it) and names the key, the value
// and what is allowed. All problems found are reported together in one fhn::ConfigError.
#include <string>
#include <vector>

#include "config/config.hpp"

namespace fhn {

// What the running build can do; a config that asks for more is rejected at load time.
struct BuildCapabilities {
  bool vtk = true;
};

// Loads `path`, applies `overrides` ("a.b.c=value", as given to --set), validates, including
// what make_problem would refuse (check_problem, model/problem.hpp), at the key's file:line.
Config load_config(const std::string& path, const std::vector<std::string>& overrides = {},
                   const BuildCapabilities& build = {});

// A key set over the config file, "a.b.c=value" (as --set takes it), and where it was given,
// which messages about the key name: empty for the command line ("--set a.b.c=value"), else the
// place in the file that set it, e.g. "study.yaml:14:11 (methods[1].dt)" for a study's method.
struct Override {
  std::string assignment;
  std::string where;
};
// The command line's --set assignments as Overrides.
std::vector<Override> command_line(const std::vector<std::string>& assignments);

// load_config with overrides that a study or sweep file gave, each named by its place.
Config load_config(const std::string& path, const std::vector<Override>& overrides,
                   const BuildCapabilities& build);

// The text of a config file (ConfigError naming the path when it cannot be read): for loading
// one file many times with different overrides (load_config_text), as a sweep's members do.
std::string read_config_file(const std::string& path);

// The files a loaded config reads besides its own text, absolute, in config order, each once: the
// pictures of `tissue:` and `fields:` (PNG, .vti). A restart checks that their bytes have not
// changed (run/checkpoint.hpp), and a run never writes over one (io/output_folder.hpp).
std::vector<std::string> input_files(const Config& config);

// Same from text; `source` names it in messages (tests and tools use this).
Config load_config_text(const std::string& text, const std::string& source,
                        const std::vector<std::string>& overrides = {},
                        const BuildCapabilities& build = {});

// One config text loaded many times with different overrides (a sweep's members): its limits
// and syntax are checked once, when it is made (ConfigError as load_config_text gives); load()
// is then load_config_text of the text without checking it again (a quarter of a small
// config's load), and without make_problem's refusals (check_problem, model/problem.hpp): a
// sweep makes each member's problem itself and reports one it cannot make in that member's row.
class ConfigText {
 public:
  ConfigText(std::string text, std::string source);
  Config load(const std::vector<Override>& overrides, const BuildCapabilities& build = {}) const;

 private:
  std::string text_, source_;
};

// The resolved configuration (all defaults filled in) as YAML that load_config accepts.
std::string to_yaml(const Config& config);

}  // namespace fhn

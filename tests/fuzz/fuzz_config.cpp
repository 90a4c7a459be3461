// libFuzzer target: the config and study loaders on arbitrary bytes (tools/fuzz runs it).
// Refusing the input with an fhn::Error is the expected outcome for almost every input; a
// finding is anything else: another exception escaping, a crash, a sanitizer report, an input
// slower than -timeout or an allocation beyond -malloc_limit_mb.
#include <cstddef>
#include <cstdint>
#include <string>

#include "config/loader.hpp"
#include "config/study_config.hpp"
#include "core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    fhn::load_config_text(text, "fuzz.yaml");
  } catch (const fhn::Error&) {
  }
  try {
    fhn::load_study_text(text, "fuzz_study.yaml");
  } catch (const fhn::Error&) {
  }
  return 0;
}

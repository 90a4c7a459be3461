#pragma once
// A minimal JSON object writer for summary.json (keys, nested objects and arrays of objects).
// Numbers are written exactly; NaN/Inf become null, as JSON has no such values.
#include <string>
#include <vector>

#include "core/types.hpp"

namespace fhn {

class JsonObject {
 public:
  JsonObject& add(const std::string& key, real value);
  JsonObject& add(const std::string& key, index_t value);
  JsonObject& add(const std::string& key, int value) { return add(key, static_cast<index_t>(value)); }
  JsonObject& add(const std::string& key, bool value);
  JsonObject& add(const std::string& key, const std::string& value);
  JsonObject& add(const std::string& key, const char* value) { return add(key, std::string(value)); }
  JsonObject& add(const std::string& key, const JsonObject& value);
  JsonObject& add(const std::string& key, const std::vector<JsonObject>& values);  // an array
  JsonObject& add_null(const std::string& key);

  std::string str(int indent = 0) const;

 private:
  std::vector<std::pair<std::string, std::string>> members_;  // key -> JSON text
};

std::string json_quote(const std::string& text);

}  // namespace fhn

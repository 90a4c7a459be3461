#include "io/json.hpp"

#include <cmath>
#include <cstdio>

#include "core/format.hpp"

namespace fhn {

std::string json_quote(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c < 0x20) {
          char buffer[8];
          std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
          out += buffer;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

JsonObject& JsonObject::add(const std::string& key, real value) {
  members_.emplace_back(key, std::isfinite(value) ? format_exact(value) : "null");
  return *this;
}
JsonObject& JsonObject::add(const std::string& key, index_t value) {
  members_.emplace_back(key, std::to_string(value));
  return *this;
}
JsonObject& JsonObject::add(const std::string& key, bool value) {
  members_.emplace_back(key, value ? "true" : "false");
  return *this;
}
JsonObject& JsonObject::add(const std::string& key, const std::string& value) {
  members_.emplace_back(key, json_quote(value));
  return *this;
}
JsonObject& JsonObject::add(const std::string& key, const JsonObject& value) {
  members_.emplace_back(key, value.str(0));
  return *this;
}
JsonObject& JsonObject::add(const std::string& key, const std::vector<JsonObject>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i) out += (i > 0 ? "," : "") + values[i].str(0);
  members_.emplace_back(key, out + "]");
  return *this;
}
JsonObject& JsonObject::add_null(const std::string& key) {
  members_.emplace_back(key, "null");
  return *this;
}

std::string JsonObject::str(int indent) const {
  if (members_.empty()) return "{}";
  const std::string pad(static_cast<std::size_t>(indent), ' ');
  const std::string newline = indent > 0 ? "\n" : "";
  std::string out = "{" + newline;
  for (std::size_t i = 0; i < members_.size(); ++i) {
    out += pad + json_quote(members_[i].first) + (indent > 0 ? ": " : ":") + members_[i].second;
    out += (i + 1 < members_.size() ? "," : "") + newline;
  }
  return out + "}";
}

}  // namespace fhn

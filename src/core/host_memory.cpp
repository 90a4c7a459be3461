#include "core/host_memory.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "core/error.hpp"
#include "core/format.hpp"

namespace fhn {
namespace {

real read_number(const std::string& file) {
  std::ifstream in(file);
  std::string text;
  if (!(in >> text) || text == "max") return -1.0;
  try {
    return std::stod(text);
  } catch (const std::exception&) {
    return -1.0;
  }
}

// The value of `key` ("MemAvailable:", "inactive_file") in a "key value [kB]" file; -1 if absent.
real read_field(const std::string& file, const std::string& key) {
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string name;
    real value = 0.0;
    if (words >> name >> value && name == key) return value;
  }
  return -1.0;
}

// What the cgroup limit of this process leaves: limit - (usage - reclaimable page cache); -1
// without a limit. The cgroup's own files are those at the mount's root (a container sees its
// cgroup there).
real cgroup_headroom() {
  const struct {
    const char *limit, *usage, *stat, *inactive;
  } kinds[] = {
      {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current", "/sys/fs/cgroup/memory.stat",
       "inactive_file"},
      {"/sys/fs/cgroup/memory/memory.limit_in_bytes", "/sys/fs/cgroup/memory/memory.usage_in_bytes",
       "/sys/fs/cgroup/memory/memory.stat", "total_inactive_file"}};
  for (const auto& kind : kinds) {
    const real limit = read_number(kind.limit);
    // v1 spells "no limit" as a huge number (the largest page-aligned int64).
    if (limit <= 0.0 || limit >= 1e18) continue;
    const real usage = std::max(0.0, read_number(kind.usage));
    const real reclaimable = std::max(0.0, read_field(kind.stat, kind.inactive));
    return std::max(0.0, limit - std::max(0.0, usage - reclaimable));
  }
  return -1.0;
}

// What this process's address-space and data-segment limits (ulimit -v, RLIMIT_DATA) leave:
// limit - what is mapped already (VmSize, VmData in /proc/self/status); -1 without a limit.
AvailableMemory rlimit_headroom() {
  AvailableMemory headroom;
  const struct {
    int resource;
    const char* mapped;
    const char* source;
  } kinds[] = {{RLIMIT_AS, "VmSize:", "what the address-space limit (ulimit -v) leaves"},
               {RLIMIT_DATA, "VmData:", "what the data-segment limit (ulimit -d) leaves"}};
  for (const auto& kind : kinds) {
    rlimit limit{};
    if (getrlimit(kind.resource, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) continue;
    const real mapped = std::max(0.0, read_field("/proc/self/status", kind.mapped)) * 1024.0;
    const real left = std::max(0.0, static_cast<real>(limit.rlim_cur) - mapped);
    if (headroom.bytes < 0.0 || left < headroom.bytes) headroom = {left, kind.source};
  }
  return headroom;
}

}  // namespace

AvailableMemory available_host_memory() {
  AvailableMemory available;
  const real meminfo = read_field("/proc/meminfo", "MemAvailable:");
  if (meminfo >= 0.0) available = {meminfo * 1024.0, "MemAvailable in /proc/meminfo"};
  const real cgroup = cgroup_headroom();
  if (cgroup >= 0.0 && (available.bytes < 0.0 || cgroup < available.bytes))
    available = {cgroup, "what the cgroup memory limit leaves"};
  const AvailableMemory limit = rlimit_headroom();
  if (limit.bytes >= 0.0 && (available.bytes < 0.0 || limit.bytes < available.bytes))
    available = limit;
  return available;
}

void check_host_memory(real bytes, const std::string& what, const std::string& remedy) {
  const AvailableMemory available = available_host_memory();
  if (available.bytes >= 0.0 && bytes > available.bytes)
    throw ConfigError(what + " needs about " + human_bytes(bytes) + " of host memory but this " +
                      "machine has " + human_bytes(available.bytes) + " available (" +
                      available.source + "); refused before allocating it. " + remedy);
}

}  // namespace fhn

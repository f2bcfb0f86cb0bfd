// Writes a whole file or nothing: data goes to PATH.tmp.PID, then is renamed over PATH, so an
// interrupted run never leaves a truncated result that looks complete.
#pragma once

#include <unistd.h>
#include <cstdio>
#include <string>

#include "common/Error.h"

namespace vgpu {

inline void writeFileAtomically(const std::string& path, const void* data, size_t bytes) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (f == nullptr) throw InputError(path + ": cannot open for writing");
  const bool ok = std::fwrite(data, 1, bytes, f) == bytes && std::fflush(f) == 0;
  if (std::fclose(f) != 0 || !ok) {
    std::remove(tmp.c_str());
    throw InputError(path + ": write failed (disk full?)");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw InputError(path + ": cannot replace the file");
  }
}

inline void writeFileAtomically(const std::string& path, const std::string& text) {
  writeFileAtomically(path, text.data(), text.size());
}

}  // namespace vgpu

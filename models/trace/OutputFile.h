// A trace file written as it is produced, yet atomically: the data streams into PATH.tmp.PID
// (the convention of common/AtomicFile.h) and commit() renames it over PATH. A run that stops
// early (an exception, a crash of the host program) leaves no truncated trace that looks
// complete: the destructor removes an uncommitted temporary file.
#pragma once

#include <unistd.h>
#include <cstdio>
#include <string>
#include <string_view>

#include "common/Error.h"

namespace vgpu::trace {

class OutputFile {
 public:
  // `option` names the command-line option in error messages ("--vcd").
  OutputFile(const std::string& path, const std::string& option)
      : path_(path), option_(option), tmp_(path + ".tmp." + std::to_string(::getpid())) {
    file_ = std::fopen(tmp_.c_str(), "wb");
    if (file_ == nullptr) throw InputError(option_ + " '" + path_ + "': cannot open for writing");
    std::setvbuf(file_, nullptr, _IOFBF, 1 << 20);
  }
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile() {
    if (file_ == nullptr) return;
    std::fclose(file_);
    std::remove(tmp_.c_str());
  }

  void write(std::string_view text) {
    if (!text.empty() && std::fwrite(text.data(), 1, text.size(), file_) != text.size())
      failed_ = true;
  }
  void write(char c) {
    if (std::fputc(c, file_) == EOF) failed_ = true;
  }

  // Closes the file and moves it into place; throws InputError if anything failed.
  void commit() {
    const bool flushed = std::fflush(file_) == 0;
    const bool closed = std::fclose(file_) == 0;
    file_ = nullptr;
    if (failed_ || !flushed || !closed) {
      std::remove(tmp_.c_str());
      throw InputError(option_ + " '" + path_ + "': write failed (disk full?)");
    }
    if (std::rename(tmp_.c_str(), path_.c_str()) != 0) {
      std::remove(tmp_.c_str());
      throw InputError(option_ + " '" + path_ + "': cannot replace the file");
    }
  }

 private:
  std::string path_, option_, tmp_;
  std::FILE* file_ = nullptr;
  bool failed_ = false;
};

}  // namespace vgpu::trace

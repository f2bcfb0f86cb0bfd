// The fuzzed entry points. Each takes one input and runs it through a parser the way vgpu-sim
// does; bad input must end in vgpu::InputError, which is caught here. Anything else (another
// exception, a crash, a sanitizer report, a hang) is a bug in the model.
//
// Shared by the libFuzzer targets (fuzz/*Fuzzer.cpp, built with clang++-14 and
// -fsanitize=fuzzer,address,undefined by scripts/fuzz) and by the crash-regression test of the
// normal build (tests/reliability), which replays every saved input through the same code.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace vgpu::fuzz {

// Code objects as `vgpu-sim run/list/disasm` read them: the offload bundle or raw ELF, the
// msgpack metadata note, the kernel descriptors, relocations, then decoding and disassembling
// the text. The same bytes also go to the bundle reader and the msgpack metadata parser
// directly, so seeds that are bare bundles or bare metadata notes exercise those without a
// valid ELF around them.
void runLoader(const uint8_t* data, size_t size);

// The ISA library: byte 0 picks gfx906 or gfx900 and the VGPR count; the rest is decoded as
// code, each instruction is disassembled and executed once on a wave whose registers come
// from the input (memory instructions complete with the request's own data).
void runIsa(const uint8_t* data, size_t size);

// Platform JSON as `--platform FILE.json` reads it.
void runPlatform(const uint8_t* data, size_t size);

// The vgpu-sim command line through its option table: arguments separated by NUL or newline
// bytes (inputs naming an --options file are not parsed as a command line); and the same bytes
// as the text of an option file.
void runCommandLine(const uint8_t* data, size_t size);

struct Target {
  const char* name;  // as in fuzz/CMakeLists.txt (fuzz_NAME) and tests/reliability/crashes/NAME
  void (*run)(const uint8_t* data, size_t size);
};
const std::vector<Target>& targets();

}  // namespace vgpu::fuzz

// gfx906 assembly turned into instruction bytes by llvm-mc-15 at test time, for tests that
// check the model on hand-written instruction sequences (the assembler is the oracle for the
// encodings).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace vgpu::isa {

// Assembles gfx906 source with llvm-mc-15 and returns the bytes of the encodings it shows. A
// failure to assemble is a test failure (reported with the source and llvm-mc's output).
std::vector<uint8_t> assemble(const std::string& source);

}  // namespace vgpu::isa

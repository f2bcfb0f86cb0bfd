// Graphics encodings that a compute kernel can contain but the model does not execute: MIMG
// (image instructions, Vega ISA guide ch. 8.2 / 12.16) and EXP (exports, 12.15). Both decode
// and print exactly as llvm-objdump-15 does; executing one stops the wave with a clear fault.
#include <deque>
#include <string>
#include <vector>

#include "isa/Memory.h"

namespace vgpu::isa {
namespace {

void imageFault(ExecArgs& x) {
  fault(x, "image instructions are not modelled yet");
}
void exportFault(ExecArgs& x) {
  fault(x, "export (EXP) is a graphics-only instruction, not supported in a compute wave");
}

// opcode, mnemonic, address dwords (llvm-objdump-15 prints a fixed VADDR size per opcode on
// gfx9), sampler operand.
struct MimgRow {
  int op;
  const char* name;
  int addrDwords;
  bool sampler;
};
const MimgRow kMimg[] = {
    {0x0, "image_load", 1, 0},
    {0x1, "image_load_mip", 1, 0},
    {0x2, "image_load_pck", 1, 0},
    {0x3, "image_load_pck_sgn", 1, 0},
    {0x4, "image_load_mip_pck", 1, 0},
    {0x5, "image_load_mip_pck_sgn", 1, 0},
    {0x8, "image_store", 1, 0},
    {0x9, "image_store_mip", 1, 0},
    {0xa, "image_store_pck", 1, 0},
    {0xb, "image_store_mip_pck", 1, 0},
    {0xe, "image_get_resinfo", 1, 0},
    {0x10, "image_atomic_swap", 1, 0},
    {0x11, "image_atomic_cmpswap", 1, 0},
    {0x12, "image_atomic_add", 1, 0},
    {0x13, "image_atomic_sub", 1, 0},
    {0x14, "image_atomic_smin", 1, 0},
    {0x15, "image_atomic_umin", 1, 0},
    {0x16, "image_atomic_smax", 1, 0},
    {0x17, "image_atomic_umax", 1, 0},
    {0x18, "image_atomic_and", 1, 0},
    {0x19, "image_atomic_or", 1, 0},
    {0x1a, "image_atomic_xor", 1, 0},
    {0x1b, "image_atomic_inc", 1, 0},
    {0x1c, "image_atomic_dec", 1, 0},
    {0x20, "image_sample", 1, 1},
    {0x21, "image_sample_cl", 1, 1},
    {0x22, "image_sample_d", 2, 1},
    {0x23, "image_sample_d_cl", 2, 1},
    {0x24, "image_sample_l", 1, 1},
    {0x25, "image_sample_b", 2, 1},
    {0x26, "image_sample_b_cl", 2, 1},
    {0x27, "image_sample_lz", 1, 1},
    {0x28, "image_sample_c", 2, 1},
    {0x29, "image_sample_c_cl", 2, 1},
    {0x2a, "image_sample_c_d", 3, 1},
    {0x2b, "image_sample_c_d_cl", 3, 1},
    {0x2c, "image_sample_c_l", 2, 1},
    {0x2d, "image_sample_c_b", 3, 1},
    {0x2e, "image_sample_c_b_cl", 3, 1},
    {0x2f, "image_sample_c_lz", 2, 1},
    {0x30, "image_sample_o", 2, 1},
    {0x31, "image_sample_cl_o", 2, 1},
    {0x32, "image_sample_d_o", 3, 1},
    {0x33, "image_sample_d_cl_o", 3, 1},
    {0x34, "image_sample_l_o", 2, 1},
    {0x35, "image_sample_b_o", 3, 1},
    {0x36, "image_sample_b_cl_o", 3, 1},
    {0x37, "image_sample_lz_o", 2, 1},
    {0x38, "image_sample_c_o", 3, 1},
    {0x39, "image_sample_c_cl_o", 3, 1},
    {0x3a, "image_sample_c_d_o", 4, 1},
    {0x3b, "image_sample_c_d_cl_o", 4, 1},
    {0x3c, "image_sample_c_l_o", 3, 1},
    {0x3d, "image_sample_c_b_o", 4, 1},
    {0x3e, "image_sample_c_b_cl_o", 4, 1},
    {0x3f, "image_sample_c_lz_o", 3, 1},
    {0x40, "image_gather4", 1, 1},
    {0x41, "image_gather4_cl", 1, 1},
    {0x44, "image_gather4_l", 1, 1},
    {0x45, "image_gather4_b", 2, 1},
    {0x46, "image_gather4_b_cl", 2, 1},
    {0x47, "image_gather4_lz", 1, 1},
    {0x48, "image_gather4_c", 2, 1},
    {0x49, "image_gather4_c_cl", 2, 1},
    {0x4c, "image_gather4_c_l", 2, 1},
    {0x4d, "image_gather4_c_b", 3, 1},
    {0x4e, "image_gather4_c_b_cl", 3, 1},
    {0x4f, "image_gather4_c_lz", 2, 1},
    {0x50, "image_gather4_o", 2, 1},
    {0x51, "image_gather4_cl_o", 2, 1},
    {0x54, "image_gather4_l_o", 2, 1},
    {0x55, "image_gather4_b_o", 3, 1},
    {0x56, "image_gather4_b_cl_o", 3, 1},
    {0x57, "image_gather4_lz_o", 2, 1},
    {0x58, "image_gather4_c_o", 3, 1},
    {0x59, "image_gather4_c_cl_o", 3, 1},
    {0x5c, "image_gather4_c_l_o", 3, 1},
    {0x5d, "image_gather4_c_b_o", 4, 1},
    {0x5e, "image_gather4_c_b_cl_o", 4, 1},
    {0x5f, "image_gather4_c_lz_o", 3, 1},
    {0x60, "image_get_lod", 1, 1},
    {0x68, "image_sample_cd", 2, 1},
    {0x69, "image_sample_cd_cl", 2, 1},
    {0x6a, "image_sample_c_cd", 3, 1},
    {0x6b, "image_sample_c_cd_cl", 3, 1},
    {0x6c, "image_sample_cd_o", 3, 1},
    {0x6d, "image_sample_cd_cl_o", 3, 1},
    {0x6e, "image_sample_c_cd_o", 4, 1},
    {0x6f, "image_sample_c_cd_cl_o", 4, 1},
};

Ty dwordsTy(int n) {
  switch (n) {
    case 1:
      return Ty::B32;
    case 2:
      return Ty::B64;
    case 3:
      return Ty::B96;
    default:
      return Ty::B128;
  }
}

struct Tables {
  std::vector<OpInfo> ops;
  Tables() {
    for (const MimgRow& r : kMimg) {
      OpInfo o;
      o.name = r.name;
      o.enc = Enc::Mimg;
      o.opcode = static_cast<int16_t>(r.op);
      o.src0 = dwordsTy(r.addrDwords);
      o.src2 = r.sampler ? Ty::B128 : Ty::None;
      const std::string n = r.name;
      o.mem.op = n.find("_atomic_") != std::string::npos
                     ? MemOp::Atomic
                     : (n.find("_store") != std::string::npos ? MemOp::Store : MemOp::Load);
      o.exec = imageFault;
      o.issue = IssueType::Vmem;
      o.flags = kGraphics;
      ops.push_back(o);
    }
    OpInfo e;
    e.name = "exp";
    e.enc = Enc::Exp;
    e.opcode = 0;
    e.exec = exportFault;
    e.issue = IssueType::Vmem;
    e.flags = kGraphics;
    ops.push_back(e);
  }
};

}  // namespace

OpTable mimgTable() {
  static const Tables t;
  return {t.ops.data(), static_cast<int>(t.ops.size())};
}

}  // namespace vgpu::isa

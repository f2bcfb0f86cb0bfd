// MIMG image instructions (Vega ISA reference guide, section 8.2 "Image Instructions" and 12.16
// "MIMG Instructions") and the graphics-only EXP (12.15, faults in a compute wave).
//
// An image instruction reads its T# (ImageResource.h; 8 SGPRs), works out each lane's texel
// address in the image's linear layout and becomes a MemRequest like a buffer access: one
// element per lane (the texel, its format's size), through the texture path and the vector L1
// and L2; the format conversion, DST_SEL, dmask packing and D16 happen when the data returns
// (completeImageLoad), with the buffer path's conversions (BufferFormat.h). What is modelled
// and what is not: docs/images.md. Unmodelled opcodes, tiled images and formats outside the
// model stop the wave with a fault that names them.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

#include "isa/BufferFormat.h"
#include "isa/ImageResource.h"
#include "isa/Memory.h"

namespace vgpu::isa {
namespace {

void exportFault(ExecArgs& x) {
  fault(x, "export (EXP) is a graphics-only instruction, not supported in a compute wave");
}

void faultWith(ExecArgs& x, std::string why) {
  x.r.kind = StepKind::Fault;
  x.r.fault = std::move(why);
}

// What each opcode does, beyond its row in kMimg.
enum class ImageKind : uint8_t {
  Load,
  Store,
  ResInfo,
  Atomic,
  Sample,
  Gather,
  GetLod,
  NotModelled
};
struct ImageOpInfo {
  ImageKind kind = ImageKind::NotModelled;
  bool mip = false;      // _mip: the last address component is the mip level
  bool raw = false;      // _pck: no format conversion (the components' bits)
  bool signExt = false;  // _pck_sgn: the components' bits sign-extended
  // Sampling and gather4 suffixes (12.16): _cl LOD clamp, _d / _cd explicit derivatives, _l
  // explicit LOD, _b LOD bias, _lz LOD 0, _c depth compare, _o texel offsets.
  bool clamp = false, derivatives = false, lod = false, bias = false, lodZero = false;
  bool compare = false, offset = false;
};
const ImageOpInfo& imageOpInfo(int opcode);  // from the table below

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

// image_atomic_<suffix> -> the operation the memory applies (12.16: the same operations as the
// buffer atomics).
const struct {
  const char* suffix;
  AtomicOp op;
} kImageAtomics[] = {
    {"swap", AtomicOp::Swap}, {"cmpswap", AtomicOp::CmpSwap}, {"add", AtomicOp::Add},
    {"sub", AtomicOp::Sub},   {"smin", AtomicOp::SMin},       {"umin", AtomicOp::UMin},
    {"smax", AtomicOp::SMax}, {"umax", AtomicOp::UMax},       {"and", AtomicOp::And},
    {"or", AtomicOp::Or},     {"xor", AtomicOp::Xor},         {"inc", AtomicOp::Inc},
    {"dec", AtomicOp::Dec},
};

// Writeback::format of an image load (kWbImage), decoded by completeImageLoad.
namespace imgwb {
constexpr uint32_t kDfmtShift = 0;       // [3:0] data format (1..14)
constexpr uint32_t kNfmtShift = 4;       // [7:4] number format
constexpr uint32_t kDmaskShift = 8;      // [11:8] dmask
constexpr uint32_t kD16 = 1u << 12;      // 16-bit results, two per VGPR
constexpr uint32_t kRaw = 1u << 13;      // _pck: the components' bits
constexpr uint32_t kSignExt = 1u << 14;  // _pck_sgn
constexpr uint32_t kDstSelShift = 15;    // [26:15] DST_SEL_X..W
constexpr uint32_t kSample = 1u << 27;   // filtered: the texel list's weighted sum
constexpr uint32_t kGather = 1u << 28;   // gather4: one component of four texels
constexpr uint32_t kCompare = 1u << 29;  // depth compare (aux[4:2]: DEPTH_COMPARE_FUNC)
// Writeback::aux of a sample: [1:0] border colour type, [4:2] compare function, [6:5] the
// component gather4 returns.
}  // namespace imgwb

// The MIMG fields of an instruction.
struct MimgFields {
  int vaddr, vdata, srsrc;
  uint32_t dmask;  // 0 reads as 1 (the x component)
  bool unorm, da, a16, lwe, d16, glc, slc, tfe;
  explicit MimgFields(const Instruction& in) {
    const uint16_t* f = in.f;
    vaddr = f[fld::kAddr];
    vdata = f[fld::kData0];
    srsrc = f[fld::kData1];
    dmask = f[fld::kFmt] & 0xf;
    if (dmask == 0) dmask = 1;
    const unsigned mb = f[fld::kMimgBits], bits = f[fld::kBits];
    unorm = mb & 1;
    da = mb & 2;
    a16 = mb & 4;
    lwe = mb & 8;
    d16 = mb & 16;
    glc = bits & kGlc;
    slc = bits & kSlc;
    tfe = bits & kTfe;
  }
  int components() const { return __builtin_popcount(dmask); }
  // VGPRs of returned (or stored) data: two 16-bit components per VGPR with D16.
  int dataDwords() const { return d16 ? (components() + 1) / 2 : components(); }
};

// Address component k of lane l: a VGPR each, or with A16 two 16-bit values per VGPR (the
// first in the low half).
uint32_t addressComponent(const WaveState& w, const MimgFields& m, int k, int l) {
  if (!m.a16) return w.v(static_cast<uint32_t>(m.vaddr + k))[l];
  const uint32_t v = w.v(static_cast<uint32_t>(m.vaddr + k / 2))[l];
  return (k & 1) ? v >> 16 : v & 0xffff;
}

// Coordinates of an image without a sampler (Vega ISA guide 8.2, "Image Opcodes with No
// Sampler"): x, then y, then the slice (arrays, cube faces) or z (3D), then the mip level.
int coordinateCount(uint32_t type) {
  switch (type) {
    case kImage1d:
      return 1;
    case kImage1dArray:
    case kImage2d:
      return 2;
    default:
      return 3;  // 2D array, cube, 3D
  }
}

// Reads and checks the T# of an instruction: false (a fault reported) if it is not usable.
bool readImageResource(ExecArgs& x, const MimgFields& m, ImageResource& r, ImageLayout& layout) {
  uint32_t words[8];
  if (m.srsrc + 8 > kNumSgprs) {
    fault(x, "image resource (T#) SGPRs out of range");
    return false;
  }
  for (int k = 0; k < 8; ++k) words[k] = readScalarDword(x.w, x.ctx, m.srsrc + k);
  r = decodeImageResource(words);
  const std::string problem = linearLayout(r, layout);
  if (!problem.empty()) {
    faultWith(x, std::string(x.op.name) + ": " + problem + " (docs/images.md)");
    return false;
  }
  return true;
}

// A lane's texel: its address, or false when a coordinate is out of range (the lane reads 0
// and writes nothing).
bool texelOf(const ImageResource& r, const ImageLayout& layout, const uint32_t coord[4],
             uint32_t mip, uint64_t& address) {
  const uint32_t level = r.baseLevel + mip;
  if (mip > 15 || level > r.lastLevel) return false;
  const uint32_t x = coord[0];
  uint32_t y = 0, slice = 0;
  if (x >= levelSize(r.width, level)) return false;
  switch (r.type) {
    case kImage1dArray:
      slice = coord[1];
      break;
    case kImage2d:
      y = coord[1];
      break;
    case kImage3d:
      y = coord[1];
      slice = coord[2];
      if (slice >= levelSize(r.depth, level)) return false;
      break;
    case kImage2dArray:
    case kImageCube:
      y = coord[1];
      slice = coord[2];
      break;
    default:
      break;
  }
  if (imageHasY(r.type) && y >= levelSize(r.height, level)) return false;
  if (imageIsArray(r.type)) {
    // The slice counts from BASE_ARRAY; DEPTH holds the last slice the view allows.
    if (uint64_t{slice} + r.baseArray > layout.lastSlice) return false;
    slice += r.baseArray;
  }
  address = layout.texelAddress(r.base, x, y, slice, level);
  return true;
}

// The bits of component c of the element at `p` (FormatLayout), zero- or sign-extended.
uint32_t rawComponent(const FormatLayout& f, int c, const uint8_t* p, bool signExt) {
  const int bits = f.bits[c], shift = f.shift[c];
  uint64_t window = 0;
  std::memcpy(&window, p + shift / 8, std::min<size_t>(8, f.bytes - shift / 8));
  uint32_t v = static_cast<uint32_t>(window >> (shift % 8));
  if (bits < 32) {
    v &= (1u << bits) - 1;
    if (signExt && (v >> (bits - 1)) & 1) v |= ~((1u << bits) - 1);
  }
  return v;
}
void putRawComponent(const FormatLayout& f, int c, uint32_t value, uint8_t* p) {
  const int bits = f.bits[c], shift = f.shift[c];
  const size_t n = std::min<size_t>(8, f.bytes - shift / 8);
  uint64_t window = 0;
  std::memcpy(&window, p + shift / 8, n);
  const uint64_t mask = (bits == 32 ? 0xffffffffull : (1ull << bits) - 1) << (shift % 8);
  window = (window & ~mask) | ((uint64_t{value} << (shift % 8)) & mask);
  std::memcpy(p + shift / 8, &window, n);
}

float asFloat(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}
uint32_t floatBits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

// sRGB transfer functions (IEC 61966-2-1), applied to x, y, z of IMG_NUM_FORMAT_SRGB texels
// (w, alpha, stays linear), on top of the UNORM conversion.
float srgbToLinear(float c) {
  return c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f);
}
float linearToSrgb(float c) {
  if (!(c > 0.0f)) return 0.0f;  // NaN and negatives
  if (c >= 1.0f) return 1.0f;
  return c <= 0.0031308f ? c * 12.92f : 1.055f * std::pow(c, 1.0f / 2.4f) - 0.055f;
}

// The four converted values of the texel at `p` (32-bit, or f16/16-bit integers with D16).
void unpackTexel(uint32_t dfmt, uint32_t nfmt, bool d16, const uint8_t* p, uint32_t out[4]) {
  const bool srgb = nfmt == kImgNumFormatSrgb;
  const uint32_t convertAs = srgb ? uint32_t{kNfmtUnorm} : nfmt;
  uint32_t v[4];
  unpackElement(dfmt, convertAs, p, v);
  if (srgb) {
    const int comps = formatLayout(dfmt)->components;
    for (int c = 0; c < 3 && c < comps; ++c) v[c] = floatBits(srgbToLinear(asFloat(v[c])));
  }
  if (!d16 || srgb) {
    for (int c = 0; c < 4; ++c)
      out[c] =
          d16 ? encodeSmallFloat(asFloat(v[c]), 5, 10, true, SmallFloatRound::NearestEven) : v[c];
    return;
  }
  uint16_t h[4];
  unpackElementD16(dfmt, nfmt, p, h);
  for (int c = 0; c < 4; ++c) out[c] = h[c];
}

// DST_SEL applied to the converted components (BufferFormat.h DstSel).
uint32_t selectComponent(uint32_t dstSel, int c, const uint32_t fetched[4], uint32_t one) {
  const uint32_t sel = (dstSel >> (3 * c)) & 7;
  if (sel == kSel1) return one;
  if (sel >= kSelX) return fetched[sel - kSelX];
  return 0;
}

// Writes `values` (the x, y, z, w results) of lane l to the VGPRs from `reg`, one per set bit
// of `dmask` in order; D16: two per VGPR, the first in the low half.
void writeDmaskComponents(WaveState& w, int reg, uint32_t dmask, bool d16, int l,
                          const uint32_t values[4]) {
  int k = 0;
  for (int c = 0; c < 4; ++c) {
    if (!((dmask >> c) & 1)) continue;
    if (!d16) {
      w.v(static_cast<uint32_t>(reg + k))[l] = values[c];
    } else {
      uint32_t& r = w.v(static_cast<uint32_t>(reg + k / 2))[l];
      const int shift = 16 * (k & 1);
      r = (r & ~(0xffffu << shift)) | ((values[c] & 0xffff) << shift);
    }
    ++k;
  }
}

// The shader values a store supplies for x, y, z, w: the dmask components in order from the
// data VGPRs; components outside dmask are 0.
void readDmaskComponents(const WaveState& w, int reg, uint32_t dmask, bool d16, int l,
                         uint32_t values[4]) {
  int k = 0;
  for (int c = 0; c < 4; ++c) {
    values[c] = 0;
    if (!((dmask >> c) & 1)) continue;
    if (!d16)
      values[c] = w.v(static_cast<uint32_t>(reg + k))[l];
    else
      values[c] = (w.v(static_cast<uint32_t>(reg + k / 2))[l] >> (16 * (k & 1))) & 0xffff;
    ++k;
  }
}

// A store puts shader component c into the memory channel DST_SEL names for it (4..7: X..W),
// the inverse of the swizzle a load applies, so a texel written and read back through the same
// descriptor keeps its components. A BGRA image (memory channels B, G, R, A; DST_SEL Z, Y, X, W,
// as the HSA runtime describes it) thus gets R in its third byte, as OpenCL's write_imagef
// requires. Channels no component selects are written as 0.
const uint32_t* storedChannels(uint32_t dstSel, const uint32_t values[4], uint32_t channels[4]) {
  for (int ch = 0; ch < 4; ++ch) channels[ch] = 0;
  for (int c = 0; c < 4; ++c) {
    const uint32_t sel = (dstSel >> (3 * c)) & 7;
    if (sel >= 4) channels[sel - 4] = values[c];
  }
  return channels;
}

// Packs shader values into the texel at `dst` (the inverse of unpackTexel; raw: the bits).
void packTexel(uint32_t dfmt, uint32_t nfmt, bool d16, bool raw, const uint32_t values[4],
               uint8_t* dst) {
  const FormatLayout& f = *formatLayout(dfmt);
  if (raw) {
    for (int c = 0; c < f.components; ++c) putRawComponent(f, c, values[c], dst);
    return;
  }
  if (nfmt == kImgNumFormatSrgb) {
    uint32_t linear[4];
    for (int c = 0; c < 4; ++c) {
      const float v =
          d16 ? static_cast<float>(decodeSmallFloat(values[c], 5, 10, true)) : asFloat(values[c]);
      linear[c] = floatBits(c < 3 ? linearToSrgb(v) : v);
    }
    packElement(dfmt, kNfmtUnorm, linear, dst);
    return;
  }
  if (d16) {
    const uint16_t h[4] = {static_cast<uint16_t>(values[0]), static_cast<uint16_t>(values[1]),
                           static_cast<uint16_t>(values[2]), static_cast<uint16_t>(values[3])};
    packElementD16(dfmt, nfmt, h, dst);
  } else {
    packElement(dfmt, nfmt, values, dst);
  }
}

// Checks the data VGPRs (with the status VGPR of TFE/LWE for returning ops).
bool dataInRange(ExecArgs& x, const MimgFields& m, int dwords, bool returns) {
  const int status = returns && (m.tfe || m.lwe) ? 1 : 0;
  if (!vgprInRange(x.w, m.vdata, dwords + status)) {
    fault(x, returns ? "image destination VGPR out of range" : "image data VGPR out of range");
    return false;
  }
  return true;
}

// image_load*, image_store*, image_atomic_*: one texel per lane.
void execImageMemory(ExecArgs& x) {
  const ImageOpInfo& info = imageOpInfo(x.op.opcode);
  const MimgFields m(x.in);
  WaveState& w = x.w;
  ImageResource r;
  ImageLayout layout;
  if (!readImageResource(x, m, r, layout)) return;
  const int coords = coordinateCount(r.type);
  const int addressCount = coords + (info.mip ? 1 : 0);
  if (!vgprInRange(w, m.vaddr, m.a16 ? (addressCount + 1) / 2 : addressCount))
    return fault(x, "image address VGPR out of range");

  const bool atomic = info.kind == ImageKind::Atomic;
  const bool store = info.kind == ImageKind::Store;
  const AtomicOp atomicOp = x.op.mem.atomic;
  // Atomics: dmask says the data size (12.16): one dword (0x1) or two (0x3) for the 32- and
  // 64-bit operations, twice that for cmpswap (data, then the compare value); the texel's
  // format must have that size.
  const int dataDwords = m.dataDwords();
  int elementBytes = static_cast<int>(layout.texelBytes);
  if (atomic) {
    if (m.d16) return fault(x, "image atomics have no D16 form");
    const int operandDwords = atomicOp == AtomicOp::CmpSwap ? m.components() / 2 : m.components();
    if ((m.dmask != 0x1 && m.dmask != 0x3 && m.dmask != 0xf) || operandDwords < 1 ||
        operandDwords > 2)
      return fault(x, "image atomic dmask must be 0x1 or 0x3 (cmpswap: 0x3 or 0xf)");
    if (operandDwords * 4 != elementBytes)
      return faultWith(x, std::string(x.op.name) + " on " + imageDataFormatName(r.dataFormat) +
                              " (" + std::to_string(elementBytes) + "-byte texels) needs a " +
                              std::to_string(operandDwords * 4) + "-byte format");
    if (!isIntegerNumFormat(r.numFormat) &&
        !(atomicOp == AtomicOp::Swap || atomicOp == AtomicOp::CmpSwap))
      return faultWith(x, std::string(x.op.name) + " needs an integer number format, not " +
                              imageNumFormatName(r.numFormat));
  }
  const bool returns = !store && (!atomic || m.glc);
  const int returnDwords = atomic ? elementBytes / 4 : dataDwords;
  if (store || atomic) {
    if (!dataInRange(x, m, dataDwords, false)) return;
  }
  if (returns && !dataInRange(x, m, returnDwords, true)) return;

  MemRequest& mem = x.mem;
  beginRequest(mem, MemSpace::Vector, store ? MemOp::Store : (atomic ? MemOp::Atomic : MemOp::Load),
               WaitCounter::Vm);
  mem.image = true;
  mem.atomic = atomic ? atomicOp : AtomicOp::None;
  mem.glc = m.glc;
  mem.slc = m.slc;
  mem.atomicReturnsData = atomic && m.glc;
  mem.elementBytes = static_cast<uint8_t>(elementBytes);

  const uint64_t exec = w.exec;
  uint64_t sent = 0;
  for (uint64_t b = exec; b != 0; b &= b - 1) {
    const int l = __builtin_ctzll(b);
    uint32_t coord[4] = {0, 0, 0, 0};
    for (int k = 0; k < coords; ++k) coord[k] = addressComponent(w, m, k, l);
    const uint32_t mip = info.mip ? addressComponent(w, m, coords, l) : 0;
    uint64_t address;
    if (!texelOf(r, layout, coord, mip, address)) continue;  // out of range: no access
    mem.address(l, 0) = address;
    sent |= 1ull << l;
    uint8_t* e = mem.element(l, 0);
    if (atomic) {
      const int bytes = elementBytes;
      gatherVgprBytes(w, m.vdata, bytes, l, false, e);
      if (atomicOp == AtomicOp::CmpSwap)
        gatherVgprBytes(w, m.vdata + bytes / 4, bytes, l, false, mem.cmpElement(l, 0));
    } else if (store) {
      uint32_t values[4], channels[4];
      readDmaskComponents(w, m.vdata, m.dmask, m.d16, l, values);
      packTexel(r.dataFormat, r.numFormat, m.d16, info.raw,
                info.raw ? values : storedChannels(r.dstSel, values, channels), e);
    }
  }
  mem.laneMask = sent;
  if (returns) {
    setVgprWriteback(mem, m.vdata, returnDwords, LoadExt::None, exec);
    MemRequest::Writeback& wb = mem.writeback;
    if (!atomic) {
      wb.flags = kWbImage;
      wb.format = (r.dataFormat << imgwb::kDfmtShift) | (r.numFormat << imgwb::kNfmtShift) |
                  (m.dmask << imgwb::kDmaskShift) | (m.d16 ? imgwb::kD16 : 0) |
                  (info.raw ? imgwb::kRaw : 0) | (info.signExt ? imgwb::kSignExt : 0) |
                  (r.dstSel << imgwb::kDstSelShift);
    }
    if (m.tfe || m.lwe) wb.flags |= kWbTfe;
  }
  x.r.kind = StepKind::Memory;
  w.pc += x.in.sizeBytes;
}

// image_get_resinfo: the size of mip level `mip` (the address VGPR, from BASE_LEVEL), without
// a memory access: x = width, y = height (1D arrays: the slices), z = depth (3D) or the slices
// the view holds (2D arrays and cube maps: DEPTH - BASE_ARRAY + 1), w = the levels of the view
// (LAST_LEVEL - BASE_LEVEL + 1). Dimensions the image lacks read 1; a level beyond LAST_LEVEL
// reads 0 for x, y and z. The values arrive through the texture path's return like any load.
void execImageResInfo(ExecArgs& x) {
  const MimgFields m(x.in);
  WaveState& w = x.w;
  ImageResource r;
  ImageLayout layout;
  if (!readImageResource(x, m, r, layout)) return;
  if (!vgprInRange(w, m.vaddr, 1)) return fault(x, "image address VGPR out of range");
  const int dwords = m.dataDwords();
  if (!dataInRange(x, m, dwords, true)) return;
  MemRequest& mem = x.mem;
  beginRequest(mem, MemSpace::Vector, MemOp::Load, WaitCounter::Vm);
  mem.image = true;
  mem.elementBytes = static_cast<uint8_t>(4 * dwords);
  const uint32_t slices = layout.lastSlice >= r.baseArray ? layout.lastSlice - r.baseArray + 1 : 0;
  const uint64_t exec = w.exec;
  for (uint64_t b = exec; b != 0; b &= b - 1) {
    const int l = __builtin_ctzll(b);
    const uint32_t mip = addressComponent(w, m, 0, l);
    const uint32_t level = r.baseLevel + mip;
    uint32_t v[4] = {0, 0, 0, r.lastLevel - r.baseLevel + 1};
    if (mip <= 15 && level <= r.lastLevel) {
      v[0] = levelSize(r.width, level);
      v[1] = imageHasY(r.type) ? levelSize(r.height, level) : 1;
      v[2] = 1;
      if (r.type == kImage1dArray) v[1] = slices;
      if (r.type == kImage3d) v[2] = levelSize(r.depth, level);
      if (r.type == kImage2dArray || r.type == kImageCube) v[2] = slices;
    }
    // The result VGPRs, as completeMemory copies them (D16: the low 16 bits, two per VGPR).
    uint32_t packed[4] = {0, 0, 0, 0};
    int k = 0;
    for (int c = 0; c < 4; ++c) {
      if (!((m.dmask >> c) & 1)) continue;
      if (m.d16)
        packed[k / 2] |= (v[c] & 0xffff) << (16 * (k & 1));
      else
        packed[k] = v[c];
      ++k;
    }
    std::memcpy(mem.element(l, 0), packed, 4 * static_cast<size_t>(dwords));
  }
  mem.laneMask = 0;  // nothing in memory is read
  setVgprWriteback(mem, m.vdata, dwords, LoadExt::None, exec);
  if (m.tfe || m.lwe) mem.writeback.flags |= kWbTfe;
  x.r.kind = StepKind::Memory;
  w.pc += x.in.sizeBytes;
}

// ------------------------------------------------------------------------------------------
// Sampling (Vega ISA guide 8.2, "Image Opcodes with a Sampler"). The texture unit's arithmetic
// is not public; the model follows the Direct3D 11 filtering rules (texel centres at +0.5,
// LOD = log2 of the larger screen-space footprint) with the fixed-point precision D3D11 requires
// (d3d11.h: D3D11_SUBTEXEL_FRACTIONAL_BIT_COUNT 8 and D3D11_MIP_LOD_FRACTIONAL_BIT_COUNT 8):
// the texel coordinate is rounded to 8 fractional bits (so bilinear weights are multiples of
// 1/256), the trilinear level fraction is truncated to 8 bits, and the weighted sum is computed
// in binary32. docs/images.md states the choices.

// A value truncated to 8 fractional bits (for fractions in [0, 1)).
float fixed8(float frac) {
  return std::floor(frac * 256.0f) / 256.0f;
}

// One axis of a filter footprint: the integer texel index after the address mode, or -1 for
// a border texel (CLAMP_BORDER, MIRROR_ONCE_BORDER outside the image).
int32_t addressMode(int64_t i, int64_t n, uint8_t mode) {
  switch (mode) {
    case kClampWrap: {
      const int64_t j = i % n;
      return static_cast<int32_t>(j < 0 ? j + n : j);
    }
    case kClampMirror: {
      int64_t j = i % (2 * n);
      if (j < 0) j += 2 * n;
      return static_cast<int32_t>(j < n ? j : 2 * n - 1 - j);
    }
    case kClampLastTexel:
      return static_cast<int32_t>(i < 0 ? 0 : (i >= n ? n - 1 : i));
    case kClampMirrorOnceLastTexel: {
      const int64_t j = i < 0 ? -1 - i : i;
      return static_cast<int32_t>(j >= n ? n - 1 : j);
    }
    case kClampBorder:
      return i < 0 || i >= n ? -1 : static_cast<int32_t>(i);
    default: {  // kClampMirrorOnceBorder (the half-border modes are refused at issue)
      const int64_t j = i < 0 ? -1 - i : i;
      return j >= n ? -1 : static_cast<int32_t>(j);
    }
  }
}

// Taps of one axis: point (one, weight 1) or linear (two, weights 1 - a and a).
struct AxisTaps {
  int count = 1;
  int64_t index[2] = {0, 0};
  float weight[2] = {1.0f, 0.0f};
};
AxisTaps axisTaps(float u, bool linear) {
  AxisTaps t;
  // NaN reads as 0; coordinates far outside any image (2^30 texels) are held there, where every
  // address mode has settled, so the integer conversions below stay defined.
  const float kFar = 1073741824.0f;
  u = std::isnan(u) ? 0.0f : std::min(std::max(u, -kFar), kFar);
  // The texel-space coordinate in fixed point with 8 fractional bits, rounded to nearest (the
  // D3D11 subtexel precision above): a coordinate a rounding error below a texel edge, such as
  // (k / w) * w, addresses texel k as on hardware, not k - 1.
  u = std::nearbyint(u * 256.0f) / 256.0f;
  if (!linear) {
    t.index[0] = static_cast<int64_t>(std::floor(u));
    return t;
  }
  const float p = u - 0.5f;  // texel centres
  const float i0 = std::floor(p);
  const float a = p - i0;  // a multiple of 1/256: u was rounded to 8 fractional bits above
  t.count = 2;
  t.index[0] = static_cast<int64_t>(i0);
  t.index[1] = t.index[0] + 1;
  t.weight[0] = 1.0f - a;
  t.weight[1] = a;
  return t;
}

// Cube maps (T# TYPE CUBE). The shader selects the face and projects the direction onto it with
// v_cubeid_f32, v_cubesc_f32, v_cubetc_f32 and v_cubema_f32 (12.11) and passes image_sample the
// address (s, t, face). The range the texture unit expects is not in the guide; AMD's production
// graphics compiler shows it: Mesa's ac_prepare_cube_coords (src/amd/llvm/ac_llvm_build.c)
// divides sc and tc by |ma| (v_cubema_f32 returns twice the major axis, so the quotients lie in
// [-0.5, 0.5]) and adds 1.5, so a face spans s, t in [1, 2]; cube arrays pass 8 x layer + face
// as the face coordinate ("coord.z = coord.w(array_index) * 8 + face"; ROCm-Device-Libs' ockl
// builds the same, fma(rint(layer), 8, face)). The model samples face coordinate s - 1 of the
// selected face like a 2D image.

// The slice (relative to BASE_ARRAY) of a cube map's face coordinate: rounded to an integer,
// face = value mod 8 (6 and 7, which v_cubeid_f32 never returns, read face 5: chosen), cube
// layer = value / 8 clamped to the view's cubes; the slices of a cube are +x, -x, +y, -y, +z,
// -z (v_cubeid_f32's ids 0..5), the order in which Mesa lays a cube's faces out as slices.
uint32_t cubeSlice(float faceCoordinate, uint32_t slices) {
  const float rounded = std::isnan(faceCoordinate) ? 0.0f : std::nearbyint(faceCoordinate);
  const uint32_t v = !(rounded > 0) ? 0 : static_cast<uint32_t>(std::min(rounded, 65535.0f));
  const uint32_t cubes = std::max<uint32_t>(1, slices / 6);
  const uint32_t slice = 6 * std::min(v / 8, cubes - 1) + std::min(v % 8, 5u);
  return std::min(slice, slices - 1);
}

// Seamless cube filtering (S# DISABLE_CUBE_WRAP 0): a bilinear tap one texel beyond an edge of
// face `face` (n x n texels) is the texel of the adjacent face that the tap's direction points
// into. The tap's centre, (i + 0.5) / n and (j + 0.5) / n in face coordinates, is turned back
// into a direction with the face's (sc, tc, ma) convention (the OpenGL/Direct3D cube-map table
// that v_cubesc/tc_f32 implement: +x: sc = -z, tc = -y; -x: sc = z, tc = -y; +y: sc = x,
// tc = z; -y: sc = x, tc = -z; +z: sc = x, tc = -y; -z: sc = -x, tc = -y) and projected again:
// its major axis is now the one the tap crossed into, and the texel it lands in is the
// neighbour's edge texel in the same row or column (exact: n (k + 1) / (n + 1) floors to k).
struct CubeTexel {
  uint32_t face, i, j;
};
CubeTexel cubeNeighbour(uint32_t face, int64_t i, int64_t j, uint32_t n) {
  const double size = n;
  const double sc = 2.0 * (static_cast<double>(i) + 0.5) / size - 1.0;
  const double tc = 2.0 * (static_cast<double>(j) + 0.5) / size - 1.0;
  double d[3];  // the direction, major axis length 1
  switch (face) {
    case 0:
      d[0] = 1, d[1] = -tc, d[2] = -sc;
      break;
    case 1:
      d[0] = -1, d[1] = -tc, d[2] = sc;
      break;
    case 2:
      d[0] = sc, d[1] = 1, d[2] = tc;
      break;
    case 3:
      d[0] = sc, d[1] = -1, d[2] = -tc;
      break;
    case 4:
      d[0] = sc, d[1] = -tc, d[2] = 1;
      break;
    default:
      d[0] = -sc, d[1] = -tc, d[2] = -1;
      break;
  }
  // Face selection as v_cubeid_f32 does it: z if |z| >= |x|, |y|, else y if |y| >= |x|, else x.
  const double ax = std::fabs(d[0]), ay = std::fabs(d[1]), az = std::fabs(d[2]);
  CubeTexel out;
  double s2, t2, ma;
  if (az >= ax && az >= ay) {
    out.face = d[2] < 0 ? 5 : 4;
    s2 = d[2] < 0 ? -d[0] : d[0];
    t2 = -d[1];
    ma = az;
  } else if (ay >= ax) {
    out.face = d[1] < 0 ? 3 : 2;
    s2 = d[0];
    t2 = d[1] < 0 ? -d[2] : d[2];
    ma = ay;
  } else {
    out.face = d[0] < 0 ? 1 : 0;
    s2 = d[0] < 0 ? d[2] : -d[2];
    t2 = -d[1];
    ma = ax;
  }
  auto texelOf = [&](double c) {
    const double u = std::floor((c / ma + 1.0) / 2.0 * size);
    return static_cast<uint32_t>(std::min(std::max(u, 0.0), size - 1.0));
  };
  out.i = texelOf(s2);
  out.j = texelOf(t2);
  return out;
}

// image_sample*, image_gather4*, image_get_lod.
void execImageSample(ExecArgs& x) {
  const ImageOpInfo& info = imageOpInfo(x.op.opcode);
  const MimgFields m(x.in);
  WaveState& w = x.w;
  ImageResource r;
  ImageLayout layout;
  if (!readImageResource(x, m, r, layout)) return;
  const int ssamp = x.in.f[fld::kOffset0];
  if (ssamp + 4 > kNumSgprs) return fault(x, "sampler (S#) SGPRs out of range");
  uint32_t sw[4];
  for (int k = 0; k < 4; ++k) sw[k] = readScalarDword(w, x.ctx, ssamp + k);
  const SamplerState s = decodeSampler(sw);
  const std::string name = x.op.name;
  auto refuse = [&](const std::string& what) {
    faultWith(x, name + ": " + what + " is not modelled (docs/images.md)");
  };
  const bool cube = r.type == kImageCube;
  if (m.a16) return refuse("A16 sampling addresses");
  if (s.filterMode != 0) return refuse("min/max filtering (S# FILTER_MODE)");
  if (s.xyMagFilter >= kXyAnisoPoint || s.xyMinFilter >= kXyAnisoPoint)
    return refuse("anisotropic filtering");
  for (int c = 0; c < 3; ++c)
    if (s.clamp[c] == kClampHalfBorder || s.clamp[c] == kClampMirrorOnceHalfBorder)
      return refuse("the half-border address modes");
  bool borderModes = false;
  for (int c = 0; c < 3; ++c)
    borderModes |= s.clamp[c] == kClampBorder || s.clamp[c] == kClampMirrorOnceBorder;
  if (borderModes && s.borderColorType == kBorderRegister)
    return refuse("the border colour table (BORDER_COLOR_TYPE REGISTER)");
  const bool integer = isIntegerNumFormat(r.numFormat);
  const bool gather = info.kind == ImageKind::Gather, getLod = info.kind == ImageKind::GetLod;
  if (integer && !gather && !getLod &&
      (s.xyMagFilter != kXyPoint || s.xyMinFilter != kXyPoint || s.mipFilter == kFilterLinear ||
       s.zFilter == kFilterLinear))
    return refuse("filtering an integer format (only point sampling)");
  if (gather && __builtin_popcount(m.dmask) != 1)
    return fault(x, "image_gather4 needs one dmask bit (the component it gathers)");

  // Address VGPRs (12.16): [offset] [bias] [z-compare] [derivatives] coordinates [lod | clamp].
  const int dims = r.type == kImage3d ? 3 : (imageHasY(r.type) ? 2 : 1);
  const bool array = imageIsArray(r.type);
  int k = 0;
  const int offsetAt = info.offset ? k++ : -1;
  const int biasAt = info.bias ? k++ : -1;
  const int compareAt = info.compare ? k++ : -1;
  const int derivAt = info.derivatives ? k : -1;
  if (info.derivatives) k += 2 * dims;
  const int coordAt = k;
  k += dims + (array ? 1 : 0);
  const int lodAt = info.lod || info.clamp ? k++ : -1;
  if (!vgprInRange(w, m.vaddr, k)) return fault(x, "image address VGPR out of range");
  auto arg = [&](int at, int l) { return asFloat(w.v(static_cast<uint32_t>(m.vaddr + at))[l]); };

  const int results = gather ? 4 : m.components();
  const int dataDwords = m.d16 ? (results + 1) / 2 : results;
  if (!dataInRange(x, m, dataDwords, true)) return;

  const bool normalized = !(m.unorm || s.forceUnnormalized);
  if (cube && !normalized) return refuse("cube-map sampling with unnormalized coordinates");
  // Seamless cube filtering (DISABLE_CUBE_WRAP 0, what the APIs ask for): face coordinates are
  // held to the face ([1, 2]), and a bilinear tap beyond an edge reads the adjacent face
  // (cubeNeighbour); a tap beyond a corner, where three faces meet and no face has a fourth
  // texel, is the average of the footprint's three other texels (the method the OpenGL 4.6
  // specification, 8.13.1 "Seamless Cube Map Filtering", recommends; gather4 returns the
  // footprint's texel diagonal to it instead, the one inside the face). With DISABLE_CUBE_WRAP 1
  // each face is addressed alone with the S#'s CLAMP_X/Y modes. Not modelled: the implicit LOD
  // of a quad whose lanes fall on different faces is taken from face coordinates.
  const bool seamless = cube && !s.disableCubeWrap;
  const uint32_t lastRel = r.lastLevel - r.baseLevel;
  const float minLod = static_cast<float>(std::max(s.minLod, r.minLod)) / 256.0f;
  const float samplerMaxLod = static_cast<float>(s.maxLod) / 256.0f;
  const uint32_t size0[3] = {levelSize(r.width, r.baseLevel),
                             imageHasY(r.type) ? levelSize(r.height, r.baseLevel) : 1,
                             r.type == kImage3d ? levelSize(r.depth, r.baseLevel) : 1};
  const uint32_t layers =
      array && layout.lastSlice >= r.baseArray ? layout.lastSlice - r.baseArray + 1 : 1;

  MemRequest& mem = x.mem;
  beginRequest(mem, MemSpace::Vector, MemOp::Load, WaitCounter::Vm);
  mem.image = true;
  mem.glc = m.glc;
  mem.slc = m.slc;
  // get_lod writes its results here, as completeMemory reads them: dataDwords per lane.
  mem.elementBytes = static_cast<uint8_t>(getLod ? 4 * dataDwords : layout.texelBytes);
  const uint64_t exec = w.exec;
  for (uint64_t b = exec; b != 0; b &= b - 1) {
    const int l = __builtin_ctzll(b);
    // LOD: explicit, zero, or log2 of the larger footprint in texels of the base level, from
    // the derivatives (explicit, or the lane's quad: lanes q, q+1 (right), q+2 (below)).
    float lod = 0.0f;
    if (info.lod) {
      lod = arg(lodAt, l);
    } else if (!info.lodZero && normalized) {
      float dx[3] = {0, 0, 0}, dy[3] = {0, 0, 0};
      const int q = l & ~3;
      for (int c = 0; c < dims; ++c) {
        if (info.derivatives) {
          dx[c] = arg(derivAt + c, l);
          dy[c] = arg(derivAt + dims + c, l);
        } else {
          dx[c] = arg(coordAt + c, q + 1) - arg(coordAt + c, q);
          dy[c] = arg(coordAt + c, q + 2) - arg(coordAt + c, q);
        }
        dx[c] *= static_cast<float>(size0[c]);
        dy[c] *= static_cast<float>(size0[c]);
      }
      const float rho = std::max(std::sqrt(dx[0] * dx[0] + dx[1] * dx[1] + dx[2] * dx[2]),
                                 std::sqrt(dy[0] * dy[0] + dy[1] * dy[1] + dy[2] * dy[2]));
      lod = std::log2(rho);
    }
    if (info.bias) lod += arg(biasAt, l);
    lod += static_cast<float>(s.lodBias) / 256.0f;
    const float unclamped = lod;
    const float maxLod =
        info.clamp && !info.lod ? std::min(samplerMaxLod, arg(lodAt, l)) : samplerMaxLod;
    lod = std::isnan(lod) ? minLod : std::min(std::max(lod, minLod), maxLod);
    if (getLod) {
      const float v[2] = {lod, unclamped};
      uint32_t out[4] = {0, 0, 0, 0};
      int n = 0;
      for (int c = 0; c < 2; ++c) {
        if (!((m.dmask >> c) & 1)) continue;
        const uint32_t bits = floatBits(v[c]);
        if (m.d16)
          out[n / 2] |= encodeSmallFloat(v[c], 5, 10, true, SmallFloatRound::NearestEven)
                        << (16 * (n & 1));
        else
          out[n] = bits;
        ++n;
      }
      std::memcpy(mem.element(l, 0), out, 4 * static_cast<size_t>(dataDwords));
      continue;
    }
    // Levels: one, or two for a linear mip filter, relative to BASE_LEVEL.
    uint32_t level[2] = {0, 0};
    float levelWeight[2] = {1.0f, 0.0f};
    int levels = 1;
    const uint8_t mipFilter = normalized ? s.mipFilter : uint8_t{kFilterNone};
    if (mipFilter == kFilterPoint || (gather && mipFilter == kFilterLinear)) {
      const float nearest = std::floor(lod + 0.5f);
      level[0] = nearest <= 0 ? 0 : std::min(static_cast<uint32_t>(nearest), lastRel);
    } else if (mipFilter == kFilterLinear && lod > 0) {
      const float whole = std::floor(lod);
      level[0] = std::min(static_cast<uint32_t>(whole), lastRel);
      const float frac = fixed8(lod - whole);
      if (level[0] < lastRel && frac > 0) {
        levels = 2;
        level[1] = level[0] + 1;
        levelWeight[0] = 1.0f - frac;
        levelWeight[1] = frac;
      }
    }
    const bool mag = lod <= 0;
    const bool xyLinear = gather || (mag ? s.xyMagFilter : s.xyMinFilter) == kXyBilinear;
    const bool zLinear = s.zFilter == kFilterLinear || (s.zFilter == kFilterNone && xyLinear);
    // Texel offsets (_o): 6-bit signed texels at bits 0, 8, 16.
    int32_t offset[3] = {0, 0, 0};
    if (info.offset) {
      const uint32_t o = w.v(static_cast<uint32_t>(m.vaddr + offsetAt))[l];
      for (int c = 0; c < 3; ++c)
        offset[c] = static_cast<int32_t>(static_cast<uint32_t>((o >> (8 * c)) & 0x3f) << 26) >> 26;
    }
    uint32_t slice = 0, face = 0;
    if (cube) {
      const uint32_t relative = cubeSlice(arg(coordAt + dims, l), layers);
      face = relative % 6;
      slice = r.baseArray + relative;
    } else if (array) {
      const float layer = std::floor(arg(coordAt + dims, l) + 0.5f);
      slice =
          r.baseArray +
          (!(layer > 0) ? 0
                        : std::min(static_cast<uint32_t>(std::min(layer, 8192.0f)), layers - 1));
    }
    for (int lv = 0; lv < levels; ++lv) {
      const uint32_t absolute = r.baseLevel + level[lv];
      const uint32_t size[3] = {levelSize(r.width, absolute),
                                imageHasY(r.type) ? levelSize(r.height, absolute) : 1,
                                r.type == kImage3d ? levelSize(r.depth, absolute) : 1};
      AxisTaps taps[3];
      for (int c = 0; c < 3; ++c) {
        if (c >= dims) continue;
        const float coordinate = arg(coordAt + c, l);
        const float onFace = cube ? coordinate - 1.0f : coordinate;  // cube: [1, 2] is the face
        float u = (normalized ? onFace * static_cast<float>(size[c]) : onFace) +
                  static_cast<float>(offset[c]);
        // (A NaN stays NaN here; axisTaps reads it as 0.)
        if (seamless) u = std::min(std::max(u, 0.0f), static_cast<float>(size[c]));
        taps[c] = axisTaps(u, c < 2 ? xyLinear : zLinear);
      }
      // Gather4's order (x, y, z, w) = (i0, j1), (i1, j1), (i1, j0), (i0, j0).
      static const int kGatherTap[4][2] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
      const int count = gather ? 4 : taps[0].count * taps[1].count * taps[2].count;
      for (int t = 0; t < count; ++t) {
        int tap[3];
        if (gather) {
          tap[0] = kGatherTap[t][0];
          tap[1] = kGatherTap[t][1];
          tap[2] = 0;
        } else {
          tap[0] = t % taps[0].count;
          tap[1] = (t / taps[0].count) % taps[1].count;
          tap[2] = t / (taps[0].count * taps[1].count);
        }
        MemRequest::Texel texel;
        texel.lane = static_cast<uint8_t>(l);
        texel.slot = static_cast<uint8_t>(gather ? t : 0);
        texel.weight = levelWeight[lv];
        if (seamless && size[0] == size[1]) {
          // Taps on the face, beyond one edge (the adjacent face) or beyond a corner.
          // The face coordinate was held to [0, n] texels: a point tap is on the face once n
          // becomes n - 1, a bilinear one at most one texel beyond an edge.
          const int64_t n = size[0];
          auto index = [&](int axis, int k) {
            const int64_t v = taps[axis].index[k];
            return taps[axis].count == 1 ? std::min(v, n - 1) : v;
          };
          auto onCube = [&](int a, int b) {  // footprint tap (a, b) -> a texel of the cube
            const int64_t i = index(0, a), j = index(1, b);
            if (i >= 0 && i < n && j >= 0 && j < n)
              return CubeTexel{face, static_cast<uint32_t>(i), static_cast<uint32_t>(j)};
            return cubeNeighbour(face, i, j, static_cast<uint32_t>(n));
          };
          auto push = [&](const CubeTexel& c, float weight) {
            texel.weight = weight;
            // A neighbour's slice, held to the view (a T# whose view is not whole cubes).
            const uint32_t to = std::min(slice - face + c.face, r.baseArray + layers - 1);
            texel.address = layout.texelAddress(r.base, c.i, c.j, to, absolute);
            if (weight != 0.0f || gather) mem.texels.push_back(texel);
          };
          float weight = levelWeight[lv];
          for (int c = 0; c < 2; ++c) weight *= gather ? 1.0f : taps[c].weight[tap[c]];
          const int64_t ti = index(0, tap[0]), tj = index(1, tap[1]);
          const bool cornerTap = (ti < 0 || ti >= n) && (tj < 0 || tj >= n);
          if (!cornerTap) {
            push(onCube(tap[0], tap[1]), weight);
          } else if (gather) {
            push(onCube(1 - tap[0], 1 - tap[1]), weight);
          } else {
            push(onCube(1 - tap[0], tap[1]), weight / 3);
            push(onCube(tap[0], 1 - tap[1]), weight / 3);
            push(onCube(1 - tap[0], 1 - tap[1]), weight / 3);
          }
          continue;
        }
        int32_t index[3] = {0, 0, 0};
        for (int c = 0; c < dims; ++c) {
          texel.weight *= gather ? 1.0f : taps[c].weight[tap[c]];
          index[c] = addressMode(taps[c].index[tap[c]], size[c], s.clamp[c]);
          if (index[c] < 0) texel.fetch = false;
        }
        if (texel.fetch) {
          const uint32_t z = r.type == kImage3d ? static_cast<uint32_t>(index[2]) : slice;
          texel.address = layout.texelAddress(r.base, static_cast<uint32_t>(index[0]),
                                              static_cast<uint32_t>(index[1]), z, absolute);
        }
        if (texel.weight != 0.0f || gather) mem.texels.push_back(texel);
      }
    }
    if (info.compare) {
      const float ref = arg(compareAt, l);
      std::memcpy(mem.cmpElement(l, 0), &ref, 4);
    }
  }
  mem.texelData.resize(mem.texels.size() * MemRequest::kMaxElementBytes);
  // A request with texels goes to the texture path; get_lod reads nothing.
  mem.laneMask = getLod || mem.texels.empty() ? 0 : exec;
  setVgprWriteback(mem, m.vdata, dataDwords, LoadExt::None, exec);
  MemRequest::Writeback& wb = mem.writeback;
  if (!getLod) {
    wb.flags = kWbImage;
    wb.format = (r.dataFormat << imgwb::kDfmtShift) | (r.numFormat << imgwb::kNfmtShift) |
                (m.dmask << imgwb::kDmaskShift) | (m.d16 ? imgwb::kD16 : 0) |
                (r.dstSel << imgwb::kDstSelShift) | imgwb::kSample | (gather ? imgwb::kGather : 0) |
                (info.compare ? imgwb::kCompare : 0);
    wb.aux = static_cast<uint16_t>(s.borderColorType | (s.depthCompareFunc << 2) |
                                   ((__builtin_ctz(m.dmask) & 3) << 5));
  }
  if (m.tfe || m.lwe) wb.flags |= kWbTfe;
  x.r.kind = StepKind::Memory;
  w.pc += x.in.sizeBytes;
}

// The filtered results of a sample or gather4 (kSample), lane by lane from the texel list.
void completeImageSample(WaveState& wave, const MemRequest& mem) {
  const MemRequest::Writeback& wb = mem.writeback;
  const uint32_t p = wb.format;
  const uint32_t dfmt = (p >> imgwb::kDfmtShift) & 15, nfmt = (p >> imgwb::kNfmtShift) & 15;
  const uint32_t dmask = (p >> imgwb::kDmaskShift) & 15,
                 dstSel = (p >> imgwb::kDstSelShift) & 0xfff;
  const bool d16 = p & imgwb::kD16, gather = p & imgwb::kGather, compare = p & imgwb::kCompare;
  const uint32_t borderType = wb.aux & 3, compareFunc = (wb.aux >> 2) & 7;
  const int gatherComponent = (wb.aux >> 5) & 3;
  const bool integer = isIntegerNumFormat(nfmt);
  const uint32_t oneOf = nfmt == kImgNumFormatSrgb ? uint32_t{kNfmtUnorm} : nfmt;
  const uint32_t one = oneFor(oneOf);
  // The weighted sums start from -0, so that they equal the first product: a point sample (one
  // texel, weight 1) returns the texel's value unchanged, -0 included (as PoCL does for nearest
  // float reads, samp_2darray_f_nearest_norm_edge), where a sum from +0 would turn -0 into +0.
  float sum[kWaveSize][4];
  std::fill(&sum[0][0], &sum[0][0] + kWaveSize * 4, -0.0f);
  uint32_t bits[kWaveSize][4] = {};  // integer formats (point sampling) and gather4 of them
  for (size_t i = 0; i < mem.texels.size(); ++i) {
    const MemRequest::Texel& t = mem.texels[i];
    uint32_t v[4];
    if (t.fetch) {
      uint32_t fetched[4];
      unpackTexel(dfmt, nfmt, false, mem.texelElement(i), fetched);
      for (int c = 0; c < 4; ++c) v[c] = selectComponent(dstSel, c, fetched, one);
    } else {
      // Border colours, in the swizzled result (x, y, z, w): transparent black, opaque black,
      // opaque white.
      const uint32_t on = integer ? 1u : floatBits(1.0f);
      for (int c = 0; c < 3; ++c) v[c] = borderType == kBorderOpaqueWhite ? on : 0u;
      v[3] = borderType == kBorderTransparentBlack ? 0u : on;
    }
    if (compare) {
      float ref;
      std::memcpy(&ref, mem.cmpElement(t.lane, 0), 4);
      const float texel = asFloat(v[0]);
      bool pass = false;
      switch (compareFunc) {
        case 1:
          pass = ref < texel;
          break;
        case 2:
          pass = ref == texel;
          break;
        case 3:
          pass = ref <= texel;
          break;
        case 4:
          pass = ref > texel;
          break;
        case 5:
          pass = ref != texel;
          break;
        case 6:
          pass = ref >= texel;
          break;
        case 7:
          pass = true;
          break;
        default:
          break;
      }
      for (int c = 0; c < 4; ++c) v[c] = floatBits(pass ? 1.0f : 0.0f);
    }
    if (gather) {
      bits[t.lane][t.slot] = v[gatherComponent];
      sum[t.lane][t.slot] = asFloat(v[gatherComponent]);
      continue;
    }
    for (int c = 0; c < 4; ++c) {
      sum[t.lane][c] += t.weight * asFloat(v[c]);
      if (t.weight == 1.0f) bits[t.lane][c] = v[c];
    }
  }
  for (uint64_t b = wb.lanes; b != 0; b &= b - 1) {
    const int l = __builtin_ctzll(b);
    uint32_t values[4];
    for (int c = 0; c < 4; ++c) {
      const bool asBits = integer && !compare;
      values[c] = asBits ? bits[l][c] : floatBits(sum[l][c]);
      if (d16)
        values[c] = asBits ? values[c] & 0xffff
                           : encodeSmallFloat(sum[l][c], 5, 10, true, SmallFloatRound::NearestEven);
    }
    writeDmaskComponents(wave, wb.reg, gather ? 0xf : dmask, d16, l, values);
  }
}

void execImageNotModelled(ExecArgs& x) {
  faultWith(x, std::string(x.op.name) + " is not modelled yet (docs/images.md)");
}

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

bool startsWith(const std::string& s, const char* prefix) {
  return s.rfind(prefix, 0) == 0;
}

struct Tables {
  std::vector<OpInfo> ops;
  ImageOpInfo info[128];  // by opcode
  Tables() {
    for (const MimgRow& r : kMimg) {
      OpInfo o;
      o.name = r.name;
      o.enc = Enc::Mimg;
      o.opcode = static_cast<int16_t>(r.op);
      o.src0 = dwordsTy(r.addrDwords);
      o.src2 = r.sampler ? Ty::B128 : Ty::None;
      const std::string n = r.name;
      ImageOpInfo& info = this->info[r.op & 127];
      o.mem.op = MemOp::Load;
      if (startsWith(n, "image_load") || startsWith(n, "image_store")) {
        info.kind = startsWith(n, "image_load") ? ImageKind::Load : ImageKind::Store;
        info.mip = n.find("_mip") != std::string::npos;
        info.raw = n.find("_pck") != std::string::npos;
        info.signExt = n.find("_sgn") != std::string::npos;
        o.mem.op = info.kind == ImageKind::Store ? MemOp::Store : MemOp::Load;
        o.exec = execImageMemory;
      } else if (startsWith(n, "image_atomic_")) {
        info.kind = ImageKind::Atomic;
        o.mem.op = MemOp::Atomic;
        for (const auto& a : kImageAtomics)
          if (n == std::string("image_atomic_") + a.suffix) o.mem.atomic = a.op;
        o.exec = execImageMemory;
      } else if (n == "image_get_resinfo") {
        info.kind = ImageKind::ResInfo;
        o.exec = execImageResInfo;
      } else if (startsWith(n, "image_sample") || startsWith(n, "image_gather4") ||
                 n == "image_get_lod") {
        info.kind = startsWith(n, "image_sample")    ? ImageKind::Sample
                    : startsWith(n, "image_gather4") ? ImageKind::Gather
                                                     : ImageKind::GetLod;
        // The suffixes after image_sample / image_gather4, each between underscores.
        const size_t tail = n.find('_', 6);
        const std::string suffixes = (tail == std::string::npos ? "" : n.substr(tail)) + "_";
        auto has = [&](const char* t) {
          return suffixes.find(std::string("_") + t + "_") != std::string::npos;
        };
        info.clamp = has("cl");
        info.derivatives = has("d") || has("cd");
        info.lod = has("l");
        info.bias = has("b");
        info.lodZero = has("lz");
        info.compare = has("c");
        info.offset = has("o");
        o.exec = execImageSample;
      } else {
        o.exec = execImageNotModelled;
        o.flags = kNotModelled;
      }
      o.mem.returns = o.mem.op != MemOp::Store;
      o.issue = IssueType::Vmem;
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

const Tables& tables() {
  static const Tables t;
  return t;
}

const ImageOpInfo& imageOpInfo(int opcode) {
  return tables().info[opcode & 127];
}

}  // namespace

void completeImageLoad(WaveState& wave, const MemRequest& mem) {
  const MemRequest::Writeback& wb = mem.writeback;
  const uint32_t p = wb.format;
  const uint32_t dfmt = (p >> imgwb::kDfmtShift) & 15, nfmt = (p >> imgwb::kNfmtShift) & 15;
  const uint32_t dmask = (p >> imgwb::kDmaskShift) & 15,
                 dstSel = (p >> imgwb::kDstSelShift) & 0xfff;
  const bool d16 = p & imgwb::kD16, raw = p & imgwb::kRaw, signExt = p & imgwb::kSignExt;
  if (!vgprInRange(wave, wb.reg, wb.count)) return;  // checked at issue; defensive
  if (p & imgwb::kSample) return completeImageSample(wave, mem);
  const FormatLayout* f = formatLayout(dfmt);
  if (f == nullptr) return;  // checked at issue; defensive
  const uint32_t oneOf = nfmt == kImgNumFormatSrgb ? uint32_t{kNfmtUnorm} : nfmt;
  const uint32_t one = d16 ? oneForD16(oneOf) : oneFor(oneOf);
  for (uint64_t b = wb.lanes; b != 0; b &= b - 1) {
    const int l = __builtin_ctzll(b);
    uint32_t values[4] = {0, 0, 0, 0};  // out of range: every component reads 0
    if ((mem.laneMask >> l) & 1) {
      const uint8_t* e = mem.element(l, 0);
      if (raw) {
        // _pck: the format's components as stored, DST_SEL not applied.
        for (int c = 0; c < f->components; ++c) {
          values[c] = rawComponent(*f, c, e, signExt);
          if (d16) values[c] &= 0xffff;
        }
      } else {
        uint32_t fetched[4];
        unpackTexel(dfmt, nfmt, d16, e, fetched);
        for (int c = 0; c < 4; ++c) values[c] = selectComponent(dstSel, c, fetched, one);
      }
    }
    writeDmaskComponents(wave, wb.reg, dmask, d16, l, values);
  }
}

OpTable mimgTable() {
  const Tables& t = tables();
  return {t.ops.data(), static_cast<int>(t.ops.size())};
}

}  // namespace vgpu::isa

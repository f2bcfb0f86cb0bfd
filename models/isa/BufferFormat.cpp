// Buffer data-format conversion: see BufferFormat.h for the rules and their sources.
#include "isa/BufferFormat.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace vgpu::isa {

namespace {

// Component widths from the least significant bits up (the names list them the other way).
const FormatLayout kLayouts[16] = {
    {},                                          // 0 INVALID
    {1, 1, {8}, {0}},                            // 8
    {2, 1, {16}, {0}},                           // 16
    {2, 2, {8, 8}, {0, 8}},                      // 8_8
    {4, 1, {32}, {0}},                           // 32
    {4, 2, {16, 16}, {0, 16}},                   // 16_16
    {4, 3, {11, 11, 10}, {0, 11, 22}},           // 10_11_11
    {4, 3, {10, 11, 11}, {0, 10, 21}},           // 11_11_10
    {4, 4, {2, 10, 10, 10}, {0, 2, 12, 22}},     // 10_10_10_2
    {4, 4, {10, 10, 10, 2}, {0, 10, 20, 30}},    // 2_10_10_10
    {4, 4, {8, 8, 8, 8}, {0, 8, 16, 24}},        // 8_8_8_8
    {8, 2, {32, 32}, {0, 32}},                   // 32_32
    {8, 4, {16, 16, 16, 16}, {0, 16, 32, 48}},   // 16_16_16_16
    {12, 3, {32, 32, 32}, {0, 32, 64}},          // 32_32_32
    {16, 4, {32, 32, 32, 32}, {0, 32, 64, 96}},  // 32_32_32_32
    {},                                          // 15 RESERVED
};

const char* const kDataFormatNames[16] = {
    "BUF_DATA_FORMAT_INVALID",     "BUF_DATA_FORMAT_8",        "BUF_DATA_FORMAT_16",
    "BUF_DATA_FORMAT_8_8",         "BUF_DATA_FORMAT_32",       "BUF_DATA_FORMAT_16_16",
    "BUF_DATA_FORMAT_10_11_11",    "BUF_DATA_FORMAT_11_11_10", "BUF_DATA_FORMAT_10_10_10_2",
    "BUF_DATA_FORMAT_2_10_10_10",  "BUF_DATA_FORMAT_8_8_8_8",  "BUF_DATA_FORMAT_32_32",
    "BUF_DATA_FORMAT_16_16_16_16", "BUF_DATA_FORMAT_32_32_32", "BUF_DATA_FORMAT_32_32_32_32",
    "BUF_DATA_FORMAT_RESERVED_15",
};
const char* const kNumFormatNames[8] = {
    "BUF_NUM_FORMAT_UNORM",      "BUF_NUM_FORMAT_SNORM", "BUF_NUM_FORMAT_USCALED",
    "BUF_NUM_FORMAT_SSCALED",    "BUF_NUM_FORMAT_UINT",  "BUF_NUM_FORMAT_SINT",
    "BUF_NUM_FORMAT_RESERVED_6", "BUF_NUM_FORMAT_FLOAT",
};

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

// Round half to even, independent of the host's floating-point environment.
double roundNearestEven(double v) {
  const double lower = std::floor(v);
  const double frac = v - lower;
  if (frac > 0.5 || (frac == 0.5 && std::fmod(lower, 2.0) != 0.0)) return lower + 1.0;
  return lower;
}

double maxUnsigned(int bits) {
  return std::ldexp(1.0, bits) - 1.0;
}
double maxSigned(int bits) {
  return std::ldexp(1.0, bits - 1) - 1.0;
}
int64_t signExtend(uint64_t v, int bits) {
  const uint64_t m = 1ull << (bits - 1);
  return static_cast<int64_t>((v ^ m) - m);
}
uint64_t fieldMask(int bits) {
  return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

uint64_t readField(const uint8_t* src, const FormatLayout& l, int c) {
  uint32_t dword;
  const int byte = (l.shift[c] / 32) * 4;
  const int n = std::min(4, static_cast<int>(l.bytes) - byte);
  dword = 0;
  std::memcpy(&dword, src + byte, static_cast<size_t>(n));
  return (dword >> (l.shift[c] % 32)) & fieldMask(l.bits[c]);
}

void writeField(uint8_t* dst, const FormatLayout& l, int c, uint64_t value) {
  const int byte = (l.shift[c] / 32) * 4;
  const int n = std::min(4, static_cast<int>(l.bytes) - byte);
  uint32_t dword = 0;
  std::memcpy(&dword, dst + byte, static_cast<size_t>(n));
  const uint32_t mask = static_cast<uint32_t>(fieldMask(l.bits[c]) << (l.shift[c] % 32));
  dword = (dword & ~mask) | (static_cast<uint32_t>(value << (l.shift[c] % 32)) & mask);
  std::memcpy(dst + byte, &dword, static_cast<size_t>(n));
}

// A component's value as the shader sees it, before it becomes 32 or 16 bits: an integer for
// UINT/SINT (and FLOAT bit patterns passed through), else a real number.
struct Value {
  bool isReal = false;
  double real = 0;
  uint64_t bits = 0;
};

// One memory component -> its value. FLOAT components keep their encoding in `bits` as well:
// the 32-bit shader value of a 16/11/10-bit float is exact, and a D16 result of one is a
// re-encoding (see toD16).
Value decodeComponent(uint64_t c, int bits, uint32_t nfmt) {
  Value v;
  v.bits = c;
  switch (nfmt) {
    case kNfmtUnorm:
      v.isReal = true;
      v.real = static_cast<double>(c) / maxUnsigned(bits);
      break;
    case kNfmtSnorm:
      v.isReal = true;
      // D3D10+ rule: the most negative code and the next one both map to -1.0.
      v.real = std::max(static_cast<double>(signExtend(c, bits)) / maxSigned(bits), -1.0);
      break;
    case kNfmtUscaled:
      v.isReal = true;
      v.real = static_cast<double>(c);
      break;
    case kNfmtSscaled:
      v.isReal = true;
      v.real = static_cast<double>(signExtend(c, bits));
      break;
    case kNfmtSint:
      v.bits = static_cast<uint64_t>(signExtend(c, bits));
      break;
    case kNfmtFloat:
      v.isReal = true;
      if (bits == 32)
        v.real = asFloat(static_cast<uint32_t>(c));
      else if (bits == 16)
        v.real = decodeSmallFloat(static_cast<uint32_t>(c), 5, 10, true);
      else
        v.real = decodeSmallFloat(static_cast<uint32_t>(c), 5, bits - 5, false);
      break;
    default:  // UINT
      break;
  }
  return v;
}

uint32_t toShader32(const Value& v, int bits, uint32_t nfmt) {
  if (!v.isReal) return static_cast<uint32_t>(v.bits);
  if (nfmt == kNfmtFloat && bits == 32) return static_cast<uint32_t>(v.bits);
  return floatBits(static_cast<float>(v.real));
}

uint16_t toShader16(const Value& v, int bits, uint32_t nfmt) {
  if (!v.isReal) return static_cast<uint16_t>(v.bits);
  if (nfmt == kNfmtFloat) {
    if (bits == 16) return static_cast<uint16_t>(v.bits);
    if (bits == 32)  // Vega ISA guide 8.1: float32 to float16 truncates
      return static_cast<uint16_t>(
          encodeSmallFloat(v.real, 5, 10, true, SmallFloatRound::TowardZero));
    // Unsigned 11/10-bit floats share f16's exponent: the mantissa widens to 10 bits.
    return static_cast<uint16_t>(v.bits << (15 - bits));
  }
  return static_cast<uint16_t>(encodeSmallFloat(v.real, 5, 10, true, SmallFloatRound::NearestEven));
}

// A shader value (an integer, or a real for the float-valued formats) -> one memory component.
uint64_t encodeComponent(bool isReal, double real, int64_t integer, int bits, uint32_t nfmt) {
  if (!isReal) {
    if (nfmt == kNfmtSint) {
      const int64_t lo = -(int64_t{1} << (bits - 1)), hi = (int64_t{1} << (bits - 1)) - 1;
      return static_cast<uint64_t>(std::clamp(integer, lo, hi)) & fieldMask(bits);
    }
    return std::min(static_cast<uint64_t>(integer), fieldMask(bits));  // UINT
  }
  if (nfmt == kNfmtFloat) {
    if (bits == 32) return floatBits(static_cast<float>(real));
    if (bits == 16) return encodeSmallFloat(real, 5, 10, true, SmallFloatRound::NearestEven);
    return encodeSmallFloat(real, 5, bits - 5, false, SmallFloatRound::NearestEven);
  }
  if (std::isnan(real)) return 0;
  double scaled;
  switch (nfmt) {
    case kNfmtUnorm:
      scaled = std::clamp(real, 0.0, 1.0) * maxUnsigned(bits);
      break;
    case kNfmtSnorm:
      scaled = std::clamp(real, -1.0, 1.0) * maxSigned(bits);
      break;
    case kNfmtUscaled:
      scaled = std::clamp(real, 0.0, maxUnsigned(bits));
      break;
    default:  // SSCALED
      scaled = std::clamp(real, -maxSigned(bits) - 1.0, maxSigned(bits));
      break;
  }
  return static_cast<uint64_t>(static_cast<int64_t>(roundNearestEven(scaled))) & fieldMask(bits);
}

}  // namespace

const FormatLayout* formatLayout(uint32_t dfmt) {
  if (dfmt == kDfmtInvalid || dfmt >= kDfmtReserved15) return nullptr;
  return &kLayouts[dfmt];
}

const char* dataFormatName(uint32_t dfmt) {
  return kDataFormatNames[dfmt & 15];
}
const char* numFormatName(uint32_t nfmt) {
  return kNumFormatNames[nfmt & 7];
}

const char* formatProblem(uint32_t dfmt, uint32_t nfmt) {
  if (dfmt == kDfmtReserved15) return "reserved data format BUF_DATA_FORMAT_RESERVED_15";
  if (nfmt == kNfmtReserved6) return "reserved number format BUF_NUM_FORMAT_RESERVED_6";
  const FormatLayout* l = formatLayout(dfmt);
  if (!l) return nullptr;  // INVALID: the null resource, not a fault
  const int widest = *std::max_element(l->bits, l->bits + l->components);
  if (dfmt == kDfmt10_11_11 || dfmt == kDfmt11_11_10)
    return nfmt == kNfmtFloat ? nullptr : "the packed 11/10-bit formats hold only FLOAT";
  if (nfmt == kNfmtFloat && widest != 16 && widest != 32)
    return "there is no 8-, 10- or 2-bit FLOAT component";
  if (widest == 32 && !isIntegerNumFormat(nfmt) && nfmt != kNfmtFloat)
    return "32-bit components are only UINT, SINT or FLOAT";
  return nullptr;
}

uint32_t oneFor(uint32_t nfmt) {
  return isIntegerNumFormat(nfmt) ? 1u : 0x3f800000u;  // 1.0f
}
uint16_t oneForD16(uint32_t nfmt) {
  return isIntegerNumFormat(nfmt) ? uint16_t{1} : uint16_t{0x3c00};  // 1.0 in f16
}

void unpackElement(uint32_t dfmt, uint32_t nfmt, const uint8_t* src, uint32_t out[4]) {
  out[0] = out[1] = out[2] = 0;
  out[3] = oneFor(nfmt);
  const FormatLayout* l = formatLayout(dfmt);
  if (!l) return;
  for (int c = 0; c < l->components; ++c)
    out[c] = toShader32(decodeComponent(readField(src, *l, c), l->bits[c], nfmt), l->bits[c], nfmt);
}

void unpackElementD16(uint32_t dfmt, uint32_t nfmt, const uint8_t* src, uint16_t out[4]) {
  out[0] = out[1] = out[2] = 0;
  out[3] = oneForD16(nfmt);
  const FormatLayout* l = formatLayout(dfmt);
  if (!l) return;
  for (int c = 0; c < l->components; ++c)
    out[c] = toShader16(decodeComponent(readField(src, *l, c), l->bits[c], nfmt), l->bits[c], nfmt);
}

void packElement(uint32_t dfmt, uint32_t nfmt, const uint32_t in[4], uint8_t* dst) {
  const FormatLayout* l = formatLayout(dfmt);
  if (!l) return;
  for (int c = 0; c < l->components; ++c) {
    const bool isReal = !isIntegerNumFormat(nfmt);
    const int64_t integer = nfmt == kNfmtSint ? static_cast<int64_t>(static_cast<int32_t>(in[c]))
                                              : static_cast<int64_t>(in[c]);
    uint64_t field;
    if (nfmt == kNfmtFloat && l->bits[c] == 32)
      field = in[c];  // f32 to f32: the bits as they are (NaN payloads included)
    else
      field = encodeComponent(isReal, isReal ? asFloat(in[c]) : 0.0, integer, l->bits[c], nfmt);
    writeField(dst, *l, c, field);
  }
}

void packElementD16(uint32_t dfmt, uint32_t nfmt, const uint16_t in[4], uint8_t* dst) {
  const FormatLayout* l = formatLayout(dfmt);
  if (!l) return;
  for (int c = 0; c < l->components; ++c) {
    const bool isReal = !isIntegerNumFormat(nfmt);
    const int64_t integer = nfmt == kNfmtSint ? static_cast<int64_t>(static_cast<int16_t>(in[c]))
                                              : static_cast<int64_t>(in[c]);
    uint64_t field;
    if (nfmt == kNfmtFloat && l->bits[c] == 16)
      field = in[c];  // f16 to f16: the bits as they are
    else
      field = encodeComponent(isReal, isReal ? decodeSmallFloat(in[c], 5, 10, true) : 0.0, integer,
                              l->bits[c], nfmt);
    writeField(dst, *l, c, field);
  }
}

uint32_t encodeSmallFloat(double value, int expBits, int mantBits, bool hasSign,
                          SmallFloatRound round) {
  const uint32_t expAllOnes = (1u << expBits) - 1;
  const uint32_t signBit = hasSign ? 1u << (expBits + mantBits) : 0u;
  if (std::isnan(value)) return (expAllOnes << mantBits) | (1u << (mantBits - 1));  // quiet NaN
  const bool negative = std::signbit(value);
  if (negative && !hasSign) return 0;  // unsigned floats: negative values (and -0) become 0
  const uint32_t sign = negative ? signBit : 0u;
  const double a = std::fabs(value);
  if (std::isinf(a)) return sign | (expAllOnes << mantBits);
  if (a == 0.0) return sign;
  const int bias = (1 << (expBits - 1)) - 1;
  const uint32_t maxFinite = ((expAllOnes - 1) << mantBits) | ((1u << mantBits) - 1);
  auto roundScaled = [&](double x) {
    return round == SmallFloatRound::NearestEven ? roundNearestEven(x) : std::floor(x);
  };
  int exp2;
  std::frexp(a, &exp2);  // a = f * 2^exp2, f in [0.5, 1): a = 1.m * 2^(exp2 - 1)
  int biased = exp2 - 1 + bias;
  uint64_t q;
  if (biased >= 1) {
    q = static_cast<uint64_t>(roundScaled(std::ldexp(a, mantBits - (exp2 - 1))));
    if (q == (1ull << (mantBits + 1))) {  // rounded up to the next power of two
      q >>= 1;
      ++biased;
    }
    if (biased >= static_cast<int>(expAllOnes))
      return sign | (round == SmallFloatRound::NearestEven ? expAllOnes << mantBits : maxFinite);
    return sign | (static_cast<uint32_t>(biased) << mantBits) |
           static_cast<uint32_t>(q - (1ull << mantBits));
  }
  // Denormal (q == 2^mantBits rounds up into the smallest normal, which encodes the same way).
  q = static_cast<uint64_t>(roundScaled(std::ldexp(a, mantBits - 1 + bias)));
  return sign | static_cast<uint32_t>(q);
}

double decodeSmallFloat(uint32_t bits, int expBits, int mantBits, bool hasSign) {
  const uint32_t expAllOnes = (1u << expBits) - 1;
  const int bias = (1 << (expBits - 1)) - 1;
  const bool negative = hasSign && ((bits >> (expBits + mantBits)) & 1);
  const uint32_t e = (bits >> mantBits) & expAllOnes;
  const uint32_t m = bits & ((1u << mantBits) - 1);
  double v;
  if (e == expAllOnes)
    v = m ? std::nan("") : HUGE_VAL;
  else if (e == 0)
    v = std::ldexp(static_cast<double>(m), 1 - bias - mantBits);
  else
    v = std::ldexp(static_cast<double>(m | (1u << mantBits)),
                   static_cast<int>(e) - bias - mantBits);
  return negative ? -v : v;
}

}  // namespace vgpu::isa

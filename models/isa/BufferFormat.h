// Buffer data-format conversion (Vega ISA guide ch. 8.1 "Buffer Data", 8.1.4 "D16"): one
// element of a BUF_DATA_FORMAT_* x BUF_NUM_FORMAT_* pair in memory <-> four shader values.
// Pure functions, no wave state: MUBUF *_format and MTBUF loads and stores use them, and so
// does the unit test of every format.
#pragma once

#include <cstdint>

namespace vgpu::isa {

// BUF_DATA_FORMAT_* (V# DATA_FORMAT, MTBUF DFMT). Names list the components from the most
// significant bits down: 10_11_11 is X in bits [10:0], Y in [21:11], Z in [31:22] (Mesa's
// radv/radeonsi map R11G11B10_FLOAT to BUF_DATA_FORMAT_10_11_11 and R10G10B10A2 to 2_10_10_10).
enum BufDataFormat : uint8_t {
  kDfmtInvalid = 0,
  kDfmt8 = 1,
  kDfmt16 = 2,
  kDfmt8_8 = 3,
  kDfmt32 = 4,
  kDfmt16_16 = 5,
  kDfmt10_11_11 = 6,
  kDfmt11_11_10 = 7,
  kDfmt10_10_10_2 = 8,
  kDfmt2_10_10_10 = 9,
  kDfmt8_8_8_8 = 10,
  kDfmt32_32 = 11,
  kDfmt16_16_16_16 = 12,
  kDfmt32_32_32 = 13,
  kDfmt32_32_32_32 = 14,
  kDfmtReserved15 = 15,
};

// BUF_NUM_FORMAT_* (V# NUM_FORMAT, MTBUF NFMT).
enum BufNumFormat : uint8_t {
  kNfmtUnorm = 0,
  kNfmtSnorm = 1,
  kNfmtUscaled = 2,
  kNfmtSscaled = 3,
  kNfmtUint = 4,
  kNfmtSint = 5,
  kNfmtReserved6 = 6,
  kNfmtFloat = 7,
};

// V# DST_SEL_* values (Vega ISA guide 8.1.5 buffer resource).
enum DstSel : uint8_t { kSel0 = 0, kSel1 = 1, kSelX = 4, kSelY = 5, kSelZ = 6, kSelW = 7 };

// Where the components of one element live: `bits[c]` wide at bit `shift[c]` of the element
// (32-bit components are whole dwords).
struct FormatLayout {
  uint8_t bytes = 0;       // element size: 1, 2, 4, 8, 12 or 16
  uint8_t components = 0;  // 1..4
  uint8_t bits[4] = {};
  uint8_t shift[4] = {};
};

// The layout of `dfmt`, or nullptr for INVALID (0) and RESERVED (15).
const FormatLayout* formatLayout(uint32_t dfmt);

// "BUF_DATA_FORMAT_8_8", "BUF_NUM_FORMAT_SNORM", ... as llvm-objdump prints them.
const char* dataFormatName(uint32_t dfmt);
const char* numFormatName(uint32_t nfmt);

// Whether the pair is a format the texture unit converts: empty if it is, else why not (for
// the fault report). INVALID (0) is not reported here: it is the null resource.
// Valid: 8/8_8/8_8_8_8/10_10_10_2/2_10_10_10 with UNORM, SNORM, USCALED, SSCALED, UINT, SINT;
// 16/16_16/16_16_16_16 with all seven; 32.. with UINT, SINT, FLOAT; 10_11_11/11_11_10 with FLOAT
// (there is no 8- or 10-bit float, no normalized or scaled 32-bit integer, and the packed
// 11/10-bit fields are unsigned floats).
const char* formatProblem(uint32_t dfmt, uint32_t nfmt);

// UINT and SINT give integers to the shader; every other number format gives floats.
inline bool isIntegerNumFormat(uint32_t nfmt) {
  return nfmt == kNfmtUint || nfmt == kNfmtSint;
}

// Load: the element at `src` (layout.bytes bytes) as four 32-bit shader values (f32 bits for
// the float-valued number formats). Components the format lacks are 0, 0, 0, 1 (1.0f or 1).
void unpackElement(uint32_t dfmt, uint32_t nfmt, const uint8_t* src, uint32_t out[4]);
// D16 load: the same values as 16-bit data: f16 for the float-valued number formats (a 32-bit
// FLOAT component is truncated toward zero, every other input rounds to nearest even, seed
// 001), the low 16 bits of the integer for UINT/SINT.
void unpackElementD16(uint32_t dfmt, uint32_t nfmt, const uint8_t* src, uint16_t out[4]);

// Store: four 32-bit shader values (f32 bits for the float-valued formats) into one element
// at `dst`. Floats to UNORM/SNORM/USCALED/SSCALED: NaN gives 0, out-of-range values saturate,
// the rest rounds to nearest even; integers saturate to the component's range; f32 to a 16-,
// 11- or 10-bit float rounds to nearest even (NaN stays NaN, negative values become 0 in the
// unsigned 11/10-bit floats).
void packElement(uint32_t dfmt, uint32_t nfmt, const uint32_t in[4], uint8_t* dst);
// D16 store: four 16-bit shader values (f16 for the float-valued formats; UINT zero-extends,
// SINT sign-extends) into one element.
void packElementD16(uint32_t dfmt, uint32_t nfmt, const uint16_t in[4], uint8_t* dst);

// The value 1 of the shader-side type for `nfmt` (DST_SEL SEL_1): 1.0f bits, or integer 1;
// and its 16-bit (D16) form: 1.0 in f16, or 1.
uint32_t oneFor(uint32_t nfmt);
uint16_t oneForD16(uint32_t nfmt);

// Small-float encodings used by the formats: `value` rounded to a float with `expBits` exponent
// bits (bias 2^(expBits-1) - 1), `mantBits` mantissa bits and a sign bit if `hasSign`. Round to
// nearest even (overflow gives infinity) or toward zero (overflow gives the largest finite
// value); NaN gives a quiet NaN; unsigned formats give 0 for negative values and -0.
enum class SmallFloatRound { NearestEven, TowardZero };
uint32_t encodeSmallFloat(double value, int expBits, int mantBits, bool hasSign,
                          SmallFloatRound round);
double decodeSmallFloat(uint32_t bits, int expBits, int mantBits, bool hasSign);

}  // namespace vgpu::isa

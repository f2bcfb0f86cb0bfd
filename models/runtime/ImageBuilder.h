// Host-side image and sampler objects for the simulated gfx9 GPU: what a runtime hands a kernel
// for an OpenCL/HIP image or sampler argument. Used by the HSA runtime (runtime/hsa:
// hsa_ext_image_create, hsa_ext_sampler_create) and by the differential tests.
//
// An image argument is a pointer to an image object (as ROCr's gfx9 image manager lays it out,
// ROCm/ROCR-Runtime src/image/image_manager_ai.cpp, PopulateImageSrd): dwords 0-7 the T# (Vega
// ISA guide 8.2.1), dword 8 the HSA channel type, dword 9 the HSA channel order, dword 10 the
// width in texels. ROCm-Device-Libs' ockl (image.cl) reads them: get_image_channel_data_type /
// _order map dwords 8 / 9 to the OpenCL values through a table, get_image_width returns dword 10,
// and a sample with normalized coordinates and a point filter snaps the coordinate to
// floor(u * dword 10) / dword 10 first. A sampler argument is a pointer to its 16-byte S#.
//
// Formats, orders and geometries are the numbers of hsa_ext_image.h (HSA runtime specification,
// image extension), the ones dwords 8 and 9 hold. The texels are linear (SW_MODE 0) in the layout
// ImageResource.h's decoder addresses (isa::linearLayout): the builder chooses only the row pitch
// (the width padded to 256 bytes, addrlib's linear pitch for gfx9, or the caller's) and takes row
// and slice pitch back from the decoded T#.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "isa/ImageResource.h"
#include "isa/Memory.h"

namespace vgpu::image {

// hsa_ext_image_geometry_t
enum Geometry : uint32_t { k1d = 0, k2d = 1, k3d = 2, k1dArray = 3, k2dArray = 4, k1dBuffer = 5 };

struct ImageDescription {
  uint32_t geometry = k2d;
  uint64_t width = 1, height = 0, depth = 0, arraySize = 0;  // hsa_ext_image_descriptor_t's
  uint32_t channelType = 0;                                  // hsa_ext_image_channel_type_t
  uint32_t channelOrder = 0;                                 // hsa_ext_image_channel_order_t
  // Linear layout with the caller's pitches (hsa_ext_image_create_with_layout); 0: the default.
  uint64_t rowPitchBytes = 0, slicePitchBytes = 0;
};

// Why an image cannot be built; the HSA runtime maps these to its status codes.
enum class ImageProblem { kNone, kInvalid, kFormat, kSize, kPitch };

struct ImagePlan {
  // 1D buffer images (HSA 1DB) are typed buffers: a V# (Vega ISA guide 8.1.5) in dwords 0-3 of
  // the image object instead of a T#, read by buffer_load_format (ockl's __ockl_image_load_1Db),
  // one record of `texelBytes` per texel, no padding.
  bool buffer = false;
  isa::BufferResource bufferResource;  // the V#'s fields when `buffer`, base address 0
  isa::ImageResource resource;         // the T#'s fields, base address 0
  isa::ImageLayout layout;             // from the decoder: where texel (x, y, slice) lies
  uint32_t texelBytes = 0;
  uint32_t width = 1, height = 1, slices = 1;  // slices: 3D depth or array layers
  uint64_t rowPitchBytes = 0, slicePitchBytes = 0;
  uint64_t dataBytes = 0;  // the linear texel data, from the base address
  uint32_t channelType = 0, channelOrder = 0;
};
constexpr uint64_t kImageDataAlignment = 256;  // T# BASE_ADDRESS is in 256-byte units
constexpr uint64_t kImageRowPitchAlignment = 256;
// The image object: T#, channel type, channel order, width, one spare dword.
constexpr uint64_t kImageObjectBytes = 48;
// What the T# can hold: WIDTH/HEIGHT are 14 bits, DEPTH 13 (Vega ISA guide 8.2.1).
constexpr uint64_t kMaxImageWidth = 16384, kMaxImageHeight = 16384, kMaxImageDepth = 8192,
                   kMaxImageLayers = 8192;
// 1D buffer images: NUM_RECORDS is 32 bits; 2^27 texels is what ROCclr assumes for OpenCL.
constexpr uint64_t kMaxImageBufferTexels = uint64_t{1} << 27;

struct BuildResult {
  ImageProblem problem = ImageProblem::kNone;
  std::string message;  // what is wrong, when problem != kNone
  explicit operator bool() const { return problem == ImageProblem::kNone; }
};

// The layout and T# of `d`. Formats: channel types SNORM/UNORM INT8 and INT16, SIGNED/UNSIGNED
// INT8/16/32, HALF_FLOAT, FLOAT; orders A, R, RX, RG, RGX, RA, RGBA, BGRA, ARGB, ABGR,
// INTENSITY, LUMINANCE (the others, packed types and 3-channel orders: kFormat). Geometries 1D,
// 2D, 3D, 1DA, 2DA, one mip level, and 1DB (a V#); depth images: kInvalid.
BuildResult planImage(const ImageDescription& d, ImagePlan& out);

// The image object's dwords for texel data at `dataAddress` (256-byte aligned, else the message;
// 1D buffer images: any address).
BuildResult imageObject(const ImagePlan& plan, uint64_t dataAddress,
                        std::array<uint32_t, kImageObjectBytes / 4>& words);

// Copies between tightly packed texels (x fastest, then y, then slice: what OpenCL's
// clEnqueueWriteImage with zero pitches and hipMemcpy2DToArray's source look like) and the
// linear layout (plan.dataBytes).
void packedToLinear(const ImagePlan& plan, const uint8_t* packed, uint8_t* linear);
void linearToPacked(const ImagePlan& plan, const uint8_t* linear, uint8_t* packed);

// hsa_ext_sampler_descriptor_t's modes (hsa_ext_image.h numbers).
struct SamplerDescription {
  uint32_t coordinateMode = 0;  // 0 unnormalized, 1 normalized
  uint32_t filterMode = 0;      // 0 nearest, 1 linear
  uint32_t addressingMode = 0;  // 0 undefined, 1 clamp to edge, 2 clamp to border, 3 repeat,
                                // 4 mirrored repeat
};
// The S# words, as ROCr's gfx9 image manager maps the modes (PopulateSamplerSrd): addressing
// to CLAMP_X/Y/Z (edge: last texel, border: border with transparent black, repeat and undefined:
// wrap, mirrored repeat: mirror), nearest/linear to point/bilinear XY filters, no mip or Z
// filter, MAX_LOD 4095, FORCE_UNNORMALIZED for unnormalized coordinates.
BuildResult samplerWords(const SamplerDescription& d, std::array<uint32_t, 4>& words);

}  // namespace vgpu::image

// The HSA image extension (hsa_ext_image.h; HSA runtime specification, "Images and Samplers"):
// capabilities, data sizes, image and sampler objects, import and export, and the agent
// attributes HSA_EXT_AGENT_INFO_IMAGE_*. The objects are the ones the gfx9 device code expects
// (models/runtime/ImageBuilder.h): an image handle is the address of a 48-byte image object (T#,
// channel type, channel order, width), a sampler handle the address of its 16-byte S#, both in
// system memory the GPU reads (the CPU fine-grained pool), as ROCr places its own. The texel
// data is the application's (hsa_ext_image_data_get_info gives its size and alignment), laid out
// linearly for both layouts: the opaque layout is the linear one with the default pitch.
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsa/hsa_ext_image.h>

#include <cstring>
#include <map>
#include <mutex>

#include "runtime/ImageBuilder.h"
#include "runtime/hsa/HsaRuntime.h"

using vgpu::hsa::Runtime;
namespace image = vgpu::image;

#define VGPU_RUNTIME(rt)        \
  Runtime* rt = Runtime::get(); \
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED

namespace {

struct ImageRecord {
  image::ImagePlan plan;
  uint64_t data = 0;  // the texels' address
};

std::mutex gImagesMutex;
std::map<uint64_t, ImageRecord> gImages;  // by handle (the image object's address)
std::map<uint64_t, bool> gSamplers;       // by handle (the S#'s address)

bool isGpu(Runtime* rt, hsa_agent_t agent) {
  return rt->isAgent(agent) && reinterpret_cast<vgpu::hsa::Agent*>(agent.handle)->gpu;
}

vgpu::hsa::Pool* cpuFinePool(Runtime* rt) {
  for (vgpu::hsa::Pool* p : rt->cpu().pools)
    if (p->kind == vgpu::hsa::Pool::Kind::CpuFine) return p;
  return nullptr;
}

hsa_status_t statusOf(const image::BuildResult& r) {
  switch (r.problem) {
    case image::ImageProblem::kNone:
      return HSA_STATUS_SUCCESS;
    case image::ImageProblem::kFormat:
      return static_cast<hsa_status_t>(HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED);
    case image::ImageProblem::kSize:
      return static_cast<hsa_status_t>(HSA_EXT_STATUS_ERROR_IMAGE_SIZE_UNSUPPORTED);
    case image::ImageProblem::kPitch:
      return static_cast<hsa_status_t>(HSA_EXT_STATUS_ERROR_IMAGE_PITCH_UNSUPPORTED);
    default:
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
}

image::ImageDescription describe(const hsa_ext_image_descriptor_t& d, size_t rowPitch = 0,
                                 size_t slicePitch = 0) {
  image::ImageDescription out;
  out.geometry = d.geometry;
  out.width = d.width;
  out.height = d.height;
  out.depth = d.depth;
  out.arraySize = d.array_size;
  out.channelType = d.format.channel_type;
  out.channelOrder = d.format.channel_order;
  out.rowPitchBytes = rowPitch;
  out.slicePitchBytes = slicePitch;
  return out;
}

// Plans the image; a refusal is printed once per message (the application sees only a status).
hsa_status_t plan(const hsa_ext_image_descriptor_t* d, size_t rowPitch, size_t slicePitch,
                  image::ImagePlan& out) {
  if (d == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const image::BuildResult r = image::planImage(describe(*d, rowPitch, slicePitch), out);
  return statusOf(r);
}

hsa_status_t createImage(hsa_agent_t agent, const hsa_ext_image_descriptor_t* descriptor,
                         const void* data, size_t rowPitch, size_t slicePitch,
                         hsa_ext_image_t* out) {
  VGPU_RUNTIME(rt);
  if (!rt->isAgent(agent)) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (!isGpu(rt, agent) || data == nullptr || out == nullptr)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  ImageRecord record;
  // Held as int: an extension status lies outside hsa_status_t's enumerators.
  if (const int s = plan(descriptor, rowPitch, slicePitch, record.plan); s != HSA_STATUS_SUCCESS)
    return static_cast<hsa_status_t>(s);
  record.data = reinterpret_cast<uint64_t>(data);
  std::array<uint32_t, image::kImageObjectBytes / 4> words;
  if (!image::imageObject(record.plan, record.data, words))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;  // data not 256-byte aligned
  vgpu::hsa::Pool* pool = cpuFinePool(rt);
  void* object = nullptr;
  if (pool == nullptr || rt->allocate(*pool, sizeof words, &object) != HSA_STATUS_SUCCESS)
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  std::memcpy(object, words.data(), sizeof words);
  out->handle = reinterpret_cast<uint64_t>(object);
  std::lock_guard<std::mutex> lock(gImagesMutex);
  gImages[out->handle] = record;
  return HSA_STATUS_SUCCESS;
}

bool findImage(hsa_ext_image_t image, ImageRecord& out) {
  std::lock_guard<std::mutex> lock(gImagesMutex);
  auto it = gImages.find(image.handle);
  if (it == gImages.end()) return false;
  out = it->second;
  return true;
}

// The region's rows, each `bytes` long: the address of row (y, z) in the image data and its
// offset in memory laid out with `rowPitch` and `slicePitch`, for every row of the region.
template <typename F>
bool forEachRegionRow(const ImageRecord& im, const hsa_ext_image_region_t& r, size_t rowPitch,
                      size_t slicePitch, F&& f) {
  const image::ImagePlan& p = im.plan;
  const bool is1dArray = im.plan.resource.type == vgpu::isa::kImage1dArray;
  // 1D arrays keep their layer in y of a region (hsa_ext_image_region_t: offset.y / range.y).
  const uint64_t rows = is1dArray ? 1 : r.range.y, slices = is1dArray ? r.range.y : r.range.z;
  const uint64_t y0 = is1dArray ? 0 : r.offset.y, z0 = is1dArray ? r.offset.y : r.offset.z;
  if (r.range.x == 0 || rows == 0 || slices == 0 || r.offset.x + r.range.x > p.width ||
      y0 + rows > p.height || z0 + slices > p.slices)
    return false;
  const uint64_t bytes = uint64_t{r.range.x} * p.texelBytes;
  if (rowPitch == 0) rowPitch = bytes;
  if (slicePitch == 0) slicePitch = rowPitch * rows;
  for (uint64_t z = 0; z < slices; ++z)
    for (uint64_t y = 0; y < rows; ++y)
      f(p.layout.texelAddress(im.data, r.offset.x, static_cast<uint32_t>(y0 + y),
                              static_cast<uint32_t>(z0 + z), 0),
        z * slicePitch + y * rowPitch, bytes);
  return true;
}

}  // namespace

namespace vgpu::hsa {
// HSA_EXT_AGENT_INFO_IMAGE_* of the GPU agent (HsaRuntime.cpp's agentInfo forwards them). Every
// value is a uint32_t (arrays of 2 or 3 for the 2D and 3D sizes), as ROCr writes them
// (ROCm/ROCR-Runtime src/image/image_runtime.cpp, GetImageInfoMaxDimension) and ROCclr reads
// them, although hsa_ext_image.h documents size_t.
hsa_status_t imageAgentInfo(int attribute, void* value) {
  auto* u32 = static_cast<uint32_t*>(value);
  switch (attribute) {
    case HSA_EXT_AGENT_INFO_IMAGE_1D_MAX_ELEMENTS:
    case HSA_EXT_AGENT_INFO_IMAGE_1DA_MAX_ELEMENTS:
      u32[0] = image::kMaxImageWidth;
      return HSA_STATUS_SUCCESS;
    case HSA_EXT_AGENT_INFO_IMAGE_1DB_MAX_ELEMENTS:
      u32[0] = image::kMaxImageBufferTexels;
      return HSA_STATUS_SUCCESS;
    case HSA_EXT_AGENT_INFO_IMAGE_2D_MAX_ELEMENTS:
    case HSA_EXT_AGENT_INFO_IMAGE_2DA_MAX_ELEMENTS:
      u32[0] = image::kMaxImageWidth;
      u32[1] = image::kMaxImageHeight;
      return HSA_STATUS_SUCCESS;
    case HSA_EXT_AGENT_INFO_IMAGE_2DDEPTH_MAX_ELEMENTS:
    case HSA_EXT_AGENT_INFO_IMAGE_2DADEPTH_MAX_ELEMENTS:
      u32[0] = u32[1] = 0;  // depth images are not supported
      return HSA_STATUS_SUCCESS;
    case HSA_EXT_AGENT_INFO_IMAGE_3D_MAX_ELEMENTS:
      u32[0] = image::kMaxImageWidth;
      u32[1] = image::kMaxImageHeight;
      u32[2] = image::kMaxImageDepth;
      return HSA_STATUS_SUCCESS;
    case HSA_EXT_AGENT_INFO_IMAGE_ARRAY_MAX_LAYERS:
      u32[0] = image::kMaxImageLayers;
      return HSA_STATUS_SUCCESS;
    // Objects are plain memory, so these limits are only what kernels may take as arguments:
    // the minimums hsa_ext_image.h asks for.
    case HSA_EXT_AGENT_INFO_MAX_IMAGE_RD_HANDLES:
      u32[0] = 128;
      return HSA_STATUS_SUCCESS;
    case HSA_EXT_AGENT_INFO_MAX_IMAGE_RORW_HANDLES:
      u32[0] = 64;
      return HSA_STATUS_SUCCESS;
    case HSA_EXT_AGENT_INFO_MAX_SAMPLER_HANDLERS:
      u32[0] = 16;
      return HSA_STATUS_SUCCESS;
    case HSA_EXT_AGENT_INFO_IMAGE_LINEAR_ROW_PITCH_ALIGNMENT:
      u32[0] = image::kImageRowPitchAlignment;
      return HSA_STATUS_SUCCESS;
    default:
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
}
}  // namespace vgpu::hsa

extern "C" {

hsa_status_t HSA_API hsa_ext_image_get_capability(hsa_agent_t agent,
                                                  hsa_ext_image_geometry_t geometry,
                                                  const hsa_ext_image_format_t* image_format,
                                                  uint32_t* capability_mask) {
  VGPU_RUNTIME(rt);
  if (!rt->isAgent(agent)) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (image_format == nullptr || capability_mask == nullptr)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *capability_mask = HSA_EXT_IMAGE_CAPABILITY_NOT_SUPPORTED;
  if (!isGpu(rt, agent)) return HSA_STATUS_SUCCESS;
  hsa_ext_image_descriptor_t d{};
  d.geometry = geometry;
  d.width = d.height = d.depth = d.array_size = 1;
  d.format = *image_format;
  image::ImagePlan p;
  if (image::planImage(describe(d), p))
    *capability_mask = HSA_EXT_IMAGE_CAPABILITY_READ_ONLY | HSA_EXT_IMAGE_CAPABILITY_WRITE_ONLY |
                       HSA_EXT_IMAGE_CAPABILITY_READ_WRITE |
                       HSA_EXT_IMAGE_CAPABILITY_ACCESS_INVARIANT_DATA_LAYOUT;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_ext_image_get_capability_with_layout(
    hsa_agent_t agent, hsa_ext_image_geometry_t geometry,
    const hsa_ext_image_format_t* image_format, hsa_ext_image_data_layout_t image_data_layout,
    uint32_t* capability_mask) {
  if (image_data_layout != HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return hsa_ext_image_get_capability(agent, geometry, image_format, capability_mask);
}

hsa_status_t HSA_API hsa_ext_image_data_get_info(hsa_agent_t agent,
                                                 const hsa_ext_image_descriptor_t* image_descriptor,
                                                 hsa_access_permission_t access_permission,
                                                 hsa_ext_image_data_info_t* image_data_info) {
  return hsa_ext_image_data_get_info_with_layout(agent, image_descriptor, access_permission,
                                                 HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, 0, 0,
                                                 image_data_info);
}

hsa_status_t HSA_API hsa_ext_image_data_get_info_with_layout(
    hsa_agent_t agent, const hsa_ext_image_descriptor_t* image_descriptor,
    hsa_access_permission_t access_permission, hsa_ext_image_data_layout_t image_data_layout,
    size_t image_data_row_pitch, size_t image_data_slice_pitch,
    hsa_ext_image_data_info_t* image_data_info) {
  VGPU_RUNTIME(rt);
  if (!rt->isAgent(agent)) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (!isGpu(rt, agent) || image_data_info == nullptr ||
      image_data_layout != HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  (void)access_permission;  // the layout is the same for every access
  image::ImagePlan p;
  if (const int s = plan(image_descriptor, image_data_row_pitch, image_data_slice_pitch, p);
      s != HSA_STATUS_SUCCESS)
    return static_cast<hsa_status_t>(s);
  image_data_info->size = p.dataBytes;
  image_data_info->alignment = image::kImageDataAlignment;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_ext_image_create(hsa_agent_t agent,
                                          const hsa_ext_image_descriptor_t* image_descriptor,
                                          const void* image_data,
                                          hsa_access_permission_t access_permission,
                                          hsa_ext_image_t* image) {
  (void)access_permission;
  return createImage(agent, image_descriptor, image_data, 0, 0, image);
}

hsa_status_t HSA_API hsa_ext_image_create_with_layout(
    hsa_agent_t agent, const hsa_ext_image_descriptor_t* image_descriptor, const void* image_data,
    hsa_access_permission_t access_permission, hsa_ext_image_data_layout_t image_data_layout,
    size_t image_data_row_pitch, size_t image_data_slice_pitch, hsa_ext_image_t* image) {
  (void)access_permission;
  if (image_data_layout != HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return createImage(agent, image_descriptor, image_data, image_data_row_pitch,
                     image_data_slice_pitch, image);
}

hsa_status_t HSA_API hsa_ext_image_destroy(hsa_agent_t agent, hsa_ext_image_t image) {
  VGPU_RUNTIME(rt);
  if (!rt->isAgent(agent)) return HSA_STATUS_ERROR_INVALID_AGENT;
  {
    std::lock_guard<std::mutex> lock(gImagesMutex);
    if (gImages.erase(image.handle) == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return rt->free(reinterpret_cast<void*>(image.handle));
}

hsa_status_t HSA_API hsa_ext_image_import(hsa_agent_t agent, const void* src_memory,
                                          size_t src_row_pitch, size_t src_slice_pitch,
                                          hsa_ext_image_t dst_image,
                                          const hsa_ext_image_region_t* image_region) {
  VGPU_RUNTIME(rt);
  if (!rt->isAgent(agent)) return HSA_STATUS_ERROR_INVALID_AGENT;
  ImageRecord im;
  if (src_memory == nullptr || image_region == nullptr || !findImage(dst_image, im))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const auto src = reinterpret_cast<uint64_t>(src_memory);
  const bool ok = forEachRegionRow(im, *image_region, src_row_pitch, src_slice_pitch,
                                   [&](uint64_t texels, uint64_t offset, uint64_t bytes) {
                                     rt->copy(texels, src + offset, bytes);
                                   });
  return ok ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

hsa_status_t HSA_API hsa_ext_image_export(hsa_agent_t agent, hsa_ext_image_t src_image,
                                          void* dst_memory, size_t dst_row_pitch,
                                          size_t dst_slice_pitch,
                                          const hsa_ext_image_region_t* image_region) {
  VGPU_RUNTIME(rt);
  if (!rt->isAgent(agent)) return HSA_STATUS_ERROR_INVALID_AGENT;
  ImageRecord im;
  if (dst_memory == nullptr || image_region == nullptr || !findImage(src_image, im))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const auto dst = reinterpret_cast<uint64_t>(dst_memory);
  const bool ok = forEachRegionRow(im, *image_region, dst_row_pitch, dst_slice_pitch,
                                   [&](uint64_t texels, uint64_t offset, uint64_t bytes) {
                                     rt->copy(dst + offset, texels, bytes);
                                   });
  return ok ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

hsa_status_t HSA_API hsa_ext_sampler_create(hsa_agent_t agent,
                                            const hsa_ext_sampler_descriptor_t* sampler_descriptor,
                                            hsa_ext_sampler_t* sampler) {
  VGPU_RUNTIME(rt);
  if (!rt->isAgent(agent)) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (!isGpu(rt, agent) || sampler_descriptor == nullptr || sampler == nullptr)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  image::SamplerDescription d;
  d.coordinateMode = sampler_descriptor->coordinate_mode;
  d.filterMode = sampler_descriptor->filter_mode;
  d.addressingMode = sampler_descriptor->address_mode;
  std::array<uint32_t, 4> words;
  if (!image::samplerWords(d, words))
    return static_cast<hsa_status_t>(HSA_EXT_STATUS_ERROR_SAMPLER_DESCRIPTOR_UNSUPPORTED);
  vgpu::hsa::Pool* pool = cpuFinePool(rt);
  void* object = nullptr;
  if (pool == nullptr || rt->allocate(*pool, sizeof words, &object) != HSA_STATUS_SUCCESS)
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  std::memcpy(object, words.data(), sizeof words);
  sampler->handle = reinterpret_cast<uint64_t>(object);
  std::lock_guard<std::mutex> lock(gImagesMutex);
  gSamplers[sampler->handle] = true;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_ext_sampler_destroy(hsa_agent_t agent, hsa_ext_sampler_t sampler) {
  VGPU_RUNTIME(rt);
  if (!rt->isAgent(agent)) return HSA_STATUS_ERROR_INVALID_AGENT;
  {
    std::lock_guard<std::mutex> lock(gImagesMutex);
    if (gSamplers.erase(sampler.handle) == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return rt->free(reinterpret_cast<void*>(sampler.handle));
}

hsa_status_t HSA_API hsa_amd_image_get_info_max_dim(hsa_agent_t agent, hsa_agent_info_t attribute,
                                                    void* value) {
  VGPU_RUNTIME(rt);
  if (!rt->isAgent(agent)) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (!isGpu(rt, agent) || value == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return vgpu::hsa::imageAgentInfo(attribute, value);
}

}  // extern "C"

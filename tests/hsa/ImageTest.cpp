// The HSA image extension (runtime/hsa/ApiImage.cpp) over a FakeGpuPort: what it advertises,
// the data sizes it asks for, and the image and sampler objects it writes, read back as the GPU
// reads them (the T# and S# decoders of models/isa, Vega ISA guide 8.2). Expected sizes are
// worked out here from the linear layout's rule (rows padded to 256 bytes, addrlib's linear
// pitch for gfx9), not taken from the builder.
#include <hsa/hsa_ext_image.h>

#include <array>
#include <cstring>
#include <numeric>

#include "HsaFixture.h"
#include "isa/ImageResource.h"
#include "runtime/ImageBuilder.h"

namespace vgpu::hsa::test {
namespace {

constexpr uint32_t kCoarse = HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED;

class Images : public HsaFixture {
 protected:
  static hsa_ext_image_descriptor_t descriptor(hsa_ext_image_geometry_t g, size_t w, size_t h,
                                               size_t d, size_t layers,
                                               hsa_ext_image_channel_order_t order,
                                               hsa_ext_image_channel_type_t type) {
    hsa_ext_image_descriptor_t desc{};
    desc.geometry = g;
    desc.width = w;
    desc.height = h;
    desc.depth = d;
    desc.array_size = layers;
    desc.format.channel_order = order;
    desc.format.channel_type = type;
    return desc;
  }
  hsa_status_t dataInfo(const hsa_ext_image_descriptor_t& d, hsa_ext_image_data_info_t& info) {
    return hsa_ext_image_data_get_info(gpu_, &d, HSA_ACCESS_PERMISSION_RW, &info);
  }
};

TEST_F(Images, TheExtensionAndItsAgentLimitsAreAdvertisedForTheGpuOnly) {
  bool supported = false;
  ASSERT_EQ(hsa_system_extension_supported(HSA_EXTENSION_IMAGES, 1, 0, &supported),
            HSA_STATUS_SUCCESS);
  EXPECT_TRUE(supported);
  ASSERT_EQ(hsa_agent_extension_supported(HSA_EXTENSION_IMAGES, gpu_, 1, 0, &supported),
            HSA_STATUS_SUCCESS);
  EXPECT_TRUE(supported);
  ASSERT_EQ(hsa_agent_extension_supported(HSA_EXTENSION_IMAGES, cpu_, 1, 0, &supported),
            HSA_STATUS_SUCCESS);
  EXPECT_FALSE(supported);
  uint8_t bits[128] = {};
  ASSERT_EQ(hsa_agent_get_info(gpu_, HSA_AGENT_INFO_EXTENSIONS, bits), HSA_STATUS_SUCCESS);
  EXPECT_TRUE(bits[HSA_EXTENSION_IMAGES / 8] & (1u << (HSA_EXTENSION_IMAGES % 8)));

  // The T#'s field widths (Vega ISA guide 8.2.1: WIDTH and HEIGHT 14 bits, DEPTH 13), at least
  // the minimums of hsa_ext_image.h; uint32_t values, as ROCr writes and ROCclr reads them (the
  // header says size_t): the word after each must stay untouched.
  uint32_t one[2] = {0, 0xdeadbeef}, two[3] = {0, 0, 0xdeadbeef}, three[4] = {0, 0, 0, 0xdeadbeef};
  ASSERT_EQ(
      hsa_agent_get_info(gpu_, hsa_agent_info_t(HSA_EXT_AGENT_INFO_IMAGE_1D_MAX_ELEMENTS), one),
      HSA_STATUS_SUCCESS);
  EXPECT_EQ(one[0], 16384u);
  EXPECT_EQ(one[1], 0xdeadbeefu);
  ASSERT_EQ(
      hsa_agent_get_info(gpu_, hsa_agent_info_t(HSA_EXT_AGENT_INFO_IMAGE_2D_MAX_ELEMENTS), two),
      HSA_STATUS_SUCCESS);
  EXPECT_EQ(two[0], 16384u);
  EXPECT_EQ(two[1], 16384u);
  EXPECT_EQ(two[2], 0xdeadbeefu);
  ASSERT_EQ(
      hsa_agent_get_info(gpu_, hsa_agent_info_t(HSA_EXT_AGENT_INFO_IMAGE_3D_MAX_ELEMENTS), three),
      HSA_STATUS_SUCCESS);
  EXPECT_EQ(three[2], 8192u);
  EXPECT_EQ(three[3], 0xdeadbeefu);
  ASSERT_EQ(
      hsa_agent_get_info(gpu_, hsa_agent_info_t(HSA_EXT_AGENT_INFO_IMAGE_ARRAY_MAX_LAYERS), one),
      HSA_STATUS_SUCCESS);
  EXPECT_GE(one[0], 2048u);
  ASSERT_EQ(hsa_agent_get_info(
                gpu_, hsa_agent_info_t(HSA_EXT_AGENT_INFO_IMAGE_LINEAR_ROW_PITCH_ALIGNMENT), one),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(one[0], 256u);
  EXPECT_EQ(hsa_amd_image_get_info_max_dim(
                gpu_, hsa_agent_info_t(HSA_EXT_AGENT_INFO_IMAGE_2DA_MAX_ELEMENTS), two),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(two[0], 16384u);
  EXPECT_NE(
      hsa_agent_get_info(cpu_, hsa_agent_info_t(HSA_EXT_AGENT_INFO_IMAGE_1D_MAX_ELEMENTS), one),
      HSA_STATUS_SUCCESS);

  hsa_ext_images_1_pfn_t table{};
  ASSERT_EQ(hsa_system_get_major_extension_table(HSA_EXTENSION_IMAGES, 1, sizeof table, &table),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(table.hsa_ext_image_create, &hsa_ext_image_create);
  EXPECT_EQ(table.hsa_ext_image_create_with_layout, &hsa_ext_image_create_with_layout);
  EXPECT_EQ(table.hsa_ext_sampler_destroy, &hsa_ext_sampler_destroy);
}

TEST_F(Images, CapabilitiesNameTheSupportedFormatsAndGeometries) {
  uint32_t caps = 0;
  const hsa_ext_image_format_t rgba8{HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8,
                                     HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA};
  for (auto g : {HSA_EXT_IMAGE_GEOMETRY_1D, HSA_EXT_IMAGE_GEOMETRY_2D, HSA_EXT_IMAGE_GEOMETRY_3D,
                 HSA_EXT_IMAGE_GEOMETRY_1DA, HSA_EXT_IMAGE_GEOMETRY_2DA}) {
    ASSERT_EQ(hsa_ext_image_get_capability(gpu_, g, &rgba8, &caps), HSA_STATUS_SUCCESS);
    EXPECT_EQ(caps & (HSA_EXT_IMAGE_CAPABILITY_READ_ONLY | HSA_EXT_IMAGE_CAPABILITY_WRITE_ONLY |
                      HSA_EXT_IMAGE_CAPABILITY_READ_WRITE),
              0x7u)
        << "geometry " << g;
  }
  ASSERT_EQ(hsa_ext_image_get_capability(gpu_, HSA_EXT_IMAGE_GEOMETRY_1DB, &rgba8, &caps),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(caps & 0x7u, 0x7u) << "1D buffer images";
  ASSERT_EQ(hsa_ext_image_get_capability(gpu_, HSA_EXT_IMAGE_GEOMETRY_2DDEPTH, &rgba8, &caps),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(caps, 0u) << "depth images are not supported";
  const hsa_ext_image_format_t packed{HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_SHORT_565,
                                      HSA_EXT_IMAGE_CHANNEL_ORDER_RGB};
  ASSERT_EQ(hsa_ext_image_get_capability(gpu_, HSA_EXT_IMAGE_GEOMETRY_2D, &packed, &caps),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(caps, 0u);
  const hsa_ext_image_format_t luminance{HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT8,
                                         HSA_EXT_IMAGE_CHANNEL_ORDER_LUMINANCE};
  ASSERT_EQ(hsa_ext_image_get_capability(gpu_, HSA_EXT_IMAGE_GEOMETRY_2D, &luminance, &caps),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(caps, 0u) << "OpenCL 1.2 table 5.6: LUMINANCE takes no integer types";
  ASSERT_EQ(hsa_ext_image_get_capability(cpu_, HSA_EXT_IMAGE_GEOMETRY_2D, &rgba8, &caps),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(caps, 0u) << "the CPU agent has no images";
}

TEST_F(Images, DataSizesFollowTheLinearLayoutAndBadRequestsGetTheirStatus) {
  hsa_ext_image_data_info_t info{};
  // 2D 100 x 30 RGBA8: a row is 400 bytes, padded to 512.
  ASSERT_EQ(
      dataInfo(descriptor(HSA_EXT_IMAGE_GEOMETRY_2D, 100, 30, 0, 0,
                          HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA, HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8),
               info),
      HSA_STATUS_SUCCESS);
  EXPECT_EQ(info.size, 512u * 30);
  EXPECT_EQ(info.alignment, 256u);
  // 3D 64 x 3 x 5 R32F: 256-byte rows exactly, 3 rows a slice.
  ASSERT_EQ(dataInfo(descriptor(HSA_EXT_IMAGE_GEOMETRY_3D, 64, 3, 5, 0,
                                HSA_EXT_IMAGE_CHANNEL_ORDER_R, HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT),
                     info),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(info.size, 256u * 3 * 5);
  // 1D array of 7 layers, 10 RG16 texels: one 256-byte row per layer.
  ASSERT_EQ(
      dataInfo(descriptor(HSA_EXT_IMAGE_GEOMETRY_1DA, 10, 0, 0, 7, HSA_EXT_IMAGE_CHANNEL_ORDER_RG,
                          HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT16),
               info),
      HSA_STATUS_SUCCESS);
  EXPECT_EQ(info.size, 256u * 7);
  // 2D array 65 x 2 x 3 RGBA32UI: 1040-byte rows padded to 1280.
  ASSERT_EQ(
      dataInfo(descriptor(HSA_EXT_IMAGE_GEOMETRY_2DA, 65, 2, 0, 3, HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA,
                          HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT32),
               info),
      HSA_STATUS_SUCCESS);
  EXPECT_EQ(info.size, 1280u * 2 * 3);

  // Extension statuses are compared as integers: their values lie outside hsa_status_t's
  // enumerators, so holding one in an hsa_status_t object is undefined (UBSan's enum check).
  EXPECT_EQ(static_cast<int>(dataInfo(
                descriptor(HSA_EXT_IMAGE_GEOMETRY_2D, 8, 8, 0, 0, HSA_EXT_IMAGE_CHANNEL_ORDER_RGB,
                           HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_SHORT_565),
                info)),
            int{HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED});
  EXPECT_EQ(static_cast<int>(dataInfo(
                descriptor(HSA_EXT_IMAGE_GEOMETRY_2D, 20000, 8, 0, 0, HSA_EXT_IMAGE_CHANNEL_ORDER_R,
                           HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT),
                info)),
            int{HSA_EXT_STATUS_ERROR_IMAGE_SIZE_UNSUPPORTED});
  const hsa_ext_image_descriptor_t d =
      descriptor(HSA_EXT_IMAGE_GEOMETRY_2D, 16, 4, 0, 0, HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA,
                 HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8);
  EXPECT_EQ(
      static_cast<int>(hsa_ext_image_data_get_info_with_layout(
          gpu_, &d, HSA_ACCESS_PERMISSION_RW, HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, 300, 0, &info)),
      int{HSA_EXT_STATUS_ERROR_IMAGE_PITCH_UNSUPPORTED})
      << "not a multiple of the 256-byte row pitch alignment";
  ASSERT_EQ(
      hsa_ext_image_data_get_info_with_layout(gpu_, &d, HSA_ACCESS_PERMISSION_RW,
                                              HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, 1024, 0, &info),
      HSA_STATUS_SUCCESS);
  EXPECT_EQ(info.size, 1024u * 4);
}

TEST_F(Images, AnImageObjectHoldsTheTSharpAndTheMetadataTheDeviceLibraryReads) {
  const hsa_ext_image_descriptor_t d =
      descriptor(HSA_EXT_IMAGE_GEOMETRY_2D, 100, 30, 0, 0, HSA_EXT_IMAGE_CHANNEL_ORDER_BGRA,
                 HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8);
  hsa_ext_image_data_info_t info{};
  ASSERT_EQ(dataInfo(d, info), HSA_STATUS_SUCCESS);
  void* data = nullptr;
  ASSERT_EQ(hsa_amd_memory_pool_allocate(pool(gpu_, kCoarse), info.size, 0, &data),
            HSA_STATUS_SUCCESS);
  hsa_ext_image_t image{};
  ASSERT_EQ(hsa_ext_image_create(gpu_, &d, data, HSA_ACCESS_PERMISSION_RW, &image),
            HSA_STATUS_SUCCESS);
  // The object is in system memory the GPU reads (the handle is its address).
  ASSERT_TRUE(port_->isExposed(reinterpret_cast<void*>(image.handle), 48));
  uint32_t words[12];
  std::memcpy(words, reinterpret_cast<const void*>(image.handle), sizeof words);
  const isa::ImageResource r = isa::decodeImageResource(words);
  EXPECT_EQ(r.base, reinterpret_cast<uint64_t>(data));
  EXPECT_EQ(r.type, isa::kImage2d);
  EXPECT_EQ(r.width, 100u);
  EXPECT_EQ(r.height, 30u);
  EXPECT_EQ(r.pitch, 128u) << "512-byte rows of 4-byte texels";
  EXPECT_EQ(r.dataFormat, 10u) << "IMG_DATA_FORMAT_8_8_8_8";
  EXPECT_EQ(r.numFormat, 0u) << "IMG_NUM_FORMAT_UNORM";
  EXPECT_EQ(r.swizzleMode, 0u) << "linear";
  // BGRA: red is the third channel in memory (Z), blue the first (X); DST_SEL 6, 5, 4, 7.
  EXPECT_EQ(r.dstSel, 6u | 5u << 3 | 4u << 6 | 7u << 9);
  // ockl: get_image_channel_data_type reads dword 8, _order dword 9, get_image_width dword 10.
  EXPECT_EQ(words[8], uint32_t{HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8});
  EXPECT_EQ(words[9], uint32_t{HSA_EXT_IMAGE_CHANNEL_ORDER_BGRA});
  EXPECT_EQ(words[10], 100u);

  // Import places rows at the 512-byte pitch; export reads them back.
  std::vector<uint8_t> texels(100 * 30 * 4);
  std::iota(texels.begin(), texels.end(), uint8_t{0});
  hsa_ext_image_region_t all{};
  all.range = {100, 30, 1};
  ASSERT_EQ(hsa_ext_image_import(gpu_, texels.data(), 0, 0, image, &all), HSA_STATUS_SUCCESS);
  std::vector<uint8_t> row(400);
  port_->readDevice(reinterpret_cast<uint64_t>(data) + 7 * 512, row.data(), row.size());
  EXPECT_TRUE(std::equal(row.begin(), row.end(), texels.begin() + 7 * 400));
  hsa_ext_image_region_t part{};
  part.offset = {10, 5, 0};
  part.range = {3, 2, 1};
  std::vector<uint8_t> back(3 * 2 * 4);
  ASSERT_EQ(hsa_ext_image_export(gpu_, image, back.data(), 0, 0, &part), HSA_STATUS_SUCCESS);
  for (uint32_t y = 0; y < 2; ++y)
    for (uint32_t b = 0; b < 12; ++b)
      EXPECT_EQ(back[y * 12 + b], texels[(5 + y) * 400 + 10 * 4 + b]) << y << " " << b;
  part.offset = {99, 0, 0};
  EXPECT_EQ(hsa_ext_image_export(gpu_, image, back.data(), 0, 0, &part),
            HSA_STATUS_ERROR_INVALID_ARGUMENT)
      << "a region beyond the image";

  ASSERT_EQ(hsa_ext_image_destroy(gpu_, image), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_ext_image_destroy(gpu_, image), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_ext_image_create(gpu_, &d, static_cast<uint8_t*>(data) + 16,
                                 HSA_ACCESS_PERMISSION_RW, &image),
            HSA_STATUS_ERROR_INVALID_ARGUMENT)
      << "T# BASE_ADDRESS is in 256-byte units";
  ASSERT_EQ(hsa_amd_memory_pool_free(data), HSA_STATUS_SUCCESS);
}

// A 1D buffer image (tex1Dfetch on linear memory) is a typed buffer: its object holds a V#
// (Vega ISA guide 8.1.5) over the application's memory, read back here through the V# decoder.
TEST_F(Images, ABufferImageObjectHoldsAVSharpOverTheData) {
  const hsa_ext_image_descriptor_t d =
      descriptor(HSA_EXT_IMAGE_GEOMETRY_1DB, 1000, 0, 0, 0, HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA,
                 HSA_EXT_IMAGE_CHANNEL_TYPE_HALF_FLOAT);
  hsa_ext_image_data_info_t info{};
  ASSERT_EQ(dataInfo(d, info), HSA_STATUS_SUCCESS);
  EXPECT_EQ(info.size, 8000u) << "1000 texels of 8 bytes, no padding";
  void* data = nullptr;
  ASSERT_EQ(hsa_amd_memory_pool_allocate(pool(gpu_, kCoarse), info.size, 0, &data),
            HSA_STATUS_SUCCESS);
  hsa_ext_image_t image{};
  const auto* at = static_cast<uint8_t*>(data) + 24;  // any texel-aligned address
  ASSERT_EQ(hsa_ext_image_create(gpu_, &d, at, HSA_ACCESS_PERMISSION_RO, &image),
            HSA_STATUS_SUCCESS);
  uint32_t words[12];
  std::memcpy(words, reinterpret_cast<const void*>(image.handle), sizeof words);
  const isa::BufferResource v = isa::decodeResource(words);
  EXPECT_EQ(v.base, reinterpret_cast<uint64_t>(at));
  EXPECT_EQ(v.stride, 8u);
  EXPECT_EQ(v.numRecords, 1000u);
  EXPECT_EQ(v.dataFormat, 12u) << "BUF_DATA_FORMAT_16_16_16_16";
  EXPECT_EQ(v.numFormat, 7u) << "BUF_NUM_FORMAT_FLOAT";
  EXPECT_EQ(v.dstSel, 4u | 5u << 3 | 6u << 6 | 7u << 9);
  EXPECT_EQ(v.type, 0u);
  EXPECT_EQ(words[8], uint32_t{HSA_EXT_IMAGE_CHANNEL_TYPE_HALF_FLOAT});
  EXPECT_EQ(words[10], 1000u);
  ASSERT_EQ(hsa_ext_image_destroy(gpu_, image), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_amd_memory_pool_free(data), HSA_STATUS_SUCCESS);
}

TEST_F(Images, SamplersBecomeTheSSharpOfTheirModes) {
  struct Mode {
    hsa_ext_sampler_addressing_mode_t addressing;
    uint8_t clamp;  // SQ_TEX_CLAMP (Vega ISA guide 8.2.2)
  };
  const Mode modes[] = {{HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE, 2},
                        {HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_BORDER, 6},
                        {HSA_EXT_SAMPLER_ADDRESSING_MODE_REPEAT, 0},
                        {HSA_EXT_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT, 1},
                        {HSA_EXT_SAMPLER_ADDRESSING_MODE_UNDEFINED, 0}};
  for (const Mode& m : modes)
    for (auto filter : {HSA_EXT_SAMPLER_FILTER_MODE_NEAREST, HSA_EXT_SAMPLER_FILTER_MODE_LINEAR})
      for (auto coords : {HSA_EXT_SAMPLER_COORDINATE_MODE_UNNORMALIZED,
                          HSA_EXT_SAMPLER_COORDINATE_MODE_NORMALIZED}) {
        hsa_ext_sampler_descriptor_t d{coords, filter, m.addressing};
        hsa_ext_sampler_t sampler{};
        ASSERT_EQ(hsa_ext_sampler_create(gpu_, &d, &sampler), HSA_STATUS_SUCCESS);
        ASSERT_TRUE(port_->isExposed(reinterpret_cast<void*>(sampler.handle), 16));
        uint32_t words[4];
        std::memcpy(words, reinterpret_cast<const void*>(sampler.handle), sizeof words);
        const isa::SamplerState s = isa::decodeSampler(words);
        for (int c = 0; c < 3; ++c) EXPECT_EQ(s.clamp[c], m.clamp) << m.addressing;
        EXPECT_EQ(s.forceUnnormalized, coords == HSA_EXT_SAMPLER_COORDINATE_MODE_UNNORMALIZED);
        const uint8_t xy =
            filter == HSA_EXT_SAMPLER_FILTER_MODE_LINEAR ? isa::kXyBilinear : isa::kXyPoint;
        EXPECT_EQ(s.xyMagFilter, xy);
        EXPECT_EQ(s.xyMinFilter, xy);
        EXPECT_EQ(s.mipFilter, isa::kFilterNone);
        EXPECT_EQ(s.borderColorType, isa::kBorderTransparentBlack);
        ASSERT_EQ(hsa_ext_sampler_destroy(gpu_, sampler), HSA_STATUS_SUCCESS);
        EXPECT_EQ(hsa_ext_sampler_destroy(gpu_, sampler), HSA_STATUS_ERROR_INVALID_ARGUMENT);
      }
  hsa_ext_sampler_descriptor_t bad{HSA_EXT_SAMPLER_COORDINATE_MODE_NORMALIZED,
                                   HSA_EXT_SAMPLER_FILTER_MODE_NEAREST,
                                   // 7: inside the enum's range, no mode
                                   hsa_ext_sampler_addressing_mode_t(7)};
  hsa_ext_sampler_t sampler{};
  EXPECT_EQ(static_cast<int>(hsa_ext_sampler_create(gpu_, &bad, &sampler)),
            int{HSA_EXT_STATUS_ERROR_SAMPLER_DESCRIPTOR_UNSUPPORTED});
}

// The encoder is the decoder's inverse: random descriptors survive decode -> encode bit for bit,
// and a value a field cannot hold is refused, naming the field.
TEST(ImageDescriptors, EncodingInvertsTheDecoders) {
  uint32_t seed = 12345;
  auto next = [&] { return seed = seed * 1664525u + 1013904223u; };
  for (int i = 0; i < 200; ++i) {
    uint32_t t[8], s[4], back[8];
    for (auto& w : t) w = next();
    for (auto& w : s) w = next();
    // Bits no field owns decode to nothing and come back as 0: compare through a second decode.
    const isa::ImageResource r = isa::decodeImageResource(t);
    ASSERT_EQ(isa::encodeImageResource(r, back), "");
    uint32_t again[8];
    ASSERT_EQ(isa::encodeImageResource(isa::decodeImageResource(back), again), "");
    EXPECT_EQ(std::memcmp(back, again, sizeof back), 0);
    const isa::ImageResource r2 = isa::decodeImageResource(back);
    EXPECT_EQ(r2.base, r.base);
    EXPECT_EQ(r2.width, r.width);
    EXPECT_EQ(r2.pitch, r.pitch);
    EXPECT_EQ(r2.metaDataAddress, r.metaDataAddress);
    const isa::SamplerState ss = isa::decodeSampler(s);
    uint32_t sback[4];
    ASSERT_EQ(isa::encodeSampler(ss, sback), "");
    const isa::SamplerState ss2 = isa::decodeSampler(sback);
    EXPECT_EQ(ss2.lodBias, ss.lodBias);
    EXPECT_EQ(ss2.maxLod, ss.maxLod);
    EXPECT_EQ(ss2.clamp[2], ss.clamp[2]);
    EXPECT_EQ(ss2.borderColorType, ss.borderColorType);
  }
  isa::ImageResource wide;
  wide.width = 16385;
  uint32_t words[8];
  EXPECT_NE(isa::encodeImageResource(wide, words).find("width"), std::string::npos);
  isa::ImageResource unaligned;
  unaligned.base = 0x1000080;
  EXPECT_NE(isa::encodeImageResource(unaligned, words).find("base"), std::string::npos);
  isa::SamplerState negative;
  negative.lodBias = -3;
  uint32_t s[4];
  ASSERT_EQ(isa::encodeSampler(negative, s), "");
  EXPECT_EQ(isa::decodeSampler(s).lodBias, -3);
}

}  // namespace
}  // namespace vgpu::hsa::test

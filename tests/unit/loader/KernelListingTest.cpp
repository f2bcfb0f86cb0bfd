// describeKernels(): the listing `vgpu-sim list` prints and bad-argument messages quote.
#include "loader/KernelListing.h"

#include <gtest/gtest.h>

#include "TestFiles.h"

namespace vgpu::loader {
namespace {

TEST(KernelListing, HipKernelWithoutArgumentNames) {
  const CodeObject co = CodeObject::loadFile(test::kernelPath("vector_add"));
  EXPECT_EQ(describeKernels(co),
            "vector_add: 4 arguments, kernarg segment 28 bytes, LDS 0 bytes, scratch 0 bytes per "
            "lane\n"
            "  [0] global_buffer  8 bytes at offset 0\n"
            "  [1] global_buffer  8 bytes at offset 8\n"
            "  [2] global_buffer  8 bytes at offset 16\n"
            "  [3] by_value  4 bytes at offset 24\n");
}

TEST(KernelListing, OpenClKernelShowsTypesAndHidesHiddenArguments) {
  const CodeObject co = CodeObject::loadFile(test::kernelPath("offset_scale_v5"));
  const std::string listing = describeKernels(co);
  EXPECT_NE(listing.find("offset_scale: 3 arguments, kernarg segment 280 bytes"), std::string::npos)
      << listing;
  EXPECT_NE(listing.find("  [0] (float*)  global_buffer  8 bytes at offset 0\n"), std::string::npos)
      << listing;
  EXPECT_NE(listing.find("  [2] (float)  by_value  4 bytes at offset 16\n"), std::string::npos)
      << listing;
  EXPECT_EQ(listing.find("hidden"), std::string::npos) << listing;
}

TEST(KernelListing, LdsAndScratchSizes) {
  EXPECT_NE(describeKernels(CodeObject::loadFile(test::kernelPath("block_reduce")))
                .find("LDS 1024 bytes"),
            std::string::npos);
  EXPECT_NE(describeKernels(CodeObject::loadFile(test::kernelPath("private_array")))
                .find("scratch 272 bytes per lane"),
            std::string::npos);
}

TEST(KernelListing, ArgumentWithNameAndType) {
  KernelInfo kernel;
  kernel.name = "k";
  kernel.args.push_back({"n", "int", "by_value", "", 0, 4});
  kernel.args.push_back({"", "", "hidden_block_count_x", "", 8, 4});
  EXPECT_EQ(describeArgs(kernel), "  [0] n (int)  by_value  4 bytes at offset 0\n");
}

}  // namespace
}  // namespace vgpu::loader

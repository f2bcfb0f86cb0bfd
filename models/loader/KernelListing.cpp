#include "loader/KernelListing.h"

namespace vgpu::loader {

std::string describeArgs(const KernelInfo& kernel) {
  std::string out;
  size_t index = 0;
  for (const KernelArg& arg : kernel.explicitArgs()) {
    out += "  [" + std::to_string(index++) + "] ";
    if (!arg.name.empty()) out += arg.name + " ";
    if (!arg.typeName.empty()) out += "(" + arg.typeName + ") ";
    if (!arg.name.empty() || !arg.typeName.empty()) out += " ";
    out += arg.valueKind + "  " + std::to_string(arg.size) + " bytes at offset " +
           std::to_string(arg.offset) + "\n";
  }
  return out;
}

std::string describeKernels(const CodeObject& codeObject) {
  if (codeObject.kernels().empty()) return "(no kernels)\n";
  std::string out;
  for (const KernelInfo& kernel : codeObject.kernels()) {
    const size_t argCount = kernel.explicitArgs().size();
    out += kernel.name + ": " + std::to_string(argCount) +
           (argCount == 1 ? " argument" : " arguments") + ", kernarg segment " +
           std::to_string(kernel.kernargSegmentSize) + " bytes, LDS " +
           std::to_string(kernel.groupSegmentFixedSize) + " bytes, scratch " +
           std::to_string(kernel.privateSegmentFixedSize) + " bytes per lane\n";
    out += describeArgs(kernel);
  }
  return out;
}

}  // namespace vgpu::loader

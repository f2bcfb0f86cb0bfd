#include "loader/Metadata.h"

#include "common/Error.h"
#include "loader/Msgpack.h"

namespace vgpu::loader {

namespace {

using msgpack::Value;

// Reads typed fields out of one msgpack map, with errors that say where the field is.
class FieldReader {
 public:
  FieldReader(const Value& map, std::string where, const std::string& fileName)
      : map_(map), where_(std::move(where)), fileName_(fileName) {}

  [[noreturn]] void fail(const std::string& problem) const {
    throw InputError(fileName_ + ": bad AMDGPU metadata: " + where_ + problem);
  }

  const Value* find(const char* key, bool required) const {
    const Value* v = map_.find(key);
    if (v == nullptr && required) fail(" has no " + std::string(key));
    return v;
  }

  [[noreturn]] void typeError(const char* key, const Value& v, const char* expected) const {
    fail(" " + std::string(key) + " is a " + msgpack::typeName(v.type) + ", expected " + expected);
  }

  void readString(const char* key, std::string& out, bool required = false) const {
    const Value* v = find(key, required);
    if (v == nullptr) return;
    if (!v->isString()) typeError(key, *v, "a string");
    out = v->bytes;
  }

  void readU32(const char* key, uint32_t& out, bool required = false) const {
    const Value* v = find(key, required);
    if (v == nullptr) return;
    const auto value = v->asUInt();
    if (!value) typeError(key, *v, "an unsigned integer");
    if (*value > UINT32_MAX)
      fail(" " + std::string(key) + " = " + std::to_string(*value) + " is out of range");
    out = uint32_t(*value);
  }

  void readBool(const char* key, bool& out) const {
    const Value* v = find(key, false);
    if (v == nullptr) return;
    if (v->type != msgpack::Type::Bool) typeError(key, *v, "a bool");
    out = v->boolean;
  }

 private:
  const Value& map_;
  std::string where_;
  const std::string& fileName_;
};

KernelArg readArg(const Value& value, const std::string& where, const std::string& fileName) {
  FieldReader fields(value, where, fileName);
  if (!value.isMap())
    fields.fail(" is a " + std::string(msgpack::typeName(value.type)) + ", expected a map");
  KernelArg arg;
  fields.readString(".name", arg.name);
  fields.readString(".type_name", arg.typeName);
  fields.readString(".value_kind", arg.valueKind, true);
  fields.readString(".address_space", arg.addressSpace);
  fields.readU32(".offset", arg.offset, true);
  fields.readU32(".size", arg.size, true);
  fields.readU32(".pointee_align", arg.pointeeAlign);
  return arg;
}

KernelInfo readKernel(const Value& value, size_t index, const std::string& fileName) {
  const std::string where = "amdhsa.kernels[" + std::to_string(index) + "]";
  FieldReader fields(value, where, fileName);
  if (!value.isMap())
    fields.fail(" is a " + std::string(msgpack::typeName(value.type)) + ", expected a map");
  KernelInfo kernel;
  fields.readString(".name", kernel.name, true);
  // From here on errors name the kernel, which is what a user recognises.
  FieldReader named(value, "kernel '" + kernel.name + "'", fileName);
  named.readString(".symbol", kernel.symbol, true);
  named.readU32(".kernarg_segment_size", kernel.kernargSegmentSize, true);
  named.readU32(".kernarg_segment_align", kernel.kernargSegmentAlign);
  named.readU32(".group_segment_fixed_size", kernel.groupSegmentFixedSize);
  named.readU32(".private_segment_fixed_size", kernel.privateSegmentFixedSize);
  named.readU32(".wavefront_size", kernel.wavefrontSize);
  named.readU32(".sgpr_count", kernel.sgprCount);
  named.readU32(".vgpr_count", kernel.vgprCount);
  named.readU32(".max_flat_workgroup_size", kernel.maxFlatWorkgroupSize);
  named.readBool(".uses_dynamic_stack", kernel.usesDynamicStack);
  if (const Value* args = named.find(".args", false)) {
    if (!args->isArray()) named.typeError(".args", *args, "an array");
    kernel.args.reserve(args->array.size());
    for (size_t i = 0; i < args->array.size(); ++i) {
      kernel.args.push_back(readArg(args->array[i],
                                    "kernel '" + kernel.name + "' .args[" + std::to_string(i) + "]",
                                    fileName));
    }
  }
  return kernel;
}

}  // namespace

CodeObjectMetadata parseMetadata(const uint8_t* data, size_t size, const std::string& name) {
  Value root;
  try {
    root = msgpack::parse(data, size);
  } catch (const msgpack::ParseError& e) {
    throw InputError(name + ": bad AMDGPU metadata note: " + e.what());
  }
  FieldReader top(root, "the note", name);
  if (!root.isMap())
    top.fail(" is a " + std::string(msgpack::typeName(root.type)) + ", expected a map");
  CodeObjectMetadata metadata;
  const Value* version = top.find("amdhsa.version", true);
  if (!version->isArray() || version->array.size() < 2 || !version->array[0].asUInt() ||
      !version->array[1].asUInt()) {
    top.fail(" amdhsa.version is not an array of two unsigned integers");
  }
  metadata.versionMajor = *version->array[0].asUInt();
  metadata.versionMinor = *version->array[1].asUInt();
  if (metadata.versionMajor != 1) {
    top.fail(" amdhsa.version is " + std::to_string(metadata.versionMajor) + "." +
             std::to_string(metadata.versionMinor) + "; only 1.x (code object v3 to v5) is known");
  }
  top.readString("amdhsa.target", metadata.target);
  const Value* kernels = top.find("amdhsa.kernels", false);
  if (kernels != nullptr) {
    if (!kernels->isArray()) top.typeError("amdhsa.kernels", *kernels, "an array");
    metadata.kernels.reserve(kernels->array.size());
    for (size_t i = 0; i < kernels->array.size(); ++i) {
      metadata.kernels.push_back(readKernel(kernels->array[i], i, name));
    }
  }
  return metadata;
}

}  // namespace vgpu::loader

// Code object readers, executables and their symbols (hsa.h, hsa_executable_*), and the AMD
// loader extension (hsa_ven_amd_loader.h) that debuggers and profilers use to find them.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

#include <hsa/hsa_ext_image.h>

#include "runtime/hsa/HsaRuntime.h"

using vgpu::hsa::Agent;
using vgpu::hsa::CodeObjectReader;
using vgpu::hsa::Executable;
using vgpu::hsa::ExecutableSymbol;
using vgpu::hsa::LoadedCodeObject;
using vgpu::hsa::Runtime;

#define VGPU_RUNTIME(rt)        \
  Runtime* rt = Runtime::get(); \
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED

namespace {

Executable* executableOf(Runtime* rt, hsa_executable_t e) {
  auto* p = reinterpret_cast<Executable*>(e.handle);
  return rt->executables.count(p) ? p : nullptr;
}

template <typename T>
hsa_status_t put(void* value, T v) {
  std::memcpy(value, &v, sizeof v);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t readFile(hsa_file_t file, size_t offset, size_t size, std::vector<uint8_t>& out) {
  struct stat st;
  if (fstat(file, &st) != 0) return HSA_STATUS_ERROR_INVALID_FILE;
  if (size == 0) {
    if (uint64_t(st.st_size) <= offset) return HSA_STATUS_ERROR_INVALID_FILE;
    size = size_t(st.st_size) - offset;
  }
  out.resize(size);
  size_t done = 0;
  while (done < size) {
    ssize_t n = pread(file, out.data() + done, size - done, off_t(offset + done));
    if (n <= 0) return HSA_STATUS_ERROR_INVALID_FILE;
    done += size_t(n);
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t newReader(Runtime* rt, std::vector<uint8_t> bytes, std::string name,
                       hsa_code_object_reader_t* reader) {
  auto* r = new CodeObjectReader{std::move(bytes), std::move(name)};
  {
    std::lock_guard<std::mutex> lock(rt->objectsMutex());
    rt->readers.insert(r);
  }
  reader->handle = reinterpret_cast<uint64_t>(r);
  return HSA_STATUS_SUCCESS;
}

// --- AMD loader extension (hsa_ven_amd_loader.h) ---

const LoadedCodeObject* findLoaded(Runtime* rt, uint64_t address) {
  for (Executable* e : rt->executables)
    for (const auto& lco : e->objects)
      if (address >= lco->base && address < lco->base + lco->bytes) return lco.get();
  return nullptr;
}

hsa_status_t queryHostAddress(const void* device_address, const void** host_address) {
  VGPU_RUNTIME(rt);
  if (device_address == nullptr || host_address == nullptr)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::lock_guard<std::mutex> lock(rt->objectsMutex());
  const LoadedCodeObject* lco = findLoaded(rt, reinterpret_cast<uint64_t>(device_address));
  if (lco == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  // The loader's host copy of the relocated image, as written to device memory.
  *host_address = lco->hostImage.data() + (reinterpret_cast<uint64_t>(device_address) - lco->base);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t querySegmentDescriptors(hsa_ven_amd_loader_segment_descriptor_t* descriptors,
                                     size_t* count) {
  VGPU_RUNTIME(rt);
  if (count == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::lock_guard<std::mutex> lock(rt->objectsMutex());
  std::vector<hsa_ven_amd_loader_segment_descriptor_t> all;
  for (Executable* e : rt->executables) {
    for (const auto& lco : e->objects) {
      hsa_ven_amd_loader_segment_descriptor_t d{};
      d.agent = hsa_agent_t{reinterpret_cast<uint64_t>(lco->agent)};
      d.executable = hsa_executable_t{reinterpret_cast<uint64_t>(e)};
      d.code_object_storage_type = HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_MEMORY;
      d.code_object_storage_base = lco->storage.data();
      d.code_object_storage_size = lco->storage.size();
      d.code_object_storage_offset = 0;
      d.segment_base = reinterpret_cast<const void*>(lco->base);
      d.segment_size = lco->bytes;
      all.push_back(d);
    }
  }
  if (descriptors == nullptr) {
    *count = all.size();
    return HSA_STATUS_SUCCESS;
  }
  if (*count < all.size()) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::copy(all.begin(), all.end(), descriptors);
  *count = all.size();
  return HSA_STATUS_SUCCESS;
}

hsa_status_t queryExecutable(const void* device_address, hsa_executable_t* executable) {
  VGPU_RUNTIME(rt);
  if (device_address == nullptr || executable == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::lock_guard<std::mutex> lock(rt->objectsMutex());
  const LoadedCodeObject* lco = findLoaded(rt, reinterpret_cast<uint64_t>(device_address));
  if (lco == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  executable->handle = reinterpret_cast<uint64_t>(lco->executable);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t iterateLoadedCodeObjects(hsa_executable_t executable,
                                      hsa_status_t (*callback)(hsa_executable_t,
                                                               hsa_loaded_code_object_t, void*),
                                      void* data) {
  VGPU_RUNTIME(rt);
  if (callback == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::vector<hsa_loaded_code_object_t> objects;
  {
    std::lock_guard<std::mutex> lock(rt->objectsMutex());
    Executable* e = executableOf(rt, executable);
    if (e == nullptr) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
    for (const auto& lco : e->objects)
      objects.push_back(hsa_loaded_code_object_t{reinterpret_cast<uint64_t>(lco.get())});
  }
  for (hsa_loaded_code_object_t o : objects) {
    hsa_status_t s = callback(executable, o, data);
    if (s != HSA_STATUS_SUCCESS) return s;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t loadedCodeObjectInfo(hsa_loaded_code_object_t object,
                                  hsa_ven_amd_loader_loaded_code_object_info_t attribute,
                                  void* value) {
  VGPU_RUNTIME(rt);
  if (value == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::lock_guard<std::mutex> lock(rt->objectsMutex());
  const LoadedCodeObject* lco = nullptr;
  for (Executable* e : rt->executables)
    for (const auto& candidate : e->objects)
      if (reinterpret_cast<uint64_t>(candidate.get()) == object.handle) lco = candidate.get();
  if (lco == nullptr) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  // A memory URI as ROCr writes them (the loader extension's URI attribute): process id,
  // offset and size of the code object in this process.
  const std::string uri = "memory://" + std::to_string(getpid()) + "#offset=" +
                          std::to_string(reinterpret_cast<uint64_t>(lco->storage.data())) +
                          "&size=" + std::to_string(lco->storage.size());
  switch (attribute) {
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_EXECUTABLE:
      return put(value, hsa_executable_t{reinterpret_cast<uint64_t>(lco->executable)});
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_KIND:
      return put<uint32_t>(value, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_KIND_AGENT);
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_AGENT:
      return put(value, hsa_agent_t{reinterpret_cast<uint64_t>(lco->agent)});
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_TYPE:
      return put<uint32_t>(value, HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_MEMORY);
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_BASE:
      return put<uint64_t>(value, reinterpret_cast<uint64_t>(lco->storage.data()));
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_SIZE:
      return put<uint64_t>(value, lco->storage.size());
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_DELTA:
      // The image's lowest p_vaddr is 0 (models/loader places segments at their p_vaddr).
      return put<int64_t>(value, int64_t(lco->base));
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_BASE:
      return put<uint64_t>(value, lco->base);
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_SIZE:
      return put<uint64_t>(value, lco->bytes);
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI_LENGTH:
      return put<uint32_t>(value, uint32_t(uri.size()));
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI:
      std::memcpy(value, uri.data(), uri.size());
      return HSA_STATUS_SUCCESS;
    default:
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
}

hsa_status_t readerFromFileWithOffsetSize(hsa_file_t file, size_t offset, size_t size,
                                          hsa_code_object_reader_t* reader) {
  VGPU_RUNTIME(rt);
  if (reader == nullptr || size == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::vector<uint8_t> bytes;
  if (hsa_status_t s = readFile(file, offset, size, bytes); s != HSA_STATUS_SUCCESS) return s;
  return newReader(rt, std::move(bytes), "code object file (fd " + std::to_string(file) + ")",
                   reader);
}

hsa_status_t iterateExecutables(hsa_status_t (*callback)(hsa_executable_t, void*), void* data) {
  VGPU_RUNTIME(rt);
  if (callback == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::vector<hsa_executable_t> all;
  {
    std::lock_guard<std::mutex> lock(rt->objectsMutex());
    for (Executable* e : rt->executables)
      all.push_back(hsa_executable_t{reinterpret_cast<uint64_t>(e)});
  }
  for (hsa_executable_t e : all) {
    hsa_status_t s = callback(e, data);
    if (s != HSA_STATUS_SUCCESS) return s;
  }
  return HSA_STATUS_SUCCESS;
}

const hsa_ven_amd_loader_1_03_pfn_t kLoaderTable = {
    queryHostAddress,         querySegmentDescriptors, queryExecutable,
    iterateLoadedCodeObjects, loadedCodeObjectInfo,    readerFromFileWithOffsetSize,
    iterateExecutables,
};

}  // namespace

// The image extension's functions (ApiImage.cpp, Unsupported.cpp), in table order.
static const hsa_ext_images_1_pfn_t& imagesTable() {
  static const hsa_ext_images_1_pfn_t table = {hsa_ext_image_get_capability,
                                               hsa_ext_image_data_get_info,
                                               hsa_ext_image_create,
                                               hsa_ext_image_destroy,
                                               hsa_ext_image_copy,
                                               hsa_ext_image_import,
                                               hsa_ext_image_export,
                                               hsa_ext_image_clear,
                                               hsa_ext_sampler_create,
                                               hsa_ext_sampler_destroy,
                                               hsa_ext_image_get_capability_with_layout,
                                               hsa_ext_image_data_get_info_with_layout,
                                               hsa_ext_image_create_with_layout};
  return table;
}

extern "C" {

hsa_status_t HSA_API hsa_system_get_major_extension_table(uint16_t extension,
                                                          uint16_t version_major,
                                                          size_t table_length, void* table) {
  VGPU_RUNTIME(rt);
  if (table == nullptr || table_length == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (extension == HSA_EXTENSION_IMAGES && version_major == 1) {
    const hsa_ext_images_1_pfn_t& images = imagesTable();
    std::memcpy(table, &images, std::min(table_length, sizeof images));
    return HSA_STATUS_SUCCESS;
  }
  if (extension != HSA_EXTENSION_AMD_LOADER || version_major != 1)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  // Each minor version of the table extends the previous one (hsa_ven_amd_loader.h): the
  // caller's length says which one it knows.
  std::memcpy(table, &kLoaderTable, std::min(table_length, sizeof kLoaderTable));
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_system_get_extension_table(uint16_t extension, uint16_t version_major,
                                                    uint16_t version_minor, void* table) {
  VGPU_RUNTIME(rt);
  if (table == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (extension == HSA_EXTENSION_IMAGES && version_major == 1 && version_minor == 0) {
    const hsa_ext_images_1_pfn_t& images = imagesTable();
    std::memcpy(table, &images, sizeof(hsa_ext_images_1_00_pfn_t));
    return HSA_STATUS_SUCCESS;
  }
  if (extension != HSA_EXTENSION_AMD_LOADER || version_major != 1)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  size_t bytes = 0;
  switch (version_minor) {
    case 0:
      bytes = sizeof(hsa_ven_amd_loader_1_00_pfn_t);
      break;
    case 1:
      bytes = sizeof(hsa_ven_amd_loader_1_01_pfn_t);
      break;
    case 2:
      bytes = sizeof(hsa_ven_amd_loader_1_02_pfn_t);
      break;
    case 3:
      bytes = sizeof(hsa_ven_amd_loader_1_03_pfn_t);
      break;
    default:
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  std::memcpy(table, &kLoaderTable, bytes);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_code_object_reader_create_from_memory(
    const void* code_object, size_t size, hsa_code_object_reader_t* code_object_reader) {
  VGPU_RUNTIME(rt);
  if (code_object == nullptr || size == 0 || code_object_reader == nullptr)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const auto* bytes = static_cast<const uint8_t*>(code_object);
  return newReader(rt, std::vector<uint8_t>(bytes, bytes + size), "code object in memory",
                   code_object_reader);
}

hsa_status_t HSA_API hsa_code_object_reader_create_from_file(
    hsa_file_t file, hsa_code_object_reader_t* code_object_reader) {
  VGPU_RUNTIME(rt);
  if (code_object_reader == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::vector<uint8_t> bytes;
  if (hsa_status_t s = readFile(file, 0, 0, bytes); s != HSA_STATUS_SUCCESS) return s;
  return newReader(rt, std::move(bytes), "code object file (fd " + std::to_string(file) + ")",
                   code_object_reader);
}

hsa_status_t HSA_API hsa_code_object_reader_destroy(hsa_code_object_reader_t code_object_reader) {
  VGPU_RUNTIME(rt);
  auto* r = reinterpret_cast<CodeObjectReader*>(code_object_reader.handle);
  std::lock_guard<std::mutex> lock(rt->objectsMutex());
  if (rt->readers.erase(r) == 0) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER;
  delete r;
  return HSA_STATUS_SUCCESS;
}

// HSA 1.0's code objects, which LLVM's OpenMP offload plugin (libomptarget.rtl.amdgpu, LLVM 15)
// still loads its images with: a deserialized code object is a copy of the ELF, as a code object
// reader is (HSA Runtime Programmer's Reference Manual 1.2, 2.8.1: hsa_code_object_deserialize
// and hsa_executable_load_code_object are deprecated in favour of readers).
hsa_status_t HSA_API hsa_code_object_deserialize(void* serialized_code_object,
                                                 size_t serialized_code_object_size,
                                                 const char* options,
                                                 hsa_code_object_t* code_object) {
  VGPU_RUNTIME(rt);
  if (serialized_code_object == nullptr || serialized_code_object_size == 0 ||
      code_object == nullptr)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const auto* bytes = static_cast<const uint8_t*>(serialized_code_object);
  hsa_code_object_reader_t reader;
  const hsa_status_t s =
      newReader(rt, std::vector<uint8_t>(bytes, bytes + serialized_code_object_size),
                "deserialized code object", &reader);
  if (s == HSA_STATUS_SUCCESS) code_object->handle = reader.handle;
  return s;
}

hsa_status_t HSA_API hsa_code_object_destroy(hsa_code_object_t code_object) {
  const hsa_status_t s = hsa_code_object_reader_destroy({code_object.handle});
  return s == HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER ? HSA_STATUS_ERROR_INVALID_CODE_OBJECT
                                                          : s;
}

hsa_status_t HSA_API hsa_executable_load_code_object(hsa_executable_t executable, hsa_agent_t agent,
                                                     hsa_code_object_t code_object,
                                                     const char* options) {
  const hsa_status_t s = hsa_executable_load_agent_code_object(
      executable, agent, {code_object.handle}, options, nullptr);
  return s == HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER ? HSA_STATUS_ERROR_INVALID_CODE_OBJECT
                                                          : s;
}

hsa_status_t HSA_API hsa_executable_create_alt(hsa_profile_t profile,
                                               hsa_default_float_rounding_mode_t rounding_mode,
                                               const char* options, hsa_executable_t* executable) {
  VGPU_RUNTIME(rt);
  if (executable == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  auto* e = new Executable;
  e->profile = profile;
  e->rounding = rounding_mode;
  std::lock_guard<std::mutex> lock(rt->objectsMutex());
  rt->executables.insert(e);
  executable->handle = reinterpret_cast<uint64_t>(e);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_executable_create(hsa_profile_t profile,
                                           hsa_executable_state_t executable_state,
                                           const char* options, hsa_executable_t* executable) {
  if (executable_state != HSA_EXECUTABLE_STATE_UNFROZEN) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return hsa_executable_create_alt(profile, HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR, options,
                                   executable);
}

hsa_status_t HSA_API hsa_executable_destroy(hsa_executable_t executable) {
  VGPU_RUNTIME(rt);
  std::lock_guard<std::mutex> lock(rt->objectsMutex());
  Executable* e = executableOf(rt, executable);
  if (e == nullptr) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  rt->executables.erase(e);
  rt->destroyExecutable(e);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_executable_load_agent_code_object(
    hsa_executable_t executable, hsa_agent_t agent, hsa_code_object_reader_t code_object_reader,
    const char* options, hsa_loaded_code_object_t* loaded_code_object) {
  VGPU_RUNTIME(rt);
  if (!rt->isAgent(agent)) return HSA_STATUS_ERROR_INVALID_AGENT;
  std::lock_guard<std::mutex> lock(rt->objectsMutex());
  Executable* e = executableOf(rt, executable);
  if (e == nullptr) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  auto* r = reinterpret_cast<CodeObjectReader*>(code_object_reader.handle);
  if (rt->readers.count(r) == 0) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER;
  return rt->loadCodeObject(*e, *reinterpret_cast<Agent*>(agent.handle), *r, loaded_code_object);
}

hsa_status_t HSA_API hsa_executable_freeze(hsa_executable_t executable, const char* options) {
  VGPU_RUNTIME(rt);
  std::lock_guard<std::mutex> lock(rt->objectsMutex());
  Executable* e = executableOf(rt, executable);
  if (e == nullptr) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  if (e->frozen) return HSA_STATUS_ERROR_FROZEN_EXECUTABLE;
  e->frozen = true;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_executable_get_info(hsa_executable_t executable,
                                             hsa_executable_info_t attribute, void* value) {
  VGPU_RUNTIME(rt);
  std::lock_guard<std::mutex> lock(rt->objectsMutex());
  Executable* e = executableOf(rt, executable);
  if (e == nullptr) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  if (value == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  switch (attribute) {
    case HSA_EXECUTABLE_INFO_PROFILE:
      return put(value, e->profile);
    case HSA_EXECUTABLE_INFO_STATE:
      return put(value, e->frozen ? HSA_EXECUTABLE_STATE_FROZEN : HSA_EXECUTABLE_STATE_UNFROZEN);
    case HSA_EXECUTABLE_INFO_DEFAULT_FLOAT_ROUNDING_MODE:
      return put(value, e->rounding);
  }
  return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

hsa_status_t HSA_API hsa_executable_validate(hsa_executable_t executable, uint32_t* result) {
  VGPU_RUNTIME(rt);
  std::lock_guard<std::mutex> lock(rt->objectsMutex());
  if (executableOf(rt, executable) == nullptr) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  if (result == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  // Loading already checked each code object against the agent's ISA; nothing is left
  // undefined (no program-level variables).
  *result = 0;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_executable_validate_alt(hsa_executable_t executable, const char* options,
                                                 uint32_t* result) {
  return hsa_executable_validate(executable, result);
}

hsa_status_t HSA_API hsa_executable_get_symbol_by_name(hsa_executable_t executable,
                                                       const char* symbol_name,
                                                       const hsa_agent_t* agent,
                                                       hsa_executable_symbol_t* symbol) {
  VGPU_RUNTIME(rt);
  if (symbol_name == nullptr || symbol == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::lock_guard<std::mutex> lock(rt->objectsMutex());
  Executable* e = executableOf(rt, executable);
  if (e == nullptr) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  for (const auto& s : e->symbols) {
    if (s->name != symbol_name) continue;
    if (agent != nullptr && agent->handle != reinterpret_cast<uint64_t>(s->agent)) continue;
    symbol->handle = reinterpret_cast<uint64_t>(s.get());
    return HSA_STATUS_SUCCESS;
  }
  return HSA_STATUS_ERROR_INVALID_SYMBOL_NAME;
}

hsa_status_t HSA_API hsa_executable_get_symbol(hsa_executable_t executable, const char* module_name,
                                               const char* symbol_name, hsa_agent_t agent,
                                               int32_t call_convention,
                                               hsa_executable_symbol_t* symbol) {
  // Module names belong to HSAIL programs; agent code objects have none.
  return hsa_executable_get_symbol_by_name(executable, symbol_name, &agent, symbol);
}

hsa_status_t HSA_API hsa_executable_iterate_symbols(
    hsa_executable_t executable,
    hsa_status_t (*callback)(hsa_executable_t exec, hsa_executable_symbol_t symbol, void* data),
    void* data) {
  VGPU_RUNTIME(rt);
  if (callback == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::vector<hsa_executable_symbol_t> all;
  {
    std::lock_guard<std::mutex> lock(rt->objectsMutex());
    Executable* e = executableOf(rt, executable);
    if (e == nullptr) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
    for (const auto& s : e->symbols)
      all.push_back(hsa_executable_symbol_t{reinterpret_cast<uint64_t>(s.get())});
  }
  for (hsa_executable_symbol_t s : all) {
    hsa_status_t status = callback(executable, s, data);
    if (status != HSA_STATUS_SUCCESS) return status;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_executable_iterate_agent_symbols(
    hsa_executable_t executable, hsa_agent_t agent,
    hsa_status_t (*callback)(hsa_executable_t exec, hsa_agent_t agent,
                             hsa_executable_symbol_t symbol, void* data),
    void* data) {
  VGPU_RUNTIME(rt);
  if (callback == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (!rt->isAgent(agent)) return HSA_STATUS_ERROR_INVALID_AGENT;
  std::vector<hsa_executable_symbol_t> all;
  {
    std::lock_guard<std::mutex> lock(rt->objectsMutex());
    Executable* e = executableOf(rt, executable);
    if (e == nullptr) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
    for (const auto& s : e->symbols)
      if (reinterpret_cast<uint64_t>(s->agent) == agent.handle)
        all.push_back(hsa_executable_symbol_t{reinterpret_cast<uint64_t>(s.get())});
  }
  for (hsa_executable_symbol_t s : all) {
    hsa_status_t status = callback(executable, agent, s, data);
    if (status != HSA_STATUS_SUCCESS) return status;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_executable_iterate_program_symbols(
    hsa_executable_t executable,
    hsa_status_t (*callback)(hsa_executable_t exec, hsa_executable_symbol_t symbol, void* data),
    void* data) {
  VGPU_RUNTIME(rt);
  if (callback == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::lock_guard<std::mutex> lock(rt->objectsMutex());
  if (executableOf(rt, executable) == nullptr) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  return HSA_STATUS_SUCCESS;  // program symbols come from HSAIL programs, which are not loaded
}

hsa_status_t HSA_API hsa_executable_symbol_get_info(hsa_executable_symbol_t executable_symbol,
                                                    hsa_executable_symbol_info_t attribute,
                                                    void* value) {
  VGPU_RUNTIME(rt);
  if (executable_symbol.handle == 0) return HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL;
  if (value == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const auto* s = reinterpret_cast<const ExecutableSymbol*>(executable_symbol.handle);
  const bool k = s->kernel;
  switch (attribute) {
    case HSA_EXECUTABLE_SYMBOL_INFO_TYPE:
      return put(value, k ? HSA_SYMBOL_KIND_KERNEL : HSA_SYMBOL_KIND_VARIABLE);
    case HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH:
      return put<uint32_t>(value, uint32_t(s->name.size()));
    case HSA_EXECUTABLE_SYMBOL_INFO_NAME:
      std::memcpy(value, s->name.data(), s->name.size());
      return HSA_STATUS_SUCCESS;
    case HSA_EXECUTABLE_SYMBOL_INFO_MODULE_NAME_LENGTH:
      return put<uint32_t>(value, 0);
    case HSA_EXECUTABLE_SYMBOL_INFO_MODULE_NAME:
      return HSA_STATUS_SUCCESS;
    case HSA_EXECUTABLE_SYMBOL_INFO_AGENT:
      return put(value, hsa_agent_t{reinterpret_cast<uint64_t>(s->agent)});
    case HSA_EXECUTABLE_SYMBOL_INFO_LINKAGE:
      return put(value, s->linkage);
    case HSA_EXECUTABLE_SYMBOL_INFO_IS_DEFINITION:
      return put(value, true);
    case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS:
      if (k) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
      return put<uint64_t>(value, s->address);
    case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ALLOCATION:
      if (k) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
      return put(value, HSA_VARIABLE_ALLOCATION_AGENT);
    case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SEGMENT:
      if (k) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
      return put(value, HSA_VARIABLE_SEGMENT_GLOBAL);
    case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ALIGNMENT: {
      if (k) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
      // ELF symbols carry no alignment: the largest power of two (up to 16) the address has.
      uint32_t align = 1;
      while (align < 16 && s->address % (align * 2) == 0) align *= 2;
      return put<uint32_t>(value, align);
    }
    case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE:
      if (k) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
      return put<uint32_t>(value, uint32_t(s->size));
    case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_IS_CONST:
      if (k) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
      return put(value, false);
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT:
      if (!k) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
      return put<uint64_t>(value, s->address);
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE:
      if (!k) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
      return put<uint32_t>(value, s->kernargSize);
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT:
      if (!k) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
      return put<uint32_t>(value, s->kernargAlign);
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE:
      if (!k) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
      return put<uint32_t>(value, s->groupSize);
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE:
      if (!k) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
      return put<uint32_t>(value, s->privateSize);
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_DYNAMIC_CALLSTACK:
      if (!k) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
      return put(value, s->dynamicCallStack);
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_CALL_CONVENTION:
      if (!k) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
      return put<uint32_t>(value, 0);
    default:
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
}

}  // extern "C"

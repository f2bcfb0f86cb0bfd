// The HSA functions the simulated GPU does not offer: image copies and clears on the GPU,
// images with AMD-specific layouts (hsa_amd_image_create), the finalizer (HSAIL), IPC, graphics
// interop, SVM, HSA 1.0 code-object serialisation and symbols, soft queues,
// and executable-level variable definitions. Each prints one line on stderr the
// first time it is called and returns an error status (hsa.h: HSA_STATUS_ERROR, or a more specific
// one).
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsa/hsa_ext_finalize.h>
#include <hsa/hsa_ext_image.h>

#include "runtime/hsa/HsaRuntime.h"

#define VGPU_UNSUPPORTED(name) return ::vgpu::hsa::unsupported(#name)

extern "C" {

hsa_status_t HSA_API hsa_amd_async_function(void (*callback)(void* arg), void* arg) {
  VGPU_UNSUPPORTED(hsa_amd_async_function);
}

hsa_status_t HSA_API hsa_amd_coherency_get_type(hsa_agent_t agent, hsa_amd_coherency_type_t* type) {
  VGPU_UNSUPPORTED(hsa_amd_coherency_get_type);
}

hsa_status_t HSA_API hsa_amd_coherency_set_type(hsa_agent_t agent, hsa_amd_coherency_type_t type) {
  VGPU_UNSUPPORTED(hsa_amd_coherency_set_type);
}

hsa_status_t HSA_API
hsa_amd_deregister_deallocation_callback(void* ptr, hsa_amd_deallocation_callback_t callback) {
  VGPU_UNSUPPORTED(hsa_amd_deregister_deallocation_callback);
}

hsa_status_t HSA_API hsa_amd_image_create(hsa_agent_t agent,
                                          const hsa_ext_image_descriptor_t* image_descriptor,
                                          const hsa_amd_image_descriptor_t* image_layout,
                                          const void* image_data,
                                          hsa_access_permission_t access_permission,
                                          hsa_ext_image_t* image) {
  VGPU_UNSUPPORTED(hsa_amd_image_create);
}

hsa_status_t HSA_API hsa_amd_interop_map_buffer(uint32_t num_agents, hsa_agent_t* agents,
                                                int interop_handle, uint32_t flags, size_t* size,
                                                void** ptr, size_t* metadata_size,
                                                const void** metadata) {
  VGPU_UNSUPPORTED(hsa_amd_interop_map_buffer);
}

hsa_status_t HSA_API hsa_amd_interop_unmap_buffer(void* ptr) {
  VGPU_UNSUPPORTED(hsa_amd_interop_unmap_buffer);
}

hsa_status_t HSA_API hsa_amd_ipc_memory_attach(const hsa_amd_ipc_memory_t* handle, size_t len,
                                               uint32_t num_agents,
                                               const hsa_agent_t* mapping_agents,
                                               void** mapped_ptr) {
  VGPU_UNSUPPORTED(hsa_amd_ipc_memory_attach);
}

hsa_status_t HSA_API hsa_amd_ipc_memory_create(void* ptr, size_t len,
                                               hsa_amd_ipc_memory_t* handle) {
  VGPU_UNSUPPORTED(hsa_amd_ipc_memory_create);
}

hsa_status_t HSA_API hsa_amd_ipc_memory_detach(void* mapped_ptr) {
  VGPU_UNSUPPORTED(hsa_amd_ipc_memory_detach);
}

hsa_status_t HSA_API hsa_amd_ipc_signal_attach(const hsa_amd_ipc_signal_t* handle,
                                               hsa_signal_t* signal) {
  VGPU_UNSUPPORTED(hsa_amd_ipc_signal_attach);
}

hsa_status_t HSA_API hsa_amd_ipc_signal_create(hsa_signal_t signal, hsa_amd_ipc_signal_t* handle) {
  VGPU_UNSUPPORTED(hsa_amd_ipc_signal_create);
}

hsa_status_t HSA_API hsa_amd_memory_migrate(const void* ptr, hsa_amd_memory_pool_t memory_pool,
                                            uint32_t flags) {
  VGPU_UNSUPPORTED(hsa_amd_memory_migrate);
}

hsa_status_t HSA_API hsa_amd_register_deallocation_callback(
    void* ptr, hsa_amd_deallocation_callback_t callback, void* user_data) {
  VGPU_UNSUPPORTED(hsa_amd_register_deallocation_callback);
}

hsa_status_t HSA_API hsa_amd_svm_attributes_get(void* ptr, size_t size,
                                                hsa_amd_svm_attribute_pair_t* attribute_list,
                                                size_t attribute_count) {
  VGPU_UNSUPPORTED(hsa_amd_svm_attributes_get);
}

hsa_status_t HSA_API hsa_amd_svm_attributes_set(void* ptr, size_t size,
                                                hsa_amd_svm_attribute_pair_t* attribute_list,
                                                size_t attribute_count) {
  VGPU_UNSUPPORTED(hsa_amd_svm_attributes_set);
}

hsa_status_t HSA_API hsa_amd_svm_prefetch_async(void* ptr, size_t size, hsa_agent_t agent,
                                                uint32_t num_dep_signals,
                                                const hsa_signal_t* dep_signals,
                                                hsa_signal_t completion_signal) {
  VGPU_UNSUPPORTED(hsa_amd_svm_prefetch_async);
}

hsa_status_t HSA_API hsa_code_object_get_info(hsa_code_object_t code_object,
                                              hsa_code_object_info_t attribute, void* value) {
  VGPU_UNSUPPORTED(hsa_code_object_get_info);
}

hsa_status_t HSA_API hsa_code_object_get_symbol(hsa_code_object_t code_object,
                                                const char* symbol_name,
                                                hsa_code_symbol_t* symbol) {
  VGPU_UNSUPPORTED(hsa_code_object_get_symbol);
}

hsa_status_t HSA_API hsa_code_object_get_symbol_from_name(hsa_code_object_t code_object,
                                                          const char* module_name,
                                                          const char* symbol_name,
                                                          hsa_code_symbol_t* symbol) {
  VGPU_UNSUPPORTED(hsa_code_object_get_symbol_from_name);
}

hsa_status_t HSA_API hsa_code_object_iterate_symbols(
    hsa_code_object_t code_object,
    hsa_status_t (*callback)(hsa_code_object_t code_object, hsa_code_symbol_t symbol, void* data),
    void* data) {
  VGPU_UNSUPPORTED(hsa_code_object_iterate_symbols);
}

hsa_status_t HSA_API hsa_code_object_serialize(
    hsa_code_object_t code_object,
    hsa_status_t (*alloc_callback)(size_t size, hsa_callback_data_t data, void** address),
    hsa_callback_data_t callback_data, const char* options, void** serialized_code_object,
    size_t* serialized_code_object_size) {
  VGPU_UNSUPPORTED(hsa_code_object_serialize);
}

hsa_status_t HSA_API hsa_code_symbol_get_info(hsa_code_symbol_t code_symbol,
                                              hsa_code_symbol_info_t attribute, void* value) {
  VGPU_UNSUPPORTED(hsa_code_symbol_get_info);
}

hsa_status_t HSA_API hsa_executable_agent_global_variable_define(hsa_executable_t executable,
                                                                 hsa_agent_t agent,
                                                                 const char* variable_name,
                                                                 void* address) {
  VGPU_UNSUPPORTED(hsa_executable_agent_global_variable_define);
}

hsa_status_t HSA_API hsa_executable_global_variable_define(hsa_executable_t executable,
                                                           const char* variable_name,
                                                           void* address) {
  VGPU_UNSUPPORTED(hsa_executable_global_variable_define);
}

hsa_status_t HSA_API hsa_executable_load_program_code_object(
    hsa_executable_t executable, hsa_code_object_reader_t code_object_reader, const char* options,
    hsa_loaded_code_object_t* loaded_code_object) {
  VGPU_UNSUPPORTED(hsa_executable_load_program_code_object);
}

hsa_status_t HSA_API hsa_executable_readonly_variable_define(hsa_executable_t executable,
                                                             hsa_agent_t agent,
                                                             const char* variable_name,
                                                             void* address) {
  VGPU_UNSUPPORTED(hsa_executable_readonly_variable_define);
}

hsa_status_t HSA_API hsa_ext_image_clear(hsa_agent_t agent, hsa_ext_image_t image, const void* data,
                                         const hsa_ext_image_region_t* image_region) {
  VGPU_UNSUPPORTED(hsa_ext_image_clear);
}

hsa_status_t HSA_API hsa_ext_image_copy(hsa_agent_t agent, hsa_ext_image_t src_image,
                                        const hsa_dim3_t* src_offset, hsa_ext_image_t dst_image,
                                        const hsa_dim3_t* dst_offset, const hsa_dim3_t* range) {
  VGPU_UNSUPPORTED(hsa_ext_image_copy);
}

hsa_status_t HSA_API hsa_ext_program_add_module(hsa_ext_program_t program,
                                                hsa_ext_module_t module) {
  VGPU_UNSUPPORTED(hsa_ext_program_add_module);
}

hsa_status_t HSA_API
hsa_ext_program_create(hsa_machine_model_t machine_model, hsa_profile_t profile,
                       hsa_default_float_rounding_mode_t default_float_rounding_mode,
                       const char* options, hsa_ext_program_t* program) {
  VGPU_UNSUPPORTED(hsa_ext_program_create);
}

hsa_status_t HSA_API hsa_ext_program_destroy(hsa_ext_program_t program) {
  VGPU_UNSUPPORTED(hsa_ext_program_destroy);
}

hsa_status_t HSA_API hsa_ext_program_finalize(hsa_ext_program_t program, hsa_isa_t isa,
                                              int32_t call_convention,
                                              hsa_ext_control_directives_t control_directives,
                                              const char* options,
                                              hsa_code_object_type_t code_object_type,
                                              hsa_code_object_t* code_object) {
  VGPU_UNSUPPORTED(hsa_ext_program_finalize);
}

hsa_status_t HSA_API hsa_ext_program_get_info(hsa_ext_program_t program,
                                              hsa_ext_program_info_t attribute, void* value) {
  VGPU_UNSUPPORTED(hsa_ext_program_get_info);
}

hsa_status_t HSA_API hsa_ext_program_iterate_modules(
    hsa_ext_program_t program,
    hsa_status_t (*callback)(hsa_ext_program_t program, hsa_ext_module_t module, void* data),
    void* data) {
  VGPU_UNSUPPORTED(hsa_ext_program_iterate_modules);
}

hsa_status_t HSA_API hsa_soft_queue_create(hsa_region_t region, uint32_t size,
                                           hsa_queue_type32_t type, uint32_t features,
                                           hsa_signal_t doorbell_signal, hsa_queue_t** queue) {
  VGPU_UNSUPPORTED(hsa_soft_queue_create);
}

}  // extern "C"

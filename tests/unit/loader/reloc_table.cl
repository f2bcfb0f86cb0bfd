// A kernel whose data holds addresses of other data: ld.lld emits R_AMDGPU_RELATIVE64 dynamic
// relocations for global_ptrs, which the loader lists and the runtime applies. None of the
// acceptance kernels has relocations, so the loader tests compile this one themselves.
global int table[4] = {10, 20, 30, 40};
global int* global_ptrs[2] = {&table[1], &table[3]};

kernel void reloc_read(global int* out) {
  out[get_global_id(0)] = *global_ptrs[get_global_id(0) & 1];
}

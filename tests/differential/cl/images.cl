// Image kernels (CasesImage.cpp): sampler-less reads (image_load), writes (image_store), size and
// format queries (the image object's T# and metadata dwords) and sampled reads (image_sample*)
// with samplers passed as arguments and declared at program scope. Every work-item handles one
// texel or one coordinate; results go to global buffers or output images.

// --- sampler-less reads: read_image{f,i,ui}(image, int coordinates) -> buffer ------------------

kernel void img_read_1d_f(read_only image1d_t img, global float4* out) {
  const int x = get_global_id(0);
  out[x] = read_imagef(img, x);
}

kernel void img_read_2d_f(read_only image2d_t img, global float4* out) {
  const int x = get_global_id(0), y = get_global_id(1);
  out[y * get_global_size(0) + x] = read_imagef(img, (int2)(x, y));
}

kernel void img_read_2d_i(read_only image2d_t img, global int4* out) {
  const int x = get_global_id(0), y = get_global_id(1);
  out[y * get_global_size(0) + x] = read_imagei(img, (int2)(x, y));
}

kernel void img_read_2d_ui(read_only image2d_t img, global uint4* out) {
  const int x = get_global_id(0), y = get_global_id(1);
  out[y * get_global_size(0) + x] = read_imageui(img, (int2)(x, y));
}

kernel void img_read_3d_f(read_only image3d_t img, global float4* out) {
  const int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  const int i = (z * get_global_size(1) + y) * get_global_size(0) + x;
  out[i] = read_imagef(img, (int4)(x, y, z, 0));
}

kernel void img_read_1darray_i(read_only image1d_array_t img, global int4* out) {
  const int x = get_global_id(0), layer = get_global_id(1);
  out[layer * get_global_size(0) + x] = read_imagei(img, (int2)(x, layer));
}

kernel void img_read_2darray_ui(read_only image2d_array_t img, global uint4* out) {
  const int x = get_global_id(0), y = get_global_id(1), layer = get_global_id(2);
  const int i = (layer * get_global_size(1) + y) * get_global_size(0) + x;
  out[i] = read_imageui(img, (int4)(x, y, layer, 0));
}

// --- writes: buffer -> write_image{f,i,ui} ------------------------------------------------------

kernel void img_write_1d_f(global const float4* in, write_only image1d_t img) {
  const int x = get_global_id(0);
  write_imagef(img, x, in[x]);
}

kernel void img_write_2d_f(global const float4* in, write_only image2d_t img) {
  const int x = get_global_id(0), y = get_global_id(1);
  write_imagef(img, (int2)(x, y), in[y * get_global_size(0) + x]);
}

kernel void img_write_2d_i(global const int4* in, write_only image2d_t img) {
  const int x = get_global_id(0), y = get_global_id(1);
  write_imagei(img, (int2)(x, y), in[y * get_global_size(0) + x]);
}

kernel void img_write_2d_ui(global const uint4* in, write_only image2d_t img) {
  const int x = get_global_id(0), y = get_global_id(1);
  write_imageui(img, (int2)(x, y), in[y * get_global_size(0) + x]);
}

kernel void img_write_1darray_ui(global const uint4* in, write_only image1d_array_t img) {
  const int x = get_global_id(0), layer = get_global_id(1);
  write_imageui(img, (int2)(x, layer), in[layer * get_global_size(0) + x]);
}

kernel void img_write_2darray_f(global const float4* in, write_only image2d_array_t img) {
  const int x = get_global_id(0), y = get_global_id(1), layer = get_global_id(2);
  const int i = (layer * get_global_size(1) + y) * get_global_size(0) + x;
  write_imagef(img, (int4)(x, y, layer, 0), in[i]);
}

// A copy between two images of the same format, mirrored in x (reads and writes in one kernel).
kernel void img_copy_mirror_2d(read_only image2d_t src, write_only image2d_t dst) {
  const int x = get_global_id(0), y = get_global_id(1);
  const int w = get_image_width(src);
  write_imagef(dst, (int2)(w - 1 - x, y), read_imagef(src, (int2)(x, y)));
}

// --- queries: the T#'s sizes and the metadata dwords (channel type, order, width) --------------

kernel void img_query_2d(read_only image2d_t img, global int* out) {
  out[0] = get_image_width(img);
  out[1] = get_image_height(img);
  out[2] = get_image_channel_data_type(img);
  out[3] = get_image_channel_order(img);
}

kernel void img_query_3d(read_only image3d_t img, global int* out) {
  out[0] = get_image_width(img);
  out[1] = get_image_height(img);
  out[2] = get_image_depth(img);
  out[3] = get_image_channel_data_type(img);
  out[4] = get_image_channel_order(img);
}

kernel void img_query_2darray(read_only image2d_array_t img, global int* out) {
  out[0] = get_image_width(img);
  out[1] = get_image_height(img);
  out[2] = (int)get_image_array_size(img);
  out[3] = get_image_channel_data_type(img);
  out[4] = get_image_channel_order(img);
}

// --- sampled reads: read_image{f,i,ui}(image, sampler, float coordinates) -----------------------

kernel void samp_1d_f(read_only image1d_t img, sampler_t smp, global const float* coord,
                      global float4* out) {
  const int i = get_global_id(0);
  out[i] = read_imagef(img, smp, coord[i]);
}

kernel void samp_2d_f(read_only image2d_t img, sampler_t smp, global const float2* coord,
                      global float4* out) {
  const int i = get_global_id(0);
  out[i] = read_imagef(img, smp, coord[i]);
}

kernel void samp_2d_ui(read_only image2d_t img, sampler_t smp, global const float2* coord,
                       global uint4* out) {
  const int i = get_global_id(0);
  out[i] = read_imageui(img, smp, coord[i]);
}

kernel void samp_3d_f(read_only image3d_t img, sampler_t smp, global const float4* coord,
                      global float4* out) {
  const int i = get_global_id(0);
  out[i] = read_imagef(img, smp, coord[i]);
}

kernel void samp_2darray_f(read_only image2d_array_t img, sampler_t smp,
                           global const float4* coord, global float4* out) {
  const int i = get_global_id(0);
  out[i] = read_imagef(img, smp, coord[i]);
}

// A program-scope sampler: the compiler builds its S# in SGPRs, no argument.
constant sampler_t kNearestEdge =
    CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

kernel void samp_2d_const_int_coords(read_only image2d_t img, global const int2* coord,
                                     global int4* out) {
  const int i = get_global_id(0);
  out[i] = read_imagei(img, kNearestEdge, coord[i]);
}

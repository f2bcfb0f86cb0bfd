// The socket types a platform binds the GPU with: plain TLM-2.0 base-protocol sockets (IEEE
// 1666-2011, section 13), so that a platform needs no header of the model's internal blocks.
#pragma once

#include <systemc>
#include <tlm>

namespace vgpu {

// A target several initiators may bind (the host's view of device memory: a PCIe BAR that the
// host CPU and DMA engines both reach).
using HostMemorySocket =
    tlm::tlm_target_socket<32, tlm::tlm_base_protocol_types, 0, sc_core::SC_ONE_OR_MORE_BOUND>;

// The GPU's bus-master port to system memory: at most one target, and none at all is allowed (a
// platform without system memory; an access there then gets TLM_ADDRESS_ERROR_RESPONSE).
using SystemMemorySocket =
    tlm::tlm_initiator_socket<32, tlm::tlm_base_protocol_types, 1, sc_core::SC_ZERO_OR_MORE_BOUND>;

}  // namespace vgpu

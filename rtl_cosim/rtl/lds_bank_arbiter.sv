// LDS bank-conflict arbiter of one compute unit (gfx906): 32 banks of 4 bytes, bank = dword
// address mod 32, one wave64 request at a time.
//
// The rules are the ones in models/lds/LdsBankArbiter.h (with their sources), which this block
// matches cycle for cycle (rtl_cosim/tests/ checks it):
//   * a lane asks for D = (req_width + 1) x (req_dual ? 2 : 1) dwords; the wave is served in
//     groups of 32 / S consecutive lanes, S = D rounded up to a power of two (32 lanes for b32,
//     16 for b64 and read2_b32, 8 for b96, b128 and read2_b64), one group after the other in
//     lane order, skipping groups without an active lane;
//   * a group has 32 request slots: slot i x S + j is lane i's dword j (j = element x
//     (req_width + 1) + dword of the element);
//   * in every cycle each bank serves one dword: the dword of the lowest waiting slot in that
//     bank, and with it every waiting slot of the group that wants the same dword (broadcast);
//     a group is done when all its slots were served.
//
// Protocol: a request is taken on a rising clock edge with req_valid && req_ready. From the next
// cycle on, every cycle with grant_valid is one bank cycle: bank b serves the slots
// bank_slots[b] of group grant_group (served_slots is their union, served_lanes the wave64
// lanes they belong to). done is high in the last cycle of a request (with its last grant;
// alone for a request with no active lane), and req_ready is high while idle and in that
// cycle, so requests can follow each other without a gap. Synchronous active-low reset.
module lds_bank_arbiter (
    input  logic                clk,
    input  logic                rst_n,
    // Request (sampled when req_valid && req_ready).
    input  logic                req_valid,
    output logic                req_ready,
    input  logic [63:0]         req_lane_mask,  // EXEC & active lanes
    input  logic [ 1:0]         req_width,      // dwords per element - 1 (b32, b64, b96, b128)
    input  logic                req_dual,       // two addresses per lane (read2 / write2)
    input  logic [63:0][31:0]   req_addr0,      // dword address of each lane's first element
    input  logic [63:0][31:0]   req_addr1,      // ... and of its second element (req_dual)
    // Grants, one bank cycle per clock while grant_valid.
    output logic                grant_valid,
    output logic [ 3:0]         grant_group,     // lane group served
    output logic                grant_conflict,  // a cycle beyond the first of its group
    output logic [31:0]         served_slots,    // request slots of the group served
    output logic [63:0]         served_lanes,    // wave64 lanes with a slot served
    output logic [31:0]         bank_active,     // banks that serve a dword in this cycle
    output logic [31:0][31:0]   bank_slots,      // request slots each bank serves
    output logic [31:0][31:0]   bank_dword,      // dword address each bank serves
    output logic                done
);

  // ---- Lane groups -------------------------------------------------------------------------
  // log2(S): dwords per lane rounded up to a power of two.
  function automatic logic [1:0] slot_shift(logic [1:0] width, logic dual);
    case ({dual, width})
      3'b000:                return 2'd0;  // b32 and narrower: 32 lanes
      3'b001, 3'b100:        return 2'd1;  // b64, read2_b32: 16 lanes
      3'b010, 3'b011, 3'b101: return 2'd2;  // b96, b128, read2_b64: 8 lanes
      default:               return 2'd3;  // read2 of b96/b128 (no such DS op): 4 lanes
    endcase
  endfunction

  // Groups with an active lane (bit g; groups beyond the last one of the width are 0).
  function automatic logic [15:0] active_groups(logic [63:0] mask, logic [1:0] shift);
    logic [15:0] quad, groups;
    for (int k = 0; k < 16; k++) quad[k] = |mask[4*k+:4];
    groups = '0;
    case (shift)
      2'd0:    for (int k = 0; k < 2; k++) groups[k] = |quad[8*k+:8];
      2'd1:    for (int k = 0; k < 4; k++) groups[k] = |quad[4*k+:4];
      2'd2:    for (int k = 0; k < 8; k++) groups[k] = |quad[2*k+:2];
      default: groups = quad;
    endcase
    return groups;
  endfunction

  // The first active group at or after `from`; 16 when there is none.
  function automatic logic [4:0] next_group(logic [15:0] active, logic [4:0] from);
    logic [4:0] found = 5'd16;
    for (int k = 15; k >= 0; k--)
      if (active[k] && 5'(k) >= from) found = 5'(k);
    return found;
  endfunction

  // Lane (wave64) of slot i of group g, and dword j of that lane the slot stands for.
  function automatic logic [5:0] slot_lane(logic [3:0] g, logic [1:0] shift, int i);
    return 6'((int'(g) << (5 - int'(shift))) + (i >> int'(shift)));
  endfunction
  function automatic logic [2:0] slot_index(logic [1:0] shift, int i);
    return 3'(i & ((1 << int'(shift)) - 1));
  endfunction

  // The slots of group g that stand for a dword of an active lane.
  function automatic logic [31:0] group_slots(logic [63:0] mask, logic [1:0] width, logic dual,
                                              logic [3:0] g);
    logic [31:0] slots;
    logic [1:0]  shift = slot_shift(width, dual);
    logic [3:0]  dwords = (4'(width) + 4'd1) << dual;
    for (int i = 0; i < 32; i++)
      slots[i] = mask[slot_lane(g, shift, i)] && 4'(slot_index(shift, i)) < dwords;
    return slots;
  endfunction

  // ---- Request registers -------------------------------------------------------------------
  logic                busy_q;
  logic [63:0]         mask_q;
  logic [ 1:0]         width_q;
  logic                dual_q;
  logic [31:0]         addr_q[2][64];  // [element][lane]

  // ---- Group state: group being served, lanes' slots still waiting -------------------------
  logic [ 3:0]         group_q;
  logic                first_q;    // first cycle of the current group
  logic [31:0]         pending_q;  // slots of the current group not served yet

  logic [ 1:0]         shift;      // log2(S) of the request
  logic [15:0]         active;     // its groups with an active lane
  assign shift  = slot_shift(width_q, dual_q);
  assign active = active_groups(mask_q, shift);

  // ---- Arbitration of the current cycle ------------------------------------------------------
  logic [ 5:0]         slot_lane_w[32];   // lane of each slot of the current group
  logic [31:0]         slot_dword[32];    // dword address each slot asks for
  logic [ 4:0]         slot_bank[32];

  logic [31:0]         bank_dword_w[32];  // dword each bank serves: its lowest waiting slot's
  logic [31:0]         bank_slots_w[32];  // slots each bank serves
  logic [31:0]         served;            // waiting slots whose dword their bank serves

  always_comb begin
    for (int i = 0; i < 32; i++) begin
      logic [2:0] j;
      logic [2:0] per_element;
      logic [2:0] in_element;  // dword of the element
      logic       second;
      j              = slot_index(shift, i);
      per_element    = 3'(width_q) + 3'd1;
      second         = dual_q && j >= per_element;
      in_element     = second ? j - per_element : j;
      slot_lane_w[i] = slot_lane(group_q, shift, i);
      slot_dword[i]  = addr_q[second][slot_lane_w[i]] + 32'(in_element);
      slot_bank[i]   = slot_dword[i][4:0];
    end
  end

  // Each bank picks the dword of the lowest waiting slot in it (slots are scanned from the
  // highest down, so the lowest one is written last).
  always_comb begin
    for (int b = 0; b < 32; b++) bank_dword_w[b] = '0;
    for (int i = 31; i >= 0; i--)
      if (pending_q[i]) bank_dword_w[slot_bank[i]] = slot_dword[i];
  end

  // Every waiting slot that wants the dword its bank serves is served with it (broadcast).
  always_comb begin
    for (int i = 0; i < 32; i++)
      served[i] = pending_q[i] && bank_dword_w[slot_bank[i]] == slot_dword[i];
  end

  always_comb begin
    for (int b = 0; b < 32; b++) bank_slots_w[b] = '0;
    for (int i = 0; i < 32; i++)
      if (served[i]) bank_slots_w[slot_bank[i]][i] = 1'b1;
  end

  always_comb begin
    served_lanes = '0;
    for (int i = 0; i < 32; i++)
      if (served[i]) served_lanes[slot_lane_w[i]] = 1'b1;
  end

  // Per bank, for the waveform and the outputs: the slots it serves and the dword.
  for (genvar b = 0; b < 32; b++) begin : g_bank
    logic [31:0] slots;
    logic [31:0] dword;
    assign slots          = bank_slots_w[b];
    assign dword          = bank_dword_w[b];
    assign bank_slots[b]  = slots;
    assign bank_dword[b]  = dword;
    assign bank_active[b] = |slots;
  end

  // ---- Group sequencing ------------------------------------------------------------------
  logic [31:0] remaining;
  logic [ 4:0] following;   // the next active group after the current one (16: none)
  logic        next_pass;   // another group follows the current one
  logic [ 1:0] req_shift;
  logic [ 4:0] req_first;   // the request's first active group (16: no active lane)

  assign remaining = pending_q & ~served;
  assign following = next_group(active, 5'(group_q) + 5'd1);
  assign next_pass = !following[4];
  assign req_shift = slot_shift(req_width, req_dual);
  assign req_first = next_group(active_groups(req_lane_mask, req_shift), 5'd0);

  assign grant_valid    = busy_q && pending_q != '0;
  assign grant_group    = group_q;
  assign grant_conflict = grant_valid && !first_q;
  assign served_slots   = served;
  assign done           = busy_q && remaining == '0 && !next_pass;
  assign req_ready      = !busy_q || done;

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      busy_q    <= 1'b0;
      mask_q    <= '0;
      width_q   <= '0;
      dual_q    <= 1'b0;
      group_q   <= '0;
      first_q   <= 1'b0;
      pending_q <= '0;
    end else if (req_valid && req_ready) begin
      busy_q    <= 1'b1;
      mask_q    <= req_lane_mask;
      width_q   <= req_width;
      dual_q    <= req_dual;
      for (int l = 0; l < 64; l++) begin
        addr_q[0][l] <= req_addr0[l];
        addr_q[1][l] <= req_addr1[l];
      end
      group_q   <= req_first[3:0];
      first_q   <= 1'b1;
      pending_q <= req_first[4] ? '0
                 : group_slots(req_lane_mask, req_width, req_dual, req_first[3:0]);
    end else if (busy_q) begin
      if (remaining != '0) begin
        pending_q <= remaining;
        first_q   <= 1'b0;
      end else if (next_pass) begin
        group_q   <= following[3:0];
        first_q   <= 1'b1;
        pending_q <= group_slots(mask_q, width_q, dual_q, following[3:0]);
      end else begin
        busy_q <= 1'b0;
      end
    end
  end

endmodule

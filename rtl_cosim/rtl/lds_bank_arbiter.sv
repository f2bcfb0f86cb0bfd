// LDS bank-conflict arbiter of one compute unit (gfx906): 32 banks of 4 bytes, bank = dword
// address mod 32, one wave64 request at a time, resolved per half-wave (32 lanes).
//
// The rules are the ones in models/lds/LdsBankArbiter.h, which this block matches cycle for
// cycle (rtl_cosim/tests/ checks it):
//   * one pass per element (2 for read2/write2), per dword of the element (1..4: b32 or narrower,
//     b64, b96, b128), per half-wave that has active lanes, in that order;
//   * in every cycle of a pass each bank serves one dword: the dword of the lowest-numbered lane
//     still waiting in that bank, and with it every waiting lane of the half-wave that wants the
//     same dword (broadcast); a pass ends when every active lane of its half-wave was served.
//
// Protocol: a request is taken on a rising clock edge with req_valid && req_ready. From the next
// cycle on, every cycle with grant_valid is one bank cycle: bank b serves the lanes
// bank_lanes[b] of half-wave grant_half (served_lanes is the same as a wave64 lane mask).
// done is high in the last cycle of a request (with its last grant; alone for a request with no
// active lane), and req_ready is high while idle and in that cycle, so requests can follow each
// other without a gap. Synchronous active-low reset.
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
    output logic                grant_half,      // half-wave served: lanes 0-31 or 32-63
    output logic                grant_conflict,  // a cycle beyond the first of its pass
    output logic [63:0]         served_lanes,    // wave64 lanes served in this cycle
    output logic [31:0]         bank_active,     // banks that serve a dword in this cycle
    output logic [31:0][31:0]   bank_lanes,      // half-wave lanes each bank serves
    output logic [31:0][31:0]   bank_dword,      // dword address each bank serves
    output logic                done
);

  // ---- Request registers -------------------------------------------------------------------
  logic                busy_q;
  logic [63:0]         mask_q;
  logic [ 1:0]         width_q;
  logic                dual_q;
  logic [31:0]         addr_q[2][64];  // [element][lane]

  // ---- Pass state: element, dword of the element, half-wave, lanes still waiting ----------
  logic                elem_q;
  logic [ 1:0]         dw_q;
  logic                half_q;
  logic                first_q;    // first cycle of the current pass
  logic [31:0]         pending_q;  // half-wave lanes of the current pass not served yet

  // ---- Arbitration of the current cycle ------------------------------------------------------
  logic [31:0]         lane_dword[32];  // dword address of each half-wave lane in this pass
  logic [ 4:0]         lane_bank[32];

  logic [31:0]         bank_dword_w[32];  // dword each bank serves: its lowest waiting lane's
  logic [31:0]         bank_lanes_w[32];  // half-wave lanes each bank serves
  logic [31:0]         served;            // waiting lanes whose dword their bank serves

  always_comb begin
    for (int i = 0; i < 32; i++) begin
      lane_dword[i] = addr_q[elem_q][{half_q, i[4:0]}] + {30'd0, dw_q};
      lane_bank[i]  = lane_dword[i][4:0];
    end
  end

  // Each bank picks the dword of the lowest-numbered lane still waiting in it (lanes are scanned
  // from the highest down, so the lowest one is written last).
  always_comb begin
    for (int b = 0; b < 32; b++) bank_dword_w[b] = '0;
    for (int i = 31; i >= 0; i--)
      if (pending_q[i]) bank_dword_w[lane_bank[i]] = lane_dword[i];
  end

  // Every waiting lane that wants the dword its bank serves is served with it (broadcast).
  always_comb begin
    for (int i = 0; i < 32; i++)
      served[i] = pending_q[i] && bank_dword_w[lane_bank[i]] == lane_dword[i];
  end

  always_comb begin
    for (int b = 0; b < 32; b++) bank_lanes_w[b] = '0;
    for (int i = 0; i < 32; i++)
      if (served[i]) bank_lanes_w[lane_bank[i]][i] = 1'b1;
  end

  // Per bank, for the waveform and the outputs: the lanes it serves and the dword.
  for (genvar b = 0; b < 32; b++) begin : g_bank
    logic [31:0] lanes;
    logic [31:0] dword;
    assign lanes          = bank_lanes_w[b];
    assign dword          = bank_dword_w[b];
    assign bank_lanes[b]  = lanes;
    assign bank_dword[b]  = dword;
    assign bank_active[b] = |lanes;
  end

  // ---- Pass sequencing -------------------------------------------------------------------
  logic [31:0] remaining;
  logic        first_half;  // the half-wave the first pass of an element/dword starts with
  logic        next_pass;   // another pass follows the current one
  logic        next_elem, next_half;
  logic [ 1:0] next_dw;

  assign remaining  = pending_q & ~served;
  assign first_half = (mask_q[31:0] == '0);

  always_comb begin
    next_pass = 1'b1;
    next_elem = elem_q;
    next_dw   = dw_q;
    next_half = first_half;
    if (mask_q == '0) next_pass = 1'b0;
    else if (!half_q && mask_q[63:32] != '0) next_half = 1'b1;
    else if (dw_q != width_q) next_dw = dw_q + 2'd1;
    else if (!elem_q && dual_q) begin
      next_elem = 1'b1;
      next_dw   = 2'd0;
    end else next_pass = 1'b0;
  end

  assign grant_valid    = busy_q && pending_q != '0;
  assign grant_half     = half_q;
  assign grant_conflict = grant_valid && !first_q;
  assign served_lanes   = half_q ? {served, 32'd0} : {32'd0, served};
  assign done           = busy_q && remaining == '0 && !next_pass;
  assign req_ready      = !busy_q || done;

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      busy_q    <= 1'b0;
      mask_q    <= '0;
      width_q   <= '0;
      dual_q    <= 1'b0;
      elem_q    <= 1'b0;
      dw_q      <= '0;
      half_q    <= 1'b0;
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
      elem_q    <= 1'b0;
      dw_q      <= '0;
      half_q    <= (req_lane_mask[31:0] == '0);
      first_q   <= 1'b1;
      pending_q <= (req_lane_mask[31:0] != '0) ? req_lane_mask[31:0] : req_lane_mask[63:32];
    end else if (busy_q) begin
      if (remaining != '0) begin
        pending_q <= remaining;
        first_q   <= 1'b0;
      end else if (next_pass) begin
        elem_q    <= next_elem;
        dw_q      <= next_dw;
        half_q    <= next_half;
        first_q   <= 1'b1;
        pending_q <= next_half ? mask_q[63:32] : mask_q[31:0];
      end else begin
        busy_q <= 1'b0;
      end
    end
  end

endmodule

// Protocol testbench of lds_bank_arbiter (simulation only; clocked from tb_main.cpp).
//
// Stimulus: random requests (lane masks from full to single lanes and empty, b32/b64/b96/b128,
// read2/write2, addresses from all-broadcast to all-in-one-bank, strides), presented back to back
// or after random gaps, with req_valid held (and the request stable) until req_ready.
//
// Assertions, checked on every clock edge, with the lane groups of the rule (a lane's D dwords
// together, groups of 32 / S lanes, S = D rounded up to a power of two):
//   * grants only while a taken request is in flight, never in a cycle without served slots;
//   * groups come in lane order and only groups with an active lane; a group starts only when
//     every earlier one is done;
//   * a served slot is a dword of an active lane of the granted group, served once; served_lanes
//     are the lanes of the served slots;
//   * each bank serves one dword: every slot in bank_slots[b] wants bank_dword[b], which is in
//     bank b; bank_active matches; the banks' slots make up served_slots;
//   * work-conserving: a waiting slot is never left out while its bank is idle or serves its
//     dword;
//   * grant_conflict is high exactly in the cycles after the first of a group;
//   * done comes with the cycle in which every dword of every active lane has been served (not
//     before, not after), exactly once per request; req_ready is low while a request is busy;
//   * each request takes as many cycles as the rule gives: per group with an active lane, the
//     busiest bank's number of distinct dwords.
module tb_lds_bank_arbiter (
    input logic clk
);
  localparam int NumRequests = 20000;

  // ---- DUT -----------------------------------------------------------------------------------
  logic                rst_n;
  logic                req_valid, req_ready, req_dual;
  logic [63:0]         req_lane_mask;
  logic [ 1:0]         req_width;
  logic [63:0][31:0]   req_addr0, req_addr1;
  logic                grant_valid, grant_conflict, done;
  logic [ 3:0]         grant_group;
  logic [31:0]         served_slots;
  logic [63:0]         served_lanes;
  logic [31:0]         bank_active;
  logic [31:0][31:0]   bank_slots, bank_dword;

  lds_bank_arbiter dut (.*);

  // ---- Stimulus --------------------------------------------------------------------------------
  int cycle = 0;
  int gap = 0;
  int taken_count = 0, done_count = 0;

  task automatic new_request();
    int mode, span, stride, base, off1;
    logic [63:0] mask;
    mode = $urandom_range(0, 7);
    case (mode)
      0: mask = '1;
      1: mask = {$urandom, $urandom};
      2: mask = 64'd1 << $urandom_range(0, 63);
      3: mask = {32'd0, $urandom};
      4: mask = {$urandom, 32'd0};
      5: mask = {$urandom, $urandom} & {$urandom, $urandom} & {$urandom, $urandom};
      6: mask = ($urandom_range(0, 15) == 0) ? 64'd0 : '1;
      default: mask = '1 >> $urandom_range(0, 63);
    endcase
    span   = 1 << $urandom_range(0, 12);
    stride = $urandom_range(0, 64);
    base   = $urandom_range(0, 16383);
    off1   = $urandom_range(0, 255);
    req_lane_mask <= mask;
    req_width     <= 2'($urandom_range(0, 3));
    req_dual      <= $urandom_range(0, 2) == 0;
    for (int l = 0; l < 64; l++) begin
      logic [31:0] a;
      if ($urandom_range(0, 1) == 0) a = 32'(base + (l * stride) % 16384);  // strided
      else a = 32'(base + $urandom_range(0, span - 1));  // random in a span
      req_addr0[l] <= a;
      req_addr1[l] <= a + 32'(off1);
    end
  endtask

  always @(posedge clk) begin
    cycle <= cycle + 1;
    rst_n <= cycle >= 3;
    if (cycle < 4) begin
      req_valid <= 1'b0;
      gap       <= 0;
    end else if (req_valid && req_ready) begin  // taken: the next one after a random gap
      taken_count <= taken_count + 1;
      req_valid   <= 1'b0;
      gap         <= ($urandom_range(0, 3) == 0) ? $urandom_range(1, 6) : 0;
      if (taken_count + 1 < NumRequests && $urandom_range(0, 3) != 0) begin
        req_valid <= 1'b1;  // back to back (stalls while the previous one is busy)
        gap       <= 0;
        new_request();
      end
    end else if (!req_valid && taken_count < NumRequests) begin
      if (gap == 0) begin
        req_valid <= 1'b1;
        new_request();
      end else gap <= gap - 1;
    end
    if (done_count == NumRequests) begin
      $display("tb_lds_bank_arbiter: %0d requests, %0d cycles, all assertions held", done_count,
               cycle);
      $finish;
    end
    if (cycle > NumRequests * 600) begin
      $error("timeout: %0d of %0d requests done", done_count, NumRequests);
      $finish;
    end
  end

  // ---- Checker -------------------------------------------------------------------------------
  logic              busy;  // a taken request is in flight
  logic [63:0]       mask_c;
  logic              dual_c;
  int                per_element_c, dwords_c, slots_c, lanes_c;  // dwords per element / lane,
                                                                  // slots per lane, lanes per group
  int                cycles_c, expected_c, age, group_c;
  logic [31:0]       addr_c[2][64];
  logic [7:0]        served_c[64];  // dwords of each lane served so far
  logic              prev_valid;
  logic [63:0]       prev_mask;

  function automatic int slots_per_lane(int dwords);
    return dwords == 1 ? 1 : dwords == 2 ? 2 : dwords <= 4 ? 4 : 8;
  endfunction

  // Dword j of lane l of the request in flight.
  /* verilator lint_off UNUSEDSIGNAL */  // l < 64, j < 8
  function automatic logic [31:0] want(int l, int j);
    automatic logic second = dual_c && j >= per_element_c;
    return addr_c[second ? 1 : 0][l[5:0]] + 32'(second ? j - per_element_c : j);
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  // Dword j of lane l with addresses a0/a1 (for the rule, computed at take time).
  function automatic logic [31:0] dword_of(int per_element, logic dual, logic [31:0] a0,
                                           logic [31:0] a1, int j);
    automatic logic second = dual && j >= per_element;
    return (second ? a1 : a0) + 32'(second ? j - per_element : j);
  endfunction

  function automatic int expected_cycles(logic [63:0] mask, int per_element, logic dual,
                                         logic [63:0][31:0] a0, logic [63:0][31:0] a1);
    automatic int dwords = per_element * (dual ? 2 : 1);
    automatic int lanes = 32 / slots_per_lane(dwords);
    automatic int total = 0;
    for (int first = 0; first < 64; first += lanes) begin
      automatic int distinct[32] = '{default: 0};  // distinct dwords per bank in the group
      automatic logic [31:0] seen[32];  // dwords of the group so far
      automatic int n = 0, worst = 0;
      for (int l = first; l < first + lanes; l++)
        for (int j = 0; j < dwords; j++) begin
          automatic logic [31:0] dw;
          automatic logic again = 1'b0;
          if (!mask[l]) continue;
          dw = dword_of(per_element, dual, a0[l], a1[l], j);
          for (int k = 0; k < n; k++)
            if (seen[k] == dw) again = 1'b1;
          if (again) continue;
          seen[n] = dw;
          n++;
          distinct[dw[4:0]]++;
          if (distinct[dw[4:0]] > worst) worst = distinct[dw[4:0]];
        end
      total += worst;
    end
    return total;
  endfunction

  always @(posedge clk) begin
    if (!rst_n) begin
      busy <= 1'b0;
      prev_valid <= 1'b0;
    end else begin
      // Handshake: the testbench keeps a presented request until it is taken.
      if (prev_valid && !req_ready)
        assert (req_valid && req_lane_mask == prev_mask)
        else $error("request withdrawn or changed before it was taken");
      prev_valid <= req_valid && !req_ready;
      prev_mask  <= req_lane_mask;

      assert (!grant_valid || busy) else $error("grant with no request in flight");
      assert (!done || busy) else $error("done with no request in flight");
      assert (!busy || req_ready == done) else $error("req_ready while busy and not done");

      if (busy) begin
        automatic logic [7:0] now_served[64] = served_c;
        automatic logic all_served = 1'b1;
        assert (grant_valid || done) else $error("a busy cycle with neither grant nor done");
        if (grant_valid) begin
          automatic int g = int'(grant_group);
          automatic int first = g * lanes_c;
          automatic logic [31:0] from_banks = '0;
          automatic logic [63:0] lanes_of_slots = '0;
          cycles_c <= cycles_c + 1;
          assert (first < 64 && (mask_c & ((64'd1 << lanes_c) - 64'd1) << first) != '0)
          else $error("group %0d has no active lane", g);
          assert (g >= group_c) else $error("group %0d after group %0d", g, group_c);
          assert (grant_conflict == (g == group_c))
          else $error("grant_conflict=%0d in group %0d (previous %0d)", grant_conflict, g, group_c);
          if (g != group_c)  // a new group: every earlier lane is done
            for (int l = 0; l < first && l < 64; l++)
              for (int j = 0; j < dwords_c; j++)
                assert (!mask_c[l] || served_c[l][j])
                else $error("group %0d starts before lane %0d dword %0d was served", g, l, j);
          group_c <= g;
          assert (served_slots != '0) else $error("grant with no slot");
          for (int b = 0; b < 32; b++) begin
            assert (bank_active[b] == (bank_slots[b] != '0)) else $error("bank_active[%0d]", b);
            if (bank_active[b])
              assert (bank_dword[b][4:0] == 5'(b)) else $error("bank %0d serves a dword of another bank", b);
            for (int i = 0; i < 32; i++)
              if (bank_slots[b][i]) begin
                assert (!from_banks[i]) else $error("slot %0d in two banks", i);
                from_banks[i] = 1'b1;
              end
          end
          assert (from_banks == served_slots) else $error("bank_slots do not make up served_slots");
          for (int i = 0; i < 32; i++) begin
            automatic int l = first + i / slots_c;
            automatic int j = i % slots_c;
            automatic logic valid = l < 64 && j < dwords_c && mask_c[l[5:0]];
            automatic logic [31:0] w;
            if (!valid) begin
              assert (!served_slots[i]) else $error("slot %0d of group %0d is no active dword", i, g);
              continue;
            end
            w = want(l, j);
            if (served_slots[i]) begin
              assert (!served_c[l][j]) else $error("lane %0d dword %0d served twice", l, j);
              assert (bank_active[w[4:0]] && bank_dword[w[4:0]] == w && bank_slots[w[4:0]][i])
              else $error("slot %0d (lane %0d) served by a bank that does not serve its dword", i, l);
              now_served[l][j] = 1'b1;
              lanes_of_slots[l] = 1'b1;
            end else if (!served_c[l][j])
              assert (bank_active[w[4:0]] && bank_dword[w[4:0]] != w)
              else $error("lane %0d dword %0d left waiting while its bank is idle or serves its dword", l, j);
          end
          assert (lanes_of_slots == served_lanes) else $error("served_lanes are not the slots' lanes");
        end
        for (int l = 0; l < 64; l++) begin
          served_c[l] <= now_served[l];
          for (int j = 0; j < dwords_c; j++)
            if (mask_c[l] && !now_served[l][j]) all_served = 1'b0;
        end
        assert (done == all_served) else $error("done=%0d while all dwords served=%0d", done, all_served);
        age <= age + 1;
        assert (age < 64 * 8 + 2) else $error("request never completes");
        if (done) begin
          automatic int cycles = cycles_c + (grant_valid ? 1 : 0);
          assert (cycles == expected_c)
          else $error("request took %0d cycles, the rule gives %0d", cycles, expected_c);
          busy <= 1'b0;
          done_count <= done_count + 1;
        end
      end
      if (req_valid && req_ready) begin
        automatic int per_element = 32'(req_width) + 1;
        automatic int dwords = per_element * (req_dual ? 2 : 1);
        busy          <= 1'b1;
        mask_c        <= req_lane_mask;
        dual_c        <= req_dual;
        per_element_c <= per_element;
        dwords_c      <= dwords;
        slots_c       <= slots_per_lane(dwords);
        lanes_c       <= 32 / slots_per_lane(dwords);
        expected_c    <= expected_cycles(req_lane_mask, per_element, req_dual, req_addr0, req_addr1);
        cycles_c      <= 0;
        age           <= 0;
        group_c       <= -1;
        for (int l = 0; l < 64; l++) begin
          served_c[l]  <= '0;
          addr_c[0][l] <= req_addr0[l];
          addr_c[1][l] <= req_addr1[l];
        end
      end
    end
  end

endmodule

// Protocol testbench of lds_bank_arbiter (simulation only; clocked from tb_main.cpp).
//
// Stimulus: random requests (lane masks from full to single lanes and empty, b32/b64/b96/b128,
// read2/write2, addresses from all-broadcast to all-in-one-bank, strides), presented back to back
// or after random gaps, with req_valid held (and the request stable) until req_ready.
//
// Assertions, checked on every clock edge:
//   * grants only while a taken request is in flight, never in a cycle without served lanes;
//   * a served lane is active, in the granted half-wave, and not served twice in a pass: it has
//     been served exactly as often as the least-served active lane of its half-wave;
//   * each bank serves one dword: every lane in bank_lanes[b] is in bank b and wants
//     bank_dword[b] in this pass; bank_active matches; the banks' lanes make up served_lanes;
//   * work-conserving: a waiting lane is never left out while its bank is idle or serves its dword;
//   * grant_conflict is high exactly in the cycles after the first of a pass;
//   * done comes with the cycle in which every active lane has been served once per pass (not
//     before, not after), exactly once per request; req_ready is low while a request is busy;
//   * each request takes as many cycles as the rule gives: per pass, the busiest bank's number of
//     distinct dwords.
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
  logic                grant_valid, grant_half, grant_conflict, done;
  logic [63:0]         served_lanes;
  logic [31:0]         bank_active;
  logic [31:0][31:0]   bank_lanes, bank_dword;

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
  int                passes_c, dwords_c, cycles_c, expected_c, age;
  logic [31:0]       addr_c[2][64];
  int                served_n[64];  // times each lane has been served
  logic              prev_valid;
  logic [63:0]       prev_mask;

  function automatic int expected_cycles(logic [63:0] mask, int dwords, int elems,
                                         logic [63:0][31:0] a0, logic [63:0][31:0] a1);
    int total = 0;
    for (int e = 0; e < elems; e++)
      for (int d = 0; d < dwords; d++)
        for (int h = 0; h < 2; h++) begin
          int worst = 0;
          for (int b = 0; b < 32; b++) begin
            int distinct = 0;
            for (int i = 0; i < 32; i++) begin
              logic [31:0] dw_i;
              logic first_of_dword;
              if (!mask[h*32+i]) continue;
              dw_i = (e == 0 ? a0[h*32+i] : a1[h*32+i]) + 32'(d);
              if (dw_i[4:0] != 5'(b)) continue;
              first_of_dword = 1'b1;
              for (int j = 0; j < i; j++)
                if (mask[h*32+j] && ((e == 0 ? a0[h*32+j] : a1[h*32+j]) + 32'(d)) == dw_i)
                  first_of_dword = 1'b0;
              if (first_of_dword) distinct++;
            end
            if (distinct > worst) worst = distinct;
          end
          total += worst;
        end
    return total;
  endfunction

  // Dword lane l wants in its pass number k.
  /* verilator lint_off UNUSEDSIGNAL */  // l < 64
  function automatic logic [31:0] lane_dword(int l, int k);
    return addr_c[k/dwords_c][l[5:0]] + 32'(k % dwords_c);
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

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
        automatic int k_min[2] = '{1000, 1000};
        automatic logic all_served = 1'b1;
        automatic logic [63:0] from_banks = '0;
        for (int l = 0; l < 64; l++)
          if (mask_c[l] && served_n[l] < k_min[l/32]) k_min[l/32] = served_n[l];
        assert (grant_valid || done) else $error("a busy cycle with neither grant nor done");
        if (grant_valid) begin
          automatic int h = grant_half ? 1 : 0;
          automatic int k = k_min[h];
          automatic logic later_cycle = 1'b0;
          cycles_c <= cycles_c + 1;
          assert (served_lanes != '0) else $error("grant with no lane");
          assert ((served_lanes & ~mask_c) == '0) else $error("inactive lane served");
          assert ((served_lanes & (h == 1 ? 64'h0000_0000_ffff_ffff : 64'hffff_ffff_0000_0000))
                  == '0) else $error("lane of the other half-wave served");
          for (int b = 0; b < 32; b++) begin
            assert (bank_active[b] == (bank_lanes[b] != '0)) else $error("bank_active[%0d]", b);
            if (bank_active[b])
              assert (bank_dword[b][4:0] == 5'(b)) else $error("bank %0d serves a dword of another bank", b);
            for (int i = 0; i < 32; i++)
              if (bank_lanes[b][i]) begin
                assert (!from_banks[h*32+i]) else $error("lane %0d in two banks", h*32+i);
                from_banks[h*32+i] = 1'b1;
                assert (lane_dword(h*32+i, k) == bank_dword[b])
                else $error("bank %0d serves lane %0d, which wants another dword", b, h*32+i);
              end
          end
          assert (from_banks == served_lanes) else $error("bank_lanes do not make up served_lanes");
          for (int i = 0; i < 32; i++) begin
            automatic int l = h * 32 + i;
            automatic logic [31:0] want = lane_dword(l, k);
            if (!mask_c[l]) continue;
            if (served_n[l] == k + 1) later_cycle = 1'b1;  // served earlier in this pass
            if (served_lanes[l])
              assert (served_n[l] == k) else $error("lane %0d served twice in a pass", l);
            else if (served_n[l] == k)
              assert (bank_active[want[4:0]] && bank_dword[want[4:0]] != want)
              else $error("lane %0d left waiting while its bank is idle or serves its dword", l);
          end
          assert (grant_conflict == later_cycle) else $error("grant_conflict wrong");
        end
        for (int l = 0; l < 64; l++) begin
          automatic int n = served_n[l] + ((grant_valid && served_lanes[l]) ? 1 : 0);
          served_n[l] <= n;
          if (mask_c[l] && n != passes_c) all_served = 1'b0;
          assert (n <= (mask_c[l] ? passes_c : 0)) else $error("lane %0d served too often", l);
        end
        assert (done == all_served) else $error("done=%0d while all lanes served=%0d", done, all_served);
        age <= age + 1;
        assert (age < 2 * 4 * 2 * 32 + 2) else $error("request never completes");
        if (done) begin
          automatic int cycles = cycles_c + (grant_valid ? 1 : 0);
          assert (cycles == expected_c)
          else $error("request took %0d cycles, the rule gives %0d", cycles, expected_c);
          busy <= 1'b0;
          done_count <= done_count + 1;
        end
      end
      if (req_valid && req_ready) begin
        busy       <= 1'b1;
        mask_c     <= req_lane_mask;
        dwords_c   <= 32'(req_width) + 1;
        passes_c   <= (32'(req_width) + 1) * (req_dual ? 2 : 1);
        expected_c <= expected_cycles(req_lane_mask, 32'(req_width) + 1, req_dual ? 2 : 1,
                                      req_addr0, req_addr1);
        cycles_c   <= 0;
        age        <= 0;
        for (int l = 0; l < 64; l++) begin
          served_n[l]  <= 0;
          addr_c[0][l] <= req_addr0[l];
          addr_c[1][l] <= req_addr1[l];
        end
      end
    end
  end

endmodule

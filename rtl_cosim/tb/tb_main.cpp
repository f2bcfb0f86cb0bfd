// Clocks the protocol testbench (tb_lds_bank_arbiter.sv) until it calls $finish; a failed
// assertion stops it with an error and a non-zero exit.
#include <cstdio>
#include <memory>

#include "Vtb_lds_bank_arbiter.h"
#include "verilated.h"

int main(int argc, char** argv) {
  auto context = std::make_unique<VerilatedContext>();
  context->commandArgs(argc, argv);
  auto tb = std::make_unique<Vtb_lds_bank_arbiter>(context.get());
  tb->clk = 0;
  while (!context->gotFinish()) {
    tb->clk = !tb->clk;
    tb->eval();
    context->timeInc(1);
  }
  tb->final();
  if (context->gotError()) {
    std::fprintf(stderr, "tb_lds_bank_arbiter: assertion failures\n");
    return 1;
  }
  return 0;
}

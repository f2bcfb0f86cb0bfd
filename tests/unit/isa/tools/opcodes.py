"""Lists every opcode llvm-objdump-15 knows for a target, per encoding family."""
import sys
from oracle import objdump_words

# family: (opcode count, [encoders for a few operand variants])
FAM = {
    "sop2": (0x60, [lambda o: [(2 << 30) | (o << 23) | (1 << 8) | 2],
                    lambda o: [(2 << 30) | (o << 23) | (4 << 16) | (2 << 8) | 4]]),
    "sopk": (0x20, [lambda o: [(0xb << 28) | (o << 23) | 0x1234, 0x1234],
                    lambda o: [(0xb << 28) | (o << 23) | (4 << 16) | 0x1, 0]]),
    "sop1": (0x100, [lambda o: [(0x17d << 23) | (o << 8) | 2], lambda o: [(0x17d << 23) | (4 << 16) | (o << 8) | 4]]),
    "sopc": (0x80, [lambda o: [(0x17e << 23) | (o << 16) | (1 << 8) | 2]]),
    "sopp": (0x80, [lambda o: [(0x17f << 23) | (o << 16) | 1], lambda o: [(0x17f << 23) | (o << 16)]]),
    "smem": (0x100, [lambda o: [(0x30 << 26) | (o << 18) | (1 << 17) | (4 << 6) | 2, 0x10],
                     lambda o: [(0x30 << 26) | (o << 18) | (1 << 17), 0],
                     lambda o: [(0x30 << 26) | (o << 18) | (1 << 17) | (8 << 6) | 2, 0x10]]),
    "vop2": (0x3e, [lambda o: [(o << 25) | (1 << 17) | (2 << 9) | 0x103]]),
    "vop1": (0x100, [lambda o: [(0x3f << 25) | (1 << 17) | (o << 9) | 0x103], lambda o: [(0x3f << 25) | (o << 9)]]),
    "vopc": (0x100, [lambda o: [(0x3e << 25) | (o << 17) | (2 << 9) | 0x103]]),
    "vop3": (0x380, [lambda o: [(0x34 << 26) | (o << 16) | 4, 0x103 | (0x104 << 9) | (0x106 << 18)],
                     lambda o: [(0x34 << 26) | (o << 16), 0]]),
    "vop3p": (0x80, [lambda o: [(0x1a7 << 23) | (o << 16) | 4 | (3 << 11), 0x103 | (0x104 << 9) | (0x106 << 18) | (3 << 27)]]),
    "ds": (0x100, [lambda o: [(0x36 << 26) | (o << 17), v] for v in (0x04030201, 0x00030201, 0x00000201, 0x00000001, 0x04000001, 0x04000000, 0x04000201, 0, 0x04030001)]),
    "flat": (0x80, [lambda o, v=v: [(0x37 << 26) | (o << 18), v] for v in (0x04000201, 0x00000201, 0x04000001, 0x00000001)]),
    "global": (0x80, [lambda o, v=v: [(0x37 << 26) | (o << 18) | (2 << 14), v] for v in (0x047f0201, 0x007f0201, 0x047f0001, 0x007f0001)]),
    "scratch": (0x80, [lambda o, v=v: [(0x37 << 26) | (o << 18) | (1 << 14), v] for v in (0x047f0201, 0x007f0201, 0x047f0001, 0x007f0001)]),
    "mubuf": (0x80, [lambda o: [(0x38 << 26) | (o << 18), 0x01010001 | (1 << 8)], lambda o: [(0x38 << 26) | (o << 18), 0]]),
    "mtbuf": (0x10, [lambda o: [(0x3a << 26) | (o << 15) | (1 << 19), 0x01010001 | (1 << 8)]]),
    "mimg": (0x80, [lambda o: [(0x3c << 26) | (o << 18) | (0xf << 8), 0x00010001], lambda o: [(0x3c << 26) | (o << 18) | (0x1 << 8), 0x00010001]]),
    "vintrp": (4, [lambda o: [(0x35 << 26) | (1 << 18) | (o << 16) | 2]]),
    "exp": (1, [lambda o: [(0x31 << 26) | 0xf, 0x04030201]]),
}
FAM["ds"] = (0x100, [(lambda v: (lambda o: [(0x36 << 26) | (o << 17), v]))(v) for v in (0x04030201, 0x00030201, 0x00000201, 0x00000001, 0x04000001, 0x04000000, 0x04000201, 0, 0x04030001)])
FAM["flat"] = (0x80, [(lambda v: (lambda o: [(0x37 << 26) | (o << 18), v]))(v) for v in (0x04000201, 0x00000201, 0x04000001, 0x00000001)])
for seg, nm in ((2, "global"), (1, "scratch")):
    FAM[nm] = (0x80, [(lambda v, s: (lambda o: [(0x37 << 26) | (o << 18) | (s << 14), v]))(v, seg) for v in (0x047f0201, 0x007f0201, 0x047f0001, 0x007f0001, 0x04000201, 0x00000201)])

# DS opcodes that exist only with gds=1 (ds_gws_*, ds_ordered_count: llvm-objdump-15 prints
# their gds=0 encodings as .long): the DS layouts again with the gds bit set. enumerate_ops
# lists under "ds_gds" only the opcodes that "ds" (gds=0) did not find.
FAM["ds_gds"] = (0x100, [(lambda v: (lambda o: [(0x36 << 26) | (o << 17) | (1 << 16), v]))(v) for v in (0x04030201, 0x00030201, 0x00000201, 0x00000001, 0x04000001, 0x04000000, 0x04000201, 0, 0x04030001, 0x01000002)])

# MUBUF opcodes that exist only with the lds bit (buffer_store_lds_dword): listed under
# "mubuf_lds" when "mubuf" (lds=0) did not find them.
FAM["mubuf_lds"] = (0x80, [lambda o: [(0x38 << 26) | (o << 18) | (1 << 16), 0x00010000]])


def enumerate_ops(mcpu):
    out = {}
    for name, (n, variants) in FAM.items():
        for mk in variants:
            res = objdump_words([mk(o) for o in range(n)], mcpu)
            for o, (t, sz) in enumerate(res):
                if name == "ds_gds" and ("ds", o) in out:
                    continue
                if name == "mubuf_lds" and ("mubuf", o) in out:
                    continue
                if t and not t.startswith(".long") and (name, o) not in out:
                    out[(name, o)] = (t.split()[0], sz, mk(o), t)
    return out


if __name__ == "__main__":
    ops = enumerate_ops(sys.argv[1])
    for (fam, o), (mn, sz, words, text) in sorted(ops.items()):
        print(fam, hex(o), mn, sz, " ".join("%08x" % w for w in words), "#", text)

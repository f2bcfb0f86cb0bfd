// replaced by the ISA implementation

// replaced by the loader implementation

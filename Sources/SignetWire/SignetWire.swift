// SignetWire: filled in by its owner.

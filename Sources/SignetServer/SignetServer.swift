// SignetServer: filled in by its owner.

// SignetStore: filled in by its owner.

// SignetTesting: filled in by its owner.

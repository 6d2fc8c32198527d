// SignetJOSE: filled in by its owner.

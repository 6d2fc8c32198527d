// SignetHTTP: filled in by its owner.

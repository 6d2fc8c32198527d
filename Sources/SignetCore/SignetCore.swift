// SignetCore: filled in by its owner.

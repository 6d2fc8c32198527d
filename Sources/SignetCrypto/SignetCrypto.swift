// SignetCrypto: filled in by its owner.

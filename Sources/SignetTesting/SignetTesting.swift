// PKCEPair moved to SignetClientCore (SignetKit needs it); tests importing SignetTesting keep it.
@_exported import struct SignetClientCore.PKCEPair

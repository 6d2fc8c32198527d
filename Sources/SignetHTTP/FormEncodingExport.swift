// The form encoding (`FormEncoding`, `FormError`, `PercentDecoding`) lives in its own small target
// so the clients share it without linking the server; SignetHTTP's users keep reaching it here.
@_exported import SignetFormEncoding

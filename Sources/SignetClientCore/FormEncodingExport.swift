// The strict form encoding that SignetClientCore's requests use (`FormEncoding`), the same one
// SignetHTTP uses; the kit, federation and resource targets reach it through SignetClientCore.
@_exported import SignetFormEncoding

import Testing
@testable import SignetClientCore

@Test func SignetClientCoreLinks() { _ = SignetClientCore.self }

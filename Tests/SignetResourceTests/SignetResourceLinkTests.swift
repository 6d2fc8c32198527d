import Testing
@testable import SignetResource

@Test func SignetResourceLinks() { _ = SignetResource.self }

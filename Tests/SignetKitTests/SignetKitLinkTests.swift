import Testing
@testable import SignetKit

@Test func SignetKitLinks() { _ = SignetKit.self }
